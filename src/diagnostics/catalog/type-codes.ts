import type { CatalogEntry } from "./catalog-entry";

export const typeCodes: CatalogEntry[] = [];
