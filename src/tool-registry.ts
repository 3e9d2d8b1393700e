/**
 * The built-in default handlers (spec §10) — handlers only: a program still declares the
 * `tool` contract, and a user module may replace any of them.
 *
 * This path is also the one the original docs import `LumaToolError` from
 * (`import { LumaToolError } from "./src/tool-registry"`), so it re-exports it.
 */
import type { ToolHandler } from "./luma-module";

export { LumaToolError, isLumaToolError } from "./luma-module";
export type { ToolHandler, DatasourceBridge, LumaToolErrorInit } from "./luma-module";

/** The operations `calculate` knows, as a table so a new one is one line. */
const CALCULATIONS: Record<string, (a: number, b: number) => number> = {
  add: (a, b) => a + b,
  multiply: (a, b) => a * b,
};

export const calculate: ToolHandler = (input: { a: number; b: number; operation: string }) => {
  const op = Object.hasOwn(CALCULATIONS, input.operation) ? CALCULATIONS[input.operation] : undefined;
  if (!op) throw new Error(`Unsupported operation: ${String(input.operation)}`);
  return { result: op(input.a, input.b) };
};

export const text_stats: ToolHandler = (input: { text: string }) => {
  const trimmed = input.text.trim();
  return {
    characters: input.text.length,
    // "".split(/\s+/) would be [""], i.e. one word; empty text has none.
    words: trimmed === "" ? 0 : trimmed.split(/\s+/).length,
  };
};

/** Every default handler by tool name. */
export const defaultToolHandlers: Readonly<Record<string, ToolHandler>> = Object.freeze({ calculate, text_stats });
