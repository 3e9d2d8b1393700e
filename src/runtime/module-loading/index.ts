export type { LoadedModule, ModuleRequest } from "./loaded-module";
export type { ModuleKind } from "./module-kind";
export { moduleKindOf } from "./module-kind";
export { integrityOf } from "./integrity";
export { moduleRequests } from "./module-requests";
export type { ModuleSources } from "./module-requests";
export { installLumaModule, isLumaSpecifier, lumaModuleExports } from "./luma-virtual-module";
