import type { CatalogEntry } from "./catalog-entry";

export const moduleCodes: CatalogEntry[] = [];
