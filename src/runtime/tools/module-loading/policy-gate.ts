/**
 * Fails closed on `tool_module_policy` until the strict policy is implemented: a config
 * that asks for a sandbox must never get modules loaded "as if" sandboxed.
 */
import { basename } from "node:path";
import type { LoadedConfig } from "../../../config/config-types";
import { startupError } from "../../../diagnostics/luma-error";

export function assertModulePolicySupported({ config, path }: LoadedConfig): void {
  if (config.tool_module_policy === undefined) return;
  const file = path ? basename(path) : "luma.config.json";
  throw startupError(
    `${file}: 'tool_module_policy' is not supported yet: the strict tool-module policy is not implemented, ` +
      `and Luma will not load tool modules as if they were sandboxed. Remove the block to load them without a sandbox.`,
  );
}
