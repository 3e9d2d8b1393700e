export type { ContextFieldSource, IdempotencyStoreConfig, LoadedConfig, LumaConfig, ToolModuleEntry, ToolModulePolicy } from "./config-types";
export { CONFIG_FILE_NAME, defaultConfig, loadConfig } from "./load-config";
export type { LoadConfigOptions } from "./load-config";
