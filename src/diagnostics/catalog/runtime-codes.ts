import type { CatalogEntry } from "./catalog-entry";

export const runtimeCodes: CatalogEntry[] = [];
