/**
 * The checker's message builders, derived from the one diagnostic catalog.
 *
 * Each check diagnostic is one entry of `src/diagnostics/catalog/check-*-codes.ts`: code,
 * title, text builder, explanation and example together. This file turns those entries into
 * what the rules call: `messages.unknownTool("x")` is the entry's `text("x")` with its
 * code, a `CheckMessage`, and `ctx.report` takes nothing else. There is no second table of
 * codes to keep in step: a message without an entry does not exist, and its parameters are
 * the entry's.
 *
 * Messages the spec words byte for byte (`exact: true` in their entry) are `exact.*`, so a
 * call site shows it is reproducing the spec; the rest are `messages.*`. The pieces of
 * messages the rules compose (how one names an owner or a callee) are `phrases`.
 */
import { oneOfText as oneOf } from "../language/declaration-nouns";
import { CHECK_DIAGNOSTICS } from "../diagnostics/catalog/check-codes";
import type { DiagnosticCode } from "../diagnostics/catalog";

/** What a check rule reports: the message and its catalog code (`luma explain CODE`). */
export interface CheckMessage {
  code: DiagnosticCode;
  text: string;
}

type Entries = typeof CHECK_DIAGNOSTICS;
type IsExact<K extends keyof Entries> = Entries[K] extends { exact: true } ? true : false;

/** The builders of the entries whose `exact` flag is `Exact`, each returning its text with its code. */
type Builders<Exact extends boolean> = {
  [K in keyof Entries as IsExact<K> extends Exact ? K : never]: (...args: Parameters<Entries[K]["text"]>) => CheckMessage;
};

function builders<Exact extends boolean>(exactOnes: Exact): Builders<Exact> {
  const out: Record<string, (...args: never[]) => CheckMessage> = {};
  for (const [name, entry] of Object.entries(CHECK_DIAGNOSTICS)) {
    if (("exact" in entry && entry.exact === true) !== exactOnes) continue;
    const text = entry.text as (...args: never[]) => string;
    out[name] = (...args) => ({ code: entry.code, text: text(...args) });
  }
  return out as unknown as Builders<Exact>;
}

/** Messages the spec words byte for byte. */
export const exact = builders(true);
/** Messages in the house style: a short sentence that names the thing, ending with a period. */
export const messages = builders(false);

/** The code of each message, by builder name (what `luma explain` and editors key on). */
export const EXACT_CODES = codesOf(exact);
export const MESSAGE_CODES = codesOf(messages);

function codesOf(group: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(group)) out[name] = CHECK_DIAGNOSTICS[name as keyof Entries].code;
  return out;
}

/** Pieces of messages: how one names an owner or a callee. */
export const phrases = {
  /** The owner a member or key message names: `tool 'x'`, `method 'A.run'`. */
  owner: {
    decl: (noun: string, name: string) => `${noun} '${name}'`,
    method: (agent: string, method: string) => `method '${agent}.${method}'`,
  },
  /** The callee as an arity message names it. */
  callee: {
    method: (agent: string, method: string) => `Method '${agent}.${method}'`,
    fn: (name: string) => `Function '${name}'`,
    builtin: (name: string) => `Builtin '${name}'`,
  },
};

export { oneOf };
