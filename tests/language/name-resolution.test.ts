/**
 * Names are resolved once (issue #23 item 6): the checker, the runtime and the language
 * server read one table (`src/language/name-resolution.ts`), so they agree on what every
 * name means. Each case is asked of the table itself and of all three consumers, through
 * the real `dist/luma` where a user would meet it: `luma check`, a run, and the language
 * server's go-to-definition. Two of the cases are ones the language server used to get
 * wrong (a bare call of a sibling method, a variable read before its assignment).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "../../src/syntax/parse";
import { resolutionOf, type NameExpr, type NameTarget } from "../../src/language/name-resolution";
import { forEachExpr } from "../../src/language/walk";
import { runLuma } from "../support/luma-binary";
import { positionOf, startLsp, type LspSession } from "../lsp/lsp-client";

const LIMIT_MS = 60_000;

/** Clean: every name resolves, and the run shows what each one meant. */
const CLEAN = `fn len(text: string) -> int {
  return 42
}

fn shout(s: string) -> string {
  return "the top-level fn"
}

agent Helper {
  fn greet(name: string) -> string {
    return shout(name)
  }

  fn shout(s: string) -> string {
    return "{s}!"
  }
}

fn late() -> bool {
  first = later == null
  later = 1
  return first
}

print(len("abc"))
print(Helper.greet("hi"))
print(late())
print(args)
`;

/** Names that resolve to nothing here: a top-level variable and `args` in a fn, a method outside its agent. */
const UNKNOWN = `total = 1

fn f() -> int {
  return total
}

fn g() -> string[] {
  return args
}

agent Helper {
  fn a() -> int {
    return 1
  }
}

x = a
print(x)
`;

const dir = mkdtempSync(join(tmpdir(), "luma-names-"));
const fileOf = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** The table's target of the nth Name `name` in `text`. */
function targetOf(text: string, name: string, nth = 0): NameTarget | undefined {
  const program = parse(text, "main.luma").program!;
  const resolution = resolutionOf(program);
  const found: NameExpr[] = [];
  for (const unit of resolution.units) forEachExpr(unit.body, (e) => void (e.kind === "Name" && e.name === name && found.push(e)));
  found.sort((a, b) => a.span.start - b.span.start);
  return found[nth] && resolution.targetOf(found[nth]);
}

/** The line (0-based) of the definition go-to-definition leads to from the nth `needle`, or null. */
let lsp: LspSession;
beforeAll(async () => {
  lsp = await startLsp();
});
afterAll(async () => {
  if (lsp) await lsp.close().catch(() => {});
});
async function definitionLine(uri: string, text: string, needle: string, nth = 0, delta = 0): Promise<number | null> {
  const loc: any = await lsp.conn.sendRequest("textDocument/definition", { textDocument: { uri }, position: positionOf(text, needle, nth, delta) });
  return loc ? loc.range.start.line : null;
}
const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle));

describe("one name resolution: the table, the checker, the runtime and the language server agree", () => {
  test("the table says what each name of the clean program is", () => {
    expect(targetOf(CLEAN, "len")?.kind).toBe("fn"); // a user fn shadows the builtin
    const sibling = targetOf(CLEAN, "shout");
    expect(sibling?.kind).toBe("method"); // inside the agent, its own method before the top-level fn
    expect(sibling?.kind === "method" && sibling.agent.name).toBe("Helper");
    const later = targetOf(CLEAN, "later");
    expect(later?.kind).toBe("variable"); // bound later in the fn: a variable (null until then)
    expect(targetOf(CLEAN, "args")?.kind).toBe("args");
    expect(targetOf(CLEAN, "Helper")?.kind).toBe("agent");
  });

  test("the table: top-level variables and `args` are not seen in a fn, a method not outside its agent", () => {
    expect(targetOf(UNKNOWN, "total")?.kind).toBe("unknown");
    expect(targetOf(UNKNOWN, "args")?.kind).toBe("unknown");
    expect(targetOf(UNKNOWN, "a")?.kind).toBe("unknown");
  });

  test("the checker: the clean program checks clean; the unknown names are E0233 where the table has nothing", () => {
    const clean = runLuma(["check", fileOf("clean.luma", CLEAN)]);
    expect(clean.exitCode).toBe(0);
    const bad = runLuma(["check", fileOf("unknown.luma", UNKNOWN)]);
    expect(bad.exitCode).not.toBe(0);
    const errors = [...bad.stderr.matchAll(/unknown\.luma:(\d+):(\d+): error\[(E\d+)\]: (.*)/g)].map((m) => `${m[1]}:${m[2]} ${m[3]} ${m[4]}`);
    expect(errors).toEqual(["4:10 E0233 Unknown name 'total'.", "8:10 E0233 Unknown name 'args'.", "17:5 E0233 Unknown name 'a'."]);
  }, LIMIT_MS);

  test("the runtime: the user fn over the builtin, the sibling method over the top-level fn, null before assignment, args", () => {
    const r = runLuma([fileOf("run.luma", CLEAN), "a", "b"]);
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n")).toEqual(["42", "hi!", "true", '["a","b"]', ""]);
  }, LIMIT_MS);

  test("the language server: definition leads where the table points", async () => {
    const uri = "file:///work/names/clean.luma";
    await lsp.open(uri, CLEAN);
    expect(await definitionLine(uri, CLEAN, 'len("abc")')).toBe(lineOf(CLEAN, "fn len("));
    expect(await definitionLine(uri, CLEAN, "shout(name)")).toBe(lineOf(CLEAN, "  fn shout("));
    expect(await definitionLine(uri, CLEAN, "later == null")).toBe(lineOf(CLEAN, "later = 1"));
    expect(await definitionLine(uri, CLEAN, 'Helper.greet("hi")')).toBe(lineOf(CLEAN, "agent Helper"));
    expect(await definitionLine(uri, CLEAN, "print(args)", 0, 6)).toBeNull();
    // References of the sibling method: its definition and the bare call, not the top-level fn's.
    const refs: any[] = await lsp.conn.sendRequest("textDocument/references", {
      textDocument: { uri },
      position: positionOf(CLEAN, "shout(s", 1, 0),
      context: { includeDeclaration: true },
    });
    expect(refs.map((l) => l.range.start.line).sort()).toEqual([lineOf(CLEAN, "return shout(name)"), lineOf(CLEAN, "  fn shout(")].sort());

    const badUri = "file:///work/names/unknown.luma";
    await lsp.open(badUri, UNKNOWN);
    expect(await definitionLine(badUri, UNKNOWN, "return total", 0, 7)).toBeNull();
    expect(await definitionLine(badUri, UNKNOWN, "x = a", 0, 4)).toBeNull();
  }, LIMIT_MS);
});
