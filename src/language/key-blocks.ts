/**
 * Which key table each declaration block reads (§4 tool options, §5 model keys, §6 agent
 * keys, §12 datasource/query/command keys): one row per block, so the checker
 * (`rules/config-keys.ts`), completion (by the block's keyword) and the first-hour hints
 * (by its noun) walk the same list. The tables themselves — kind, default, doc line and
 * runtime field of every key — are in `keys/`, one file per declaration kind; the runtime
 * reads its blocks through them (`keys/key-spec.ts` `readKeys`).
 *
 * Only value shapes live in the tables; cross-key rules (write tools and cache, base_url
 * for "openai-compatible", idempotency_key naming a parameter…) have their own rule files.
 */
import type { Decl, Entry } from "../syntax/ast";
import { AGENT_KEYS } from "./keys/agent-keys";
import { DATASOURCE_KEYS } from "./keys/datasource-keys";
import type { KeySpec, KeyTable } from "./keys/key-spec";
import { MODEL_KEYS } from "./keys/model-keys";
import { STATEMENT_KEYS } from "./keys/statement-keys";
import { TOOL_KEYS } from "./keys/tool-keys";

export type { KeySpec, KeyTable };

export interface KeyBlock {
  /** The declaration kinds whose block this is. */
  kinds: readonly Decl["kind"][];
  /** The keywords that open it (completion finds the block by its keyword). */
  keywords: readonly string[];
  /** What a hint calls one of its keys: "`temperature` is a model key". */
  noun: string;
  table: KeyTable;
}

export const KEY_BLOCKS: readonly KeyBlock[] = [
  { kinds: ["Tool"], keywords: ["tool"], noun: "a tool option", table: TOOL_KEYS },
  { kinds: ["Model"], keywords: ["model"], noun: "a model key", table: MODEL_KEYS },
  { kinds: ["Agent"], keywords: ["agent"], noun: "an agent key", table: AGENT_KEYS },
  { kinds: ["Datasource"], keywords: ["datasource"], noun: "a datasource key", table: DATASOURCE_KEYS },
  { kinds: ["Query", "Command"], keywords: ["query", "command"], noun: "a query/command key", table: STATEMENT_KEYS },
];

/** A key of some block's table: what the cross-key rules may look up (`ctx.entry`). */
export type BlockKey =
  | keyof typeof TOOL_KEYS
  | keyof typeof MODEL_KEYS
  | keyof typeof AGENT_KEYS
  | keyof typeof DATASOURCE_KEYS
  | keyof typeof STATEMENT_KEYS;

/** The key table and entries of a declaration with a block of entries. */
export function entriesOf(decl: Decl): { table: KeyTable; entries: Entry[] } | undefined {
  const block = KEY_BLOCKS.find((b) => b.kinds.includes(decl.kind));
  if (!block) return undefined;
  const entries = decl.kind === "Tool" ? decl.options : "entries" in decl ? decl.entries : [];
  return { table: block.table, entries };
}
