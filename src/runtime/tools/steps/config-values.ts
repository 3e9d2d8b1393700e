/**
 * Reading the plain values out of declaration entries (`key: value` in a tool or agent
 * body). The checker has already rejected ill-typed values, so these readers are tolerant:
 * a value of the wrong shape reads as `undefined` and the option keeps its default.
 */
import type { ConfigValue, Entry } from "../../../syntax/ast";

export const readString = (v: ConfigValue): string | undefined =>
  v.kind === "Lit" && typeof v.value === "string" ? v.value : v.kind === "Path" ? v.parts.join(".") : undefined;

export const readNumber = (v: ConfigValue): number | undefined =>
  v.kind === "Lit" && typeof v.value === "number" ? v.value : undefined;

export const readBool = (v: ConfigValue): boolean | undefined =>
  v.kind === "Lit" && typeof v.value === "boolean" ? v.value : undefined;

/** A dotted path written bare (`input.request_id`) or quoted (`"input.request_id"`). */
export const readPath = (v: ConfigValue): string[] | undefined =>
  v.kind === "Path" ? v.parts : v.kind === "Lit" && typeof v.value === "string" ? v.value.split(".") : undefined;

/** `["db", "cache"]` or `[db, cache]`; anything else reads as undefined. */
export const readStringList = (v: ConfigValue): string[] | undefined => {
  if (v.kind !== "List") return undefined;
  const out: string[] = [];
  for (const item of v.items) {
    const s = readString(item);
    if (s !== undefined) out.push(s);
  }
  return out;
};

/** Applies one reader per known key, table-driven; unknown keys are the checker's business. */
export const readEntries = <T>(entries: Entry[], readers: Record<string, (v: ConfigValue, into: T) => void>, into: T): T => {
  for (const e of entries) {
    const read = readers[e.key];
    if (read) read(e.value, into);
  }
  return into;
};
