/**
 * CST → AST for types, fields, annotations, constant values and config entries: the
 * parts of declarations that hold data rather than code.
 */
import type * as ohm from "ohm-js";
import type { Annotation, ConfigValue, ConstValue, Entry, Field, PrimName, TypeRef } from "./ast";
import { commaList, itemsWithoutSeps, optionalList, spanBetween, spanOf, toAst } from "./parse-context";
import { constString, withSystemTemplate } from "./string-literal";

type Node = ohm.Node;

export const typeActions: ohm.ActionDict<unknown> = {
  Type(base: Node, marks: Node): TypeRef {
    let type = toAst(base) as TypeRef;
    for (const mark of marks.children) {
      type = { kind: "ArrayType", element: type, span: spanBetween(base, mark) };
    }
    return type;
  },
  TypeBase(inner: Node): TypeRef {
    if (inner.ctorName === "ident") return { kind: "NamedType", name: inner.sourceString, span: spanOf(inner) };
    return toAst(inner);
  },
  primType(_name: Node): TypeRef {
    return { kind: "PrimType", name: this.sourceString as PrimName, span: spanOf(this) };
  },
  EnumType(_kw: Node, _open: Node, values: Node, _comma: Node, _close: Node): TypeRef {
    return { kind: "EnumType", values: optionalList(values), span: spanOf(this) };
  },
  Strings(first: Node, _commas: Node, rest: Node): string[] {
    return [first, ...rest.children].map(constString);
  },

  Field(name: Node, question: Node, _colon: Node, type: Node, annotations: Node): Field {
    return {
      kind: "Field",
      name: name.sourceString,
      optional: question.numChildren > 0,
      type: toAst(type),
      annotations: annotations.children.map(toAst),
      span: spanOf(this),
      nameSpan: spanOf(name),
    };
  },
  Params(list: Node, _comma: Node): Field[] {
    return optionalList(list);
  },
  Fields: commaList,
  ConstValues: commaList,
  ConstEntries: commaList,
  ConfigValues: commaList,
  Annotation(name: Node, args: Node): Annotation {
    return {
      kind: "Annotation",
      name: name.sourceString.slice(1),
      args: args.numChildren > 0 ? toAst(args.child(0)) : [],
      span: spanOf(this),
    };
  },
  AnnotationArgs(_open: Node, list: Node, _comma: Node, _close: Node): Annotation["args"] {
    if (list.numChildren === 0) return [];
    const values = list.child(0);
    return [values.child(0), ...values.child(2).children].map((arg) => ({ value: toAst(arg), span: spanOf(arg) }));
  },

  // Constant values (annotation arguments) are plain JSON-like data.
  literal(inner: Node): ConstValue {
    switch (inner.ctorName) {
      case "string":
        return constString(inner);
      case "number":
        return Number(inner.sourceString);
      case "kwNull":
        return null;
      default:
        return inner.ctorName === "kwTrue";
    }
  },
  ConstList(_open: Node, list: Node, _comma: Node, _close: Node): ConstValue[] {
    return optionalList(list);
  },
  ConstObject(_open: Node, list: Node, _comma: Node, _close: Node): { [key: string]: ConstValue } {
    return Object.fromEntries(optionalList<[string, ConstValue]>(list));
  },
  ConstEntry(key: Node, _colon: Node, value: Node): [string, ConstValue] {
    return [toAst(key), toAst(value)];
  },
  entryKey(inner: Node): string {
    return inner.ctorName === "string" ? constString(inner) : inner.sourceString;
  },

  // Config entries keep spans on every value: the checker points at a bad option value.
  Entry(key: Node, _colon: Node, value: Node): Entry {
    const entry: Entry = { kind: "Entry", key: toAst(key), keySpan: spanOf(key), value: toAst(value), span: spanOf(this) };
    withSystemTemplate(entry, value.sourceString);
    return entry;
  },
  EntryBlock(_open: Node, items: Node, _close: Node): Entry[] {
    return itemsWithoutSeps(items);
  },
  ConfigValue(inner: Node): ConfigValue {
    const span = spanOf(inner);
    switch (inner.ctorName) {
      case "literal":
        return { kind: "Lit", value: toAst(inner), span };
      case "path":
        return { kind: "Path", parts: inner.sourceString.split("."), span };
      case "EntryBlock":
        return { kind: "Obj", entries: toAst(inner), span };
      default:
        return toAst(inner);
    }
  },
  ConfigItem(inner: Node): ConfigValue {
    return toAst(inner);
  },
  GuardedPath(path: Node, _when: Node, cond: Node): ConfigValue {
    const item: Extract<ConfigValue, { kind: "Path" }> = path.ctorName === "AgentToolItem" ? toAst(path) : { kind: "Path", parts: path.sourceString.split("."), span: spanOf(path) };
    return { ...item, when: toAst(cond) };
  },
  AgentToolItem(agent: Node, _open: Node, args: Node, _comma: Node, _close: Node, _dot: Node, method: Node): ConfigValue {
    return { kind: "Path", parts: [agent.sourceString, method.sourceString], span: spanOf(this), args: optionalList(args) };
  },
  ConfigList(_open: Node, list: Node, _comma: Node, _close: Node): ConfigValue {
    return { kind: "List", items: optionalList(list), span: spanOf(this) };
  },
};
