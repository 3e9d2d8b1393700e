import type { CatalogEntry } from "./catalog-entry";

export const checkCodes: CatalogEntry[] = [];
