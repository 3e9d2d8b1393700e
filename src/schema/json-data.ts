/**
 * The one rule for values that come from host code (a tool's output, a thrown error's
 * `details`): they must be JSON data, because that is all a store, a trace line or a model
 * can hold. A value JSON would silently change (NaN → null, a Map → {}, a Date → a string,
 * `undefined` in an array → null) or cannot write at all (a BigInt, a cycle, nesting deeper
 * than JSON.stringify's stack) is rejected where it enters, naming its path — never later
 * as a raw `JSON.stringify` error after the handler ran, and the same on every backend, the
 * memory store included (which would otherwise hand back the live value unchanged).
 *
 * JSON data: null, booleans, strings, finite numbers, arrays without gaps, and plain objects
 * (prototype `Object.prototype` of any realm — a strict-policy module runs in a vm context —
 * or null). An object property whose value is `undefined` counts as absent, as in JSON.
 * Symbol-keyed properties are invisible to JSON and to Luma, and are not looked at.
 *
 * The walk is depth-first and recursive, bounded by MAX_JSON_DEPTH so it never exhausts the
 * stack itself; a shared (not cyclic) object is checked once, so a DAG costs its distinct
 * nodes, and its written-out size is counted from memoized sizes (MAX_JSON_VALUES). Paths are built only on failure. Most outputs are one flat object of strings and
 * numbers: `isFlatJson` answers those without allocating (~25 ns instead of ~120 ns).
 */
import type { ValidationIssue } from "./schema-table-types";
import { childPath, indexPath } from "./value-path";

/** Deeper than this, JSON.stringify and the recursive readers after it risk the stack (~100k here). */
export const MAX_JSON_DEPTH = 1000;

/**
 * A DAG — one object shared at many places — is written out once per place: 60 levels of
 * `[v, v]` are a few objects in memory and 2^60 in JSON text. Beyond this many objects and
 * arrays written out, the value is not one a store can hold.
 */
export const MAX_JSON_VALUES = 1_000_000;

type Segment = string | number;

/** What was found, and where: `at` from the value's root down, built as the walk unwinds. */
interface Found {
  what: string;
  at: Segment[];
  /** For a cycle: how many segments of `at` lead to the object it returns to. */
  cycleTo?: number;
}

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
};

const objectKind = (v: object): string => {
  const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof name !== "string" || name === "" || name === "Object") return "an object that is not a plain object";
  const builtin = /^(Date|Map|Set|WeakMap|WeakSet|RegExp|Promise|Error|ArrayBuffer|DataView|Buffer|URL)$|Array$/.test(name);
  return builtin ? `a ${name}` : `an instance of ${name}`;
};

class Walk {
  private readonly ancestors: object[] = [];
  /** Objects already found to be JSON data, with how many values each writes out. */
  private readonly sizes = new Map<object, number>();
  /** Values written out so far, a shared object counted at every place it appears. */
  private total = 0;

  value(v: unknown, depth: number): Found | undefined {
    switch (typeof v) {
      case "string":
      case "boolean":
        return undefined;
      case "number":
        return Number.isFinite(v) ? undefined : { what: String(v), at: [] };
      case "object":
        return v === null ? undefined : this.object(v, depth);
      case "undefined":
        return { what: "nothing (undefined)", at: [] };
      case "bigint":
        return { what: "a BigInt", at: [] };
      default:
        return { what: `a ${typeof v}`, at: [] };
    }
  }

  private object(v: object, depth: number): Found | undefined {
    const known = this.sizes.get(v);
    if (known !== undefined) return this.count(known);
    const back = this.ancestors.indexOf(v);
    if (back >= 0) return { what: "a cycle", at: [], cycleTo: back };
    if (depth >= MAX_JSON_DEPTH) return { what: `nesting deeper than ${MAX_JSON_DEPTH} levels`, at: [] };
    const isArray = Array.isArray(v);
    if (!isArray && !isPlainObject(v)) return { what: objectKind(v), at: [] };
    const before = this.total;
    this.ancestors.push(v);
    const found = this.count(1) ?? (isArray ? this.items(v, depth) : this.fields(v as Record<string, unknown>, depth));
    this.ancestors.pop();
    if (found === undefined) this.sizes.set(v, this.total - before);
    return found;
  }

  /** Containers only (their scalars are bounded by their length): enough to stop a DAG's blow-up. */
  private count(n: number): Found | undefined {
    this.total += n;
    return this.total > MAX_JSON_VALUES ? { what: `more than ${MAX_JSON_VALUES} objects and arrays once shared ones are written out`, at: [] } : undefined;
  }

  private items(a: unknown[], depth: number): Found | undefined {
    for (let i = 0; i < a.length; i++) {
      const found = this.value(a[i], depth + 1); // a hole reads as undefined: JSON would write null
      if (found !== undefined) return found.at.unshift(i), found;
    }
    return undefined;
  }

  private fields(o: Record<string, unknown>, depth: number): Found | undefined {
    for (const key of Object.keys(o)) {
      const item = o[key];
      if (item === undefined) continue; // absent, as in JSON
      const found = this.value(item, depth + 1);
      if (found !== undefined) return found.at.unshift(key), found;
    }
    return undefined;
  }
}

const isJsonScalar = (v: unknown): boolean =>
  v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

/** A plain object whose fields are all scalars (or absent): JSON data, no walk needed. */
const isFlatJson = (v: unknown): boolean => {
  if (v === null || typeof v !== "object" || Array.isArray(v) || !isPlainObject(v)) return false;
  const o = v as Record<string, unknown>;
  // for…in also sees inherited enumerable keys; a plain object's prototype has none that matter,
  // and anything odd falls through to the full walk, which only reads own keys.
  for (const key in o) {
    const item = o[key];
    if (item !== undefined && !isJsonScalar(item)) return false;
  }
  return true;
};

const pathOf = (root: string, at: readonly Segment[]): string =>
  at.reduce<string>((p, s) => (typeof s === "number" ? indexPath(p, s) : childPath(p, s)), root);

/**
 * The first place where `value` is not JSON data, as a hard issue with its full path
 * (`t.output.data.self must be JSON data, got a cycle (back to t.output.data).`), or
 * undefined. A nesting or size problem names the outermost field it is under, not a path a
 * thousand segments long.
 */
export function jsonDataIssue(value: unknown, root: string): ValidationIssue | undefined {
  if (isFlatJson(value)) return undefined;
  const found = new Walk().value(value, 0);
  if (found === undefined) return undefined;
  const deep = found.what.startsWith("nesting") || found.what.startsWith("more than");
  const path = pathOf(root, deep ? found.at.slice(0, 1) : found.at);
  const what = found.cycleTo === undefined ? found.what : `${found.what} (back to ${pathOf(root, found.at.slice(0, found.cycleTo))})`;
  return { path, rule: "json", message: `${path} must be JSON data, got ${what}.`, severity: "hard" };
}
