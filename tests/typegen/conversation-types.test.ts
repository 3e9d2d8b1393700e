/**
 * Issue #26 §1 and `luma FILE --generate-tool-types OUT.d.ts`: `Thread` and `Message` are
 * types of code, never data a tool handler sees, so a program that keeps conversations
 * generates the same tool types as without them (nothing named Thread or Message in the
 * file), and a tool or schema that would hand one to TypeScript is E0297, with no file
 * written.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const dir = mkdtempSync(join(tmpdir(), "luma-typegen-threads-"));

const TOOLS = `schema Order { id: int  status: string }
tool lookup_order(id: int) -> Order {}
`;

describe("--generate-tool-types and conversations", () => {
  test("threads, stream ask … in t and Message[] in code: the tool types are those of the tools alone", () => {
    const withThreads = join(dir, "threads.luma");
    writeFileSync(withThreads, `model M { provider: "openai"  name: "gpt-5.4-mini" }
${TOOLS}agent A {
  model: M
  tools: [lookup_order]
  history_limit: 4
  fn reply(t: Thread, text: string) -> string { stream ask text -> string in t }
}
t = thread()
m: Message[] = t.messages
`);
    const plain = join(dir, "plain.luma");
    writeFileSync(plain, TOOLS);
    const a = runLuma([withThreads, "--generate-tool-types", join(dir, "threads.d.ts")]);
    const b = runLuma([plain, "--generate-tool-types", join(dir, "plain.d.ts")]);
    expect([a.exitCode, a.stderr, b.exitCode]).toEqual([0, "", 0]);
    const text = readFileSync(join(dir, "threads.d.ts"), "utf8");
    expect(text).toBe(readFileSync(join(dir, "plain.d.ts"), "utf8"));
    expect(text).not.toMatch(/\bThread\b|\bMessage\b/);
  });

  test("a tool's input or a schema's field of a conversation type is E0297, and no file is written", () => {
    const file = join(dir, "leak.luma");
    writeFileSync(file, `schema Order { id: int  history: Message[] }\ntool keep(t: Thread) -> Order {}\n`);
    const out = join(dir, "leak.d.ts");
    const r = runLuma([file, "--generate-tool-types", out]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("leak.luma:1:34: error[E0297]: 'Message' is a built-in conversation type, not data: it cannot be a schema's field.");
    expect(r.stderr).toContain("leak.luma:2:14: error[E0297]: 'Thread' is a built-in conversation type, not data: it cannot be a tool's input.");
    expect(existsSync(out)).toBe(false);
  });
});
