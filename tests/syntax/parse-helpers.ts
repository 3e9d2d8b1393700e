/** Helpers shared by the syntax tests: parse-or-fail, span-free shapes, span text, a program on disk. */
import { expect } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Program, Span } from "../../src/syntax/ast";
import { parse } from "../../src/syntax/parse";

export const FILE = "test.luma";

/** Parses `source`, failing the test with the diagnostics if it does not parse. */
export function parseOk(source: string): Program {
  const result = parse(source, FILE);
  expect(result.diagnostics).toEqual([]);
  expect(result.program).toBeDefined();
  return result.program as Program;
}

/** The one syntax error of `source`: its message and 1-based line:col. */
export function parseError(source: string): { message: string; at: string; offset: number } {
  const result = parse(source, FILE);
  expect(result.program).toBeUndefined();
  expect(result.diagnostics.length).toBeGreaterThan(0);
  const [d] = result.diagnostics;
  expect(d.severity).toBe("error");
  const offset = d.span?.start ?? -1;
  const before = source.slice(0, offset);
  const line = before.split("\n").length;
  const col = offset - (before.lastIndexOf("\n") + 1) + 1;
  return { message: d.message, at: `${line}:${col}`, offset };
}

/** The node tree without spans, for comparing shapes. */
export function shape(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shape);
  if (node && typeof node === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "span" || key.endsWith("Span") || key === "file") continue;
      out[key] = shape(value);
    }
    return out;
  }
  return node;
}

/** The source text a span covers. */
export const textAt = (source: string, span: Span | undefined): string => {
  expect(span).toBeDefined();
  expect(span?.file).toBe(FILE);
  return source.slice(span?.start, span?.end);
};

/** The shape of the value of the single top-level `x = …` statement. */
export function exprShape(expression: string): unknown {
  const program = parseOk(`x = ${expression}`);
  const [stmt] = program.body;
  if (stmt.kind !== "Assign") throw new Error(`not an assignment: ${stmt.kind}`);
  return shape(stmt.value);
}

// Small constructors for expected shapes.
export const name = (n: string) => ({ kind: "Name", name: n });
export const num = (value: number) => ({ kind: "Num", value });
export const str = (...parts: unknown[]) => ({ kind: "Str", parts });
export const bin = (op: string, left: unknown, right: unknown) => ({ kind: "Binary", op, left, right });
export const unary = (op: string, operand: unknown) => ({ kind: "Unary", op, operand });
export const call = (callee: unknown, ...args: unknown[]) => ({ kind: "Call", callee, args });
export const member = (object: unknown, property: string) => ({ kind: "Member", object, property });

/** A fresh directory holding `app.luma` with `source`, for driving `dist/luma` in it. */
export function programDir(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-syntax-"));
  writeFileSync(join(dir, "app.luma"), source);
  return dir;
}
