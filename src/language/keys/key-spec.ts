/**
 * What one key of a declaration block is (one entry of a key table, `*-keys.ts` here):
 * the kind of value it holds (what the checker accepts and how the runtime reads it, by
 * `../value-kinds.ts`; the checker judges it by `check/value-kind-checks.ts`), its default, its doc line (LSP completion), and the name of
 * its runtime field where that is not the key itself (`side_effects` → `sideEffects`).
 *
 * The runtime reads a block with `readKeys(TABLE, entries)`, whose type `KeyValues<typeof
 * TABLE>` is derived from the table: a key added to a table is accepted by the checker,
 * offered by completion and present in the runtime's object at once, and a runtime field
 * no table entry produces does not compile. Every field is present (the optional ones as
 * undefined), in table order, so every object read from one table shares one shape: the
 * tool pipeline reads them on every call, and reads that see one shape stay fast.
 */
import type { Entry } from "../../syntax/ast";
import type { ValueKind } from "../value-kinds";

export interface KeySpec<T = unknown> {
  readonly kind: ValueKind<T>;
  /** One line: what the key means (and its unit); completion shows it. */
  readonly doc: string;
  readonly required?: boolean;
  /** The spec's default: what the runtime holds when the key is absent. */
  readonly default?: T;
  /** The runtime field's name, when it is not the key's. */
  readonly field?: string;
}

export type KeyTable = Readonly<Record<string, KeySpec<any>>>;

type ValueOf<S> = S extends { kind: ValueKind<infer T> } ? (S extends { default: unknown } ? T : T | undefined) : never;
type FieldOf<K, S> = S extends { field: infer F extends string } ? F : K;

/** The runtime object a table's block reads into: one field per key, typed by its kind. */
export type KeyValues<T extends KeyTable> = { -readonly [K in keyof T as FieldOf<K, T[K]>]: ValueOf<T[K]> };

/**
 * Declares a table, keeping each entry's literal type (its `default`, its `field`) for
 * `KeyValues`; each default must be a value of its key's kind. A list default is shared by
 * every block that sets none, so it is frozen.
 */
export const keyTable = <const T extends Record<string, KeySpec<any>>>(
  table: T & { [K in keyof T]: T[K] extends { kind: ValueKind<infer V> } ? KeySpec<V> : never },
): T => {
  for (const spec of Object.values(table)) if (typeof spec.default === "object") Object.freeze(spec.default);
  return table;
};

const fieldOf = (key: string, spec: KeySpec): string => spec.field ?? key;

/** The runtime object of a block that sets nothing: every default. */
export function defaultsOf<T extends KeyTable>(table: T): KeyValues<T> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) out[fieldOf(key, spec)] = spec.default;
  return out as KeyValues<T>;
}

/** Reads a block's entries by its table; an unknown key is the checker's business. */
export function readKeys<T extends KeyTable>(table: T, entries: readonly Entry[]): KeyValues<T> {
  const out = defaultsOf(table) as Record<string, unknown>;
  for (const e of entries) {
    const spec: KeySpec | undefined = Object.hasOwn(table, e.key) ? table[e.key] : undefined;
    const value = spec?.kind.read(e.value);
    if (spec && value !== undefined) out[fieldOf(e.key, spec)] = value;
  }
  return out as KeyValues<T>;
}

/**
 * A block's entry for one key of its table, for what needs the entry itself (its span);
 * the key must be one of the table's, so a renamed key cannot leave a lookup behind.
 */
export const entryOf = <T extends KeyTable>(_table: T, entries: readonly Entry[], key: keyof T & string): Entry | undefined =>
  entries.find((e) => e.key === key);

/** A key's doc line with its default, as the editor shows it (completion, hover). */
export const keyDocText = (key: string, spec: KeySpec): string =>
  `\`${key}\`${spec.required ? " (required)" : spec.default !== undefined ? ` (default ${JSON.stringify(spec.default)})` : ""}: ${spec.doc}`;
