/**
 * The `parse` kinds of a `tool_contexts` field (spec §8): how the raw text of an
 * environment variable becomes a value. A parser returns FAILED instead of throwing, so
 * no parser error (which might quote the text) can leak into a message.
 */
import type { ParseKind } from "./step";

export const FAILED = Symbol("parse failed");

const number = (raw: string): number | typeof FAILED => {
  if (raw.trim() === "") return FAILED;
  const n = Number(raw);
  return Number.isFinite(n) ? n : FAILED;
};

export const ENV_PARSERS: Record<ParseKind, (raw: string) => unknown> = {
  string: (raw) => raw,
  json: (raw) => {
    try {
      return JSON.parse(raw);
    } catch {
      return FAILED;
    }
  },
  number,
  integer: (raw) => {
    const n = number(raw);
    return typeof n === "number" && Number.isInteger(n) ? n : FAILED;
  },
  boolean: (raw) => (raw === "true" ? true : raw === "false" ? false : FAILED),
};

/** The word a message uses for a kind: "not a valid integer". */
export const PARSE_KIND_NOUN: Record<ParseKind, string> = {
  string: "string",
  json: "JSON text",
  number: "finite number",
  integer: "integer",
  boolean: "boolean (true or false)",
};
