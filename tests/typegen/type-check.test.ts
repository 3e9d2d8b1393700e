/**
 * Spec §13: the generated declarations really constrain handlers. The `full` fixture's
 * .d.ts and handler modules are written to a temp dir and checked by `tsc --strict`:
 * correct handlers compile; a union result without `kind`, a misspelled result field or
 * an unknown input field do not.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateToolTypes } from "../../src/typegen/generate-tool-types";
import { fixture } from "./fixtures/full";
import { fixture as recursive } from "./fixtures/recursive";

const TSC = join(import.meta.dir, "../../node_modules/.bin/tsc");

const HANDLERS: Record<string, string> = {
  // The seed's tools.ts, plus the other two tools of the fixture.
  "good.ts": `import type { GeneratedToolModule, DbWriteHandler } from "./tools.generated";
const dbWrite: DbWriteHandler = async (input, signal, needs) => {
  const kind: "Invoice" | "Receipt" = input.doc.kind;
  return { ok: kind === "Invoice" && needs?.db.port === 5432 && !signal?.aborted && input.table.length > 0 };
};
export const tools: GeneratedToolModule = {
  calculate: async (input, signal, needs) => ({
    result: input.operation === "add" ? input.a + input.b : input.a * input.b,
  }),
  classify: (input) =>
    input.text.includes("#") ? { kind: "Invoice", invoice_number: input.text } : { kind: "Receipt", reference: input.text },
  db_write: dbWrite,
};
`,
  "missing-kind.ts": `import type { GeneratedToolModule } from "./tools.generated";
export const tools: Pick<GeneratedToolModule, "classify"> = {
  classify: (input) => ({ invoice_number: input.text }),
};
`,
  "misspelled.ts": `import type { GeneratedToolModule } from "./tools.generated";
export const tools: Pick<GeneratedToolModule, "calculate"> = {
  calculate: (input) => ({ results: input.a + input.b }),
};
`,
  // Durable runs: the fourth argument is typed; ctx.idempotencyKey is a string, a typo is not a field.
  "with-ctx.ts": `import type { GeneratedToolModule, ToolCallContext } from "./tools.generated";
export const tools: Pick<GeneratedToolModule, "calculate"> = {
  calculate: (input, _signal, _needs, ctx?: ToolCallContext) => ({ result: input.a + (ctx?.idempotencyKey.length ?? 0) + (ctx?.attempt ?? 0) }),
};
`,
  "ctx-typo.ts": `import type { GeneratedToolModule } from "./tools.generated";
export const tools: Pick<GeneratedToolModule, "calculate"> = {
  calculate: (input, _signal, _needs, ctx) => ({ result: input.a + (ctx?.idempotency_key ?? 0) }),
};
`,
  "unknown-input.ts": `import type { GeneratedToolModule } from "./tools.generated";
export const tools: Pick<GeneratedToolModule, "calculate"> = {
  calculate: (input) => ({ result: input.a + input.c }),
};
`,
  // Recursive schemas (recursive.luma): the handlers walk and build trees.
  "recursive-good.ts": `import type { Comment, Expr, GeneratedToolModule } from "./recursive.generated";
const count = (c: Comment): number => 1 + c.replies.reduce((n, r) => n + count(r), 0);
const value = (e: Expr): number => (e.op === "Num" ? e.value : value(e.left) + value(e.right));
export const tools: GeneratedToolModule = {
  prune: (input) => ({ ...input.thread, replies: input.thread.replies.filter((r) => count(r) >= (input.min_score ?? 1)) }),
  evaluate: (input) => ({ value: value(input.expr) }),
};
`,
  "recursive-deep-miss.ts": `import type { GeneratedToolModule } from "./recursive.generated";
export const tools: Pick<GeneratedToolModule, "prune"> = {
  prune: (input) => ({ author: input.thread.author, replies: [{ author: "x", replies: [{ author: "y" }] }] }),
};
`,
};

let dir = "";
let errors: Record<string, string[]> = {};
/** Error lines that belong to no file (a bad flag, a missing tsc): they fail the suite. */
let otherErrors: string[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "luma-typegen-"));
  writeFileSync(join(dir, "tools.generated.d.ts"), generateToolTypes(fixture));
  writeFileSync(join(dir, "recursive.generated.d.ts"), generateToolTypes(recursive));
  for (const [name, text] of Object.entries(HANDLERS)) writeFileSync(join(dir, name), text);
  const files = ["tools.generated.d.ts", "recursive.generated.d.ts", ...Object.keys(HANDLERS)];
  const args = ["--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--skipDefaultLibCheck"];
  const run = Bun.spawnSync([TSC, ...args, "--lib", "es2022,dom", ...files], { cwd: dir });
  const out = run.stdout.toString() + run.stderr.toString();
  errors = {};
  otherErrors = run.exitCode === null ? ["tsc did not run"] : [];
  for (const line of out.split("\n")) {
    const m = /^([\w.-]+)\(\d+,\d+\): error (TS\d+: .*)$/.exec(line);
    if (m) (errors[m[1]] ??= []).push(m[2]);
    else if (/error/i.test(line)) otherErrors.push(line);
  }
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("§13 generated types under tsc --strict", () => {
  test("the generated .d.ts itself compiles", () => {
    expect(otherErrors).toEqual([]);
    expect(errors["tools.generated.d.ts"]).toBeUndefined();
  });

  test("correct handlers (the seed's tools.ts form) compile", () => {
    expect(errors["good.ts"]).toBeUndefined();
  });

  test("'a handler that forgets kind does not compile'", () => {
    // Identical to good.ts's classify except for the missing `kind`.
    expect(errors["missing-kind.ts"]?.join("\n")).toContain("'{ invoice_number: string; }' is not assignable to type 'Document");
  });

  test("durable runs: handlers get a typed fourth argument ctx (runId, stepId, attempt, idempotencyKey)", () => {
    expect(errors["with-ctx.ts"]).toBeUndefined();
    expect(errors["ctx-typo.ts"]?.join("\n")).toContain("idempotency_key");
  });

  test("a handler returning a misspelled field does not compile", () => {
    expect(errors["misspelled.ts"]?.join("\n")).toContain("results");
  });

  test("recursive schemas: self-referring interfaces and a union holding itself compile, and handlers that walk them do", () => {
    expect(errors["recursive.generated.d.ts"]).toBeUndefined();
    expect(errors["recursive-good.ts"]).toBeUndefined();
  });

  test("a handler that builds a tree with a node missing a required field deep down does not compile", () => {
    expect(errors["recursive-deep-miss.ts"]?.join("\n")).toContain("'replies'");
  });

  test("a handler reading an undeclared input field does not compile", () => {
    expect(errors["unknown-input.ts"]?.join("\n")).toContain("'c'");
  });
});
