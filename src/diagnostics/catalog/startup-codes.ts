import type { CatalogEntry } from "./catalog-entry";

export const startupCodes: CatalogEntry[] = [];
