/**
 * Config entries for the fast parser (grammar.ohm § config entries: `EntryBlock`, `Entry`,
 * `ConfigValue`, `ConfigList`, `path`): the nodes `to-ast-types.ts` builds for a model's,
 * a tool's or an agent's `key: value` lines. Every value keeps its span — the checker
 * points at a bad option. Nested blocks and lists recurse, bounded by the shared count.
 */
import type { ConfigValue, Entry } from "../ast";
import { withSystemTemplate } from "../string-literal";
import { entryKey, parseExpr, parseListThen } from "./fast-expressions";
import { parseLiteral } from "./fast-types";
import { type FastState, char, identEnd, keyword, recurse, skip, span, unrecurse } from "./fast-scanner";

/** `EntryBlock = "{" (Entry | sep)* "}"`: the entries, or undefined (pos kept). */
export function parseEntryBlock(s: FastState): Entry[] | undefined {
  const save = s.pos;
  if (!char(s, 123)) return undefined;
  recurse(s);
  const entries = itemsThenClose(s, parseEntry);
  unrecurse(s);
  if (!entries) s.pos = save;
  return entries;
}

/**
 * `(Item | sep)* "}"`, the body of every declaration block: the items, separators (`,` `;`)
 * dropped, or undefined when no `}` follows.
 */
export function itemsThenClose<T>(s: FastState, item: (s: FastState) => T | undefined): T[] | undefined {
  const items: T[] = [];
  for (;;) {
    const next = item(s);
    if (next !== undefined) items.push(next);
    else if (!char(s, 44) && !char(s, 59)) break;
  }
  return char(s, 125) ? items : undefined;
}

/** `Entry = entryKey ":" ConfigValue`. */
export function parseEntry(s: FastState): Entry | undefined {
  const save = s.pos;
  const key = entryKey(s);
  if (key) {
    const keySpan = span(s, key.start, s.pos);
    const value = char(s, 58) ? parseConfigValue(s) : undefined;
    if (value) {
      const entry: Entry = { kind: "Entry", key: key.text, keySpan, value, span: span(s, key.start, s.pos) };
      withSystemTemplate(entry, s.src.slice(value.span.start - s.base, value.span.end - s.base));
      return entry;
    }
  }
  s.pos = save;
  return undefined;
}

/** `ConfigItem = GuardedPath | AgentToolItem | ConfigValue`, `GuardedPath = (AgentToolItem | path) kwWhen Expr`: a list's item. */
function parseConfigItem(s: FastState): ConfigValue | undefined {
  const value = parseAgentToolItem(s) ?? parseConfigValue(s);
  if (value?.kind !== "Path") return value;
  const save = s.pos;
  if (keyword(s, "when") < 0) return value;
  const when = parseExpr(s);
  if (when) return { ...value, when };
  s.pos = save;
  return value;
}

/** `AgentToolItem = identName "(" (Exprs ","?)? ")" "." identName`: `Refunds(user).handle`, or undefined (pos kept). */
function parseAgentToolItem(s: FastState): ConfigValue | undefined {
  const save = s.pos;
  skip(s);
  const start = s.pos;
  const nameEnd = identEnd(s.src, start);
  if (nameEnd < 0) return undefined;
  s.pos = nameEnd;
  if (!char(s, 40)) {
    s.pos = save;
    return undefined;
  }
  recurse(s);
  const args = parseListThen(s, parseExpr, 41);
  unrecurse(s);
  if (args && char(s, 46)) {
    skip(s);
    const methodStart = s.pos;
    const methodEnd = identEnd(s.src, methodStart);
    if (methodEnd >= 0) {
      s.pos = methodEnd;
      const parts = [s.src.slice(start, nameEnd), s.src.slice(methodStart, methodEnd)];
      return { kind: "Path", parts, span: span(s, start, methodEnd), args };
    }
  }
  s.pos = save;
  return undefined;
}

/** `ConfigValue = ConfigList | EntryBlock | literal | path`. */
function parseConfigValue(s: FastState): ConfigValue | undefined {
  const save = s.pos;
  skip(s);
  const start = s.pos;
  const src = s.src;
  const c = src.charCodeAt(start);
  let value: ConfigValue | undefined;
  if (c === 91) {
    recurse(s);
    s.pos++;
    const items = parseListThen(s, parseConfigItem, 93);
    unrecurse(s);
    if (items) value = { kind: "List", items, span: span(s, start, s.pos) };
  } else if (c === 123) {
    const entries = parseEntryBlock(s);
    if (entries) value = { kind: "Obj", entries, span: span(s, start, s.pos) };
  } else {
    const literal = parseLiteral(s);
    if (literal !== undefined) value = { kind: "Lit", value: literal, span: span(s, start, s.pos) };
    else {
      // path = identName ("." identName)*, with no blanks inside.
      let end = identEnd(src, start);
      while (end >= 0 && src.charCodeAt(end) === 46) {
        const next = identEnd(src, end + 1);
        if (next < 0) break;
        end = next;
      }
      if (end >= 0) {
        s.pos = end;
        value = { kind: "Path", parts: src.slice(start, end).split("."), span: span(s, start, end) };
      }
    }
  }
  if (!value) s.pos = save;
  return value;
}
