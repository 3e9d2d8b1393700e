import type { CatalogEntry } from "./catalog-entry";

export const configCodes: CatalogEntry[] = [];
