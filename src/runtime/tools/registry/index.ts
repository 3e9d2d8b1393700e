export { BUILTIN_MODULE } from "./registry-types";
export type { DatasourceBridge, OpenRemoteTools, RemoteToolSource, ToolHandler, ToolRegistry } from "./registry-types";
export { buildRegistry } from "./build-registry";
export type { BuildRegistryOptions } from "./build-registry";
export { loadToolRegistry } from "./load-tool-registry";
export type { LoadToolRegistryOptions } from "./load-tool-registry";
export { readModuleTools } from "./export-shape";
