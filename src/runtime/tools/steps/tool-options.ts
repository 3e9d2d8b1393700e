/**
 * A tool's options (spec §4 "Tool options"), read once from its declaration entries
 * through the tool key table (`language/keys/tool-keys.ts`): the keys, their defaults and
 * the runtime type of each come from there and nowhere else.
 */
import { TOOL_KEYS } from "../../../language/keys/tool-keys";
import { defaultsOf, readKeys, type KeyValues } from "../../../language/keys/key-spec";
import type { ToolDecl } from "../../../syntax/ast";

/** `idempotencyKey` is the path inside the validated input, without a leading `input.`. */
export type ToolOptions = KeyValues<typeof TOOL_KEYS>;
export type SideEffects = ToolOptions["sideEffects"];
export type RetryBackoff = ToolOptions["retryBackoff"];

/** Every option at its default: the options of a tool that sets none (and of statements). */
export const defaultToolOptions = (): ToolOptions => defaultsOf(TOOL_KEYS);

export const readToolOptions = (decl: ToolDecl): ToolOptions => readKeys(TOOL_KEYS, decl.options);
