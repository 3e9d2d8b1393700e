/**
 * Tool rules the runtime enforces when a program starts, before its first statement
 * (spec §4): reported by `luma FILE`, exit code 2, and by `luma check` (program-rules.ts).
 */
import type { LumaError } from "../../../diagnostics/luma-error";
import type { Program, ToolDecl } from "../../../syntax/ast";
import { readToolOptions } from "./tool-options";
import { toolErrors } from "./tool-errors";

/** The first violation, or undefined. */
export const checkToolRuntimeRules = (program: Program): LumaError | undefined => {
  for (const decl of program.decls) {
    if (decl.kind !== "Tool") continue;
    const tool = decl as ToolDecl;
    if (tool.needs.length > 0 && readToolOptions(tool).cache) return toolErrors.cacheWithNeeds(tool.name);
  }
  return undefined;
};
