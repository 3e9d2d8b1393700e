export type { LoadedModule, ModuleRequest } from "./loaded-module";
export type { ModuleKind } from "./module-kind";
export { moduleKindOf } from "./module-kind";
export { integrityOf } from "./integrity";
export { loadToolModules, moduleRequests } from "./load-tool-modules";
export type { ModuleSources } from "./load-tool-modules";
export { installLumaModule, isLumaSpecifier, lumaModuleExports } from "./luma-virtual-module";
