import type { CatalogEntry } from "./catalog-entry";

export const parseCodes: CatalogEntry[] = [];
