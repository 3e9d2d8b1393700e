/**
 * `luma lsp` and agents with parameters (issue #25): hover on the agent shows its
 * parameters, a parameter's uses (in a method, in `system`, in a `when` condition) go to
 * its declaration, and completion offers it inside the agent's methods and `system`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { positionOf, startLsp, type LspSession } from "./lsp-client";

const LIMIT_MS = 60_000;
const URI = "file:///work/support.luma";

const PROGRAM = `schema User { name: string  can_refund: bool }
schema Refund { id: int }
tool issue_refund(id: int) -> Refund {}

agent Support(user: User) {
  system: "You help {user.name}."
  tools: [issue_refund when user.can_refund]

  fn hello() -> string {
    return "Hi {user.name}"
  }
}

print(Support({ name: "Ada", can_refund: true }).hello())
`;

let lsp: LspSession;
beforeAll(async () => {
  lsp = await startLsp();
  await lsp.open(URI, PROGRAM);
});
afterAll(async () => {
  if (lsp) await lsp.close().catch(() => {});
});

const at = (text: string, needle: string, nth = 0, delta = 0) => ({ textDocument: { uri: URI }, position: positionOf(text, needle, nth, delta) });

describe("agent parameters in the editor", () => {
  test("the program is clean, and hover on the agent shows its parameters", async () => {
    expect((await lsp.diagnostics(URI)).diagnostics).toEqual([]);
    const h: any = await lsp.conn.sendRequest("textDocument/hover", at(PROGRAM, "Support(user"));
    expect(h.contents.value).toContain("agent Support(user: User) {");
    const p: any = await lsp.conn.sendRequest("textDocument/hover", at(PROGRAM, "user.name}\""));
    expect(p.contents.value).toContain("Support.user: User");
  }, LIMIT_MS);

  test("a use in a method, in system and in a when condition goes to the parameter", async () => {
    const target = positionOf(PROGRAM, "user: User");
    for (const [needle, nth] of [["user.name}\"", 0], ["user.name}.", 0], ["user.can_refund", 0]] as const) {
      const loc: any = await lsp.conn.sendRequest("textDocument/definition", at(PROGRAM, needle, nth));
      expect({ needle, start: loc?.range.start }).toEqual({ needle, start: target });
    }
  }, LIMIT_MS);

  test("completion offers the parameter inside a method and inside the agent's system", async () => {
    const complete = async (uri: string, text: string, needle: string, delta: number) => {
      await lsp.open(uri, text);
      const r: any = await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: positionOf(text, needle, 0, delta) });
      return r.items.map((i: any) => i.label) as string[];
    };
    const inMethod = PROGRAM.replace('return "Hi {user.name}"', "return us");
    expect(await complete("file:///work/c1.luma", inMethod, "return us", 9)).toContain("user");
    const inSystem = PROGRAM.replace('"You help {user.name}."', '"You help {us}."');
    expect(await complete("file:///work/c2.luma", inSystem, "{us}", 3)).toContain("user");
  }, LIMIT_MS);
});
