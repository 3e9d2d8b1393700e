/**
 * Issue #25 §4: `ctx.approval` in the generated tool types. A tool declared
 * `approval: Schema` gets a handler type whose context carries the note typed with that
 * schema, checked by `tsc --strict`: reading a field of the note compiles, a field the
 * schema lacks does not. Other tools keep the plain `ToolHandler<I, O, N>` form.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "../../src/syntax/parse";
import { generateToolTypes } from "../../src/typegen/generate-tool-types";

const TSC = join(import.meta.dir, "../../node_modules/.bin/tsc");

const SOURCE = `
schema RefundNote { reason: string  ticket?: int }
schema Refunded { ok: bool  note: string }
tool issue_refund(order: string) -> Refunded { side_effects: "write"  approval: RefundNote }
tool lookup(order: string) -> Refunded { approval: true }
`;

const generated = () => generateToolTypes(parse(SOURCE, "t.luma").program!);

const tsc = (handler: string) => {
  const dir = mkdtempSync(join(tmpdir(), "luma-typegen-approval-"));
  writeFileSync(join(dir, "tools.generated.d.ts"), generated());
  writeFileSync(join(dir, "handler.ts"), handler);
  // Run in the temp dir with the libs named, as type-check.test.ts does: from the repository
  // tsc would also load and check node_modules/@types (bun, node), seconds of work per run
  // that the generated file does not need.
  const args = ["--strict", "--noEmit", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--skipDefaultLibCheck", "--lib", "es2022,dom"];
  return Bun.spawnSync([TSC, ...args, join(dir, "handler.ts")], { cwd: dir, stdout: "pipe", stderr: "pipe" });
};

describe("generated types: ctx.approval typed with the tool's approval schema", () => {
  test("the note tool's handler type carries `approval: RefundNote`; `approval: true` keeps the plain form", () => {
    const text = generated();
    expect(text).toContain(
      "export type IssueRefundHandler = (input: IssueRefundInput, signal?: AbortSignal, needs?: IssueRefundNeeds, ctx?: ToolCallContext & { approval: RefundNote }) => Refunded | Promise<Refunded>;",
    );
    expect(text).toContain("export type LookupHandler = ToolHandler<LookupInput, Refunded, LookupNeeds>;");
  });

  test("tsc --strict: reading the note's fields compiles; a field the schema lacks does not", () => {
    const good = tsc(`import type { IssueRefundHandler } from "./tools.generated";
export const h: IssueRefundHandler = (input, _s, _n, ctx) => ({ ok: true, note: input.order + (ctx?.approval.reason ?? "") + (ctx?.approval.ticket ?? 0) });
`);
    expect(good.stdout.toString()).toBe("");
    expect(good.exitCode).toBe(0);
    const typo = tsc(`import type { IssueRefundHandler } from "./tools.generated";
export const h: IssueRefundHandler = (input, _s, _n, ctx) => ({ ok: true, note: ctx?.approval.reasn ?? input.order });
`);
    expect(typo.exitCode).not.toBe(0);
    expect(typo.stdout.toString()).toContain("reasn");
  }, 120_000);
});
