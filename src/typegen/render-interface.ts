/**
 * `export interface Name { … }` from a field list: `@desc` as JSDoc above the member, `?:`
 * for a field the value may lack. An empty interface is written `{}` on one line, as the
 * seed prints `export interface CalculateNeeds {}`.
 */
import type { Field } from "../syntax/ast";
import { renderType } from "./render-type";

export interface Member {
  name: string;
  type: string;
  optional: boolean;
  doc?: string;
}

/**
 * A field is `?:` when it is optional in the JSON Schema: written `name?:` or given a
 * `@default` (spec §3: "a field with a default is optional with or without `?`"). The
 * runtime fills defaults before a handler runs, but the type stays the contract's own.
 */
export function fieldMember(field: Field): Member {
  const desc = field.annotations.find((a) => a.name === "desc")?.args[0]?.value;
  return {
    name: field.name,
    type: renderType(field.type),
    optional: field.optional || field.annotations.some((a) => a.name === "default"),
    doc: typeof desc === "string" ? desc : undefined,
  };
}

export function renderInterface(name: string, members: readonly Member[]): string {
  if (members.length === 0) return `export interface ${name} {}`;
  const lines = [`export interface ${name} {`];
  for (const m of members) {
    if (m.doc !== undefined) lines.push(...jsDoc(m.doc, "  "));
    lines.push(`  ${propertyName(m.name)}${m.optional ? "?" : ""}: ${m.type};`);
  }
  lines.push("}");
  return lines.join("\n");
}

function jsDoc(text: string, indent: string): string[] {
  const safe = text.replace(/\*\//g, "*\\/");
  const lines = safe.split(/\r?\n/);
  if (lines.length === 1) return [`${indent}/** ${safe} */`];
  return [`${indent}/**`, ...lines.map((l) => `${indent} *${l ? ` ${l}` : ""}`), `${indent} */`];
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
export const propertyName = (name: string): string => (IDENT.test(name) ? name : JSON.stringify(name));
