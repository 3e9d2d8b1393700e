/**
 * §4–6, §12: every `key: value` entry of a tool, model, agent, datasource, query or
 * command block must be a known key holding a value of its kind; required keys must be
 * present. The tables are in `language/key-blocks.ts`; how each kind of value is judged, in `value-kind-checks.ts`.
 */
import { entriesOf, type KeyTable } from "../../language/key-blocks";
import type { CheckContext } from "../context";
import { messages, phrases } from "../messages";
import { KIND_NOUN } from "../../language/declaration-nouns";
import { keyHints } from "../suggestions";
import { checkValueKind } from "../value-kind-checks";
import { keyElsewhereHint } from "../first-hour-hints";

/** The closest key of the block, else the block the key belongs to (`temperature` is a model key). */
const unknownKeyHints = (key: string, table: KeyTable): string[] => {
  const close = keyHints(key, Object.keys(table));
  return close.length ? close : keyElsewhereHint(key, table);
};

/** Each table's required keys, in table order, listed once (a large program has thousands of blocks). */
const required = new WeakMap<KeyTable, readonly string[]>();
function requiredKeys(table: KeyTable): readonly string[] {
  let keys = required.get(table);
  if (!keys) {
    keys = Object.entries(table).filter(([, spec]) => spec.required).map(([key]) => key);
    required.set(table, keys);
  }
  return keys;
}

export function configKeys(ctx: CheckContext): void {
  for (const decl of ctx.program.decls) {
    const block = entriesOf(decl);
    if (!block) continue;
    // Built only for a message: most blocks have nothing to report.
    const owner = () => phrases.owner.decl(KIND_NOUN[decl.kind], decl.name);
    for (const entry of block.entries) {
      const spec = Object.hasOwn(block.table, entry.key) ? block.table[entry.key] : undefined;
      if (!spec) ctx.report(messages.unknownKey(entry.key, owner()), entry.keySpan, { hints: unknownKeyHints(entry.key, block.table) });
      else if (!checkValueKind(spec.kind, entry.value, ctx, () => ({ key: entry.key, owner: owner() }))) {
        ctx.report(messages.keyValue(entry.key, owner(), spec.kind.expected), entry.value.span);
      }
    }
    for (const key of requiredKeys(block.table)) {
      if (!block.entries.some((e) => e.key === key)) ctx.report(messages.missingKey(key, owner()), decl.nameSpan);
    }
  }
}
