/**
 * `luma lsp` (issue #17): the real binary, driven over stdio by the standard LSP client
 * library. Each describe is one part of the server's contract.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { positionOf, startLsp, type LspSession } from "./lsp-client";

/** Per test: these spawn the binary and parse large inputs, on a CI machine that may be loaded. */
const LIMIT_MS = 60_000;

const URI = "file:///work/demo.luma";

const PROGRAM = `schema Stats {
  words: int @desc("How many words")
  characters: int
}

tool text_stats(text: string @length(0, 100) @desc("The text to measure")) -> Stats {
  side_effects: "none"
  description: "Counts words"
}

model Mini {
  provider: "openai"
  name: "gpt-5-mini"
}

agent Flow {
  model: Mini
  tools: [text_stats]

  fn run(text: string) -> int {
    stats = tool text_stats({ text: text })
    return stats.words
  }
}

fn double(n: int) -> int {
  return n * 2
}

total = double(Flow.run("a b c"))
label = "total: {total}"
print(label)
`;

let lsp: LspSession;
beforeAll(async () => {
  lsp = await startLsp();
  await lsp.open(URI, PROGRAM);
});
afterAll(async () => {
  if (lsp) await lsp.close().catch(() => {});
});

const at = (needle: string, nth = 0, delta = 0) => ({ textDocument: { uri: URI }, position: positionOf(PROGRAM, needle, nth, delta) });
const hoverText = async (needle: string, nth = 0, delta = 0): Promise<string> => {
  const h: any = await lsp.conn.sendRequest("textDocument/hover", at(needle, nth, delta));
  return h?.contents?.value ?? "";
};

describe("diagnostics on open and change", () => {
  test("a well-typed program publishes no diagnostics", async () => {
    expect((await lsp.diagnostics(URI, 1)).diagnostics).toEqual([]);
  }, LIMIT_MS);

  test("an error is published with its range, severity and catalog code", async () => {
    const uri = "file:///work/bad.luma";
    const text = 'x: int = "seven"\nprint(x)\n';
    const { diagnostics } = await lsp.open(uri, text);
    expect(diagnostics.length).toBe(1);
    expect(diagnostics[0].severity).toBe(1);
    expect(diagnostics[0].code).toMatch(/^E\d{4}$/);
    expect(diagnostics[0].range.start).toEqual({ line: 0, character: 9 });
  }, LIMIT_MS);

  test("didChange (incremental) re-checks the new text, debounced to the last version", async () => {
    const uri = "file:///work/change.luma";
    await lsp.open(uri, "x = 1\nprint(x)\n");
    // Three quick edits: `x` → `y` on line 2 (unknown name), then back, then to `z`.
    const edit = (version: number, text: string) =>
      lsp.conn.sendNotification("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: { line: 1, character: 6 }, end: { line: 1, character: 7 } }, text }],
      });
    await edit(2, "y");
    await edit(3, "x");
    await edit(4, "z");
    const { diagnostics } = await lsp.diagnostics(uri, 4);
    expect(diagnostics.length).toBe(1);
    expect(diagnostics[0].message).toContain("z");
    expect(diagnostics[0].range.start).toEqual({ line: 1, character: 6 });
  }, LIMIT_MS);

  test("parse errors recover: one typo does not hide the rest of the file", async () => {
    const uri = "file:///work/typo.luma";
    const text = [
      "schema A {",
      "  name: string",
      "}",
      "fn broken(x: int) -> int {",
      "  return x +* 2",
      "}",
      'y: int = "not a number"',
      "schema B {",
      "  other: string",
      "",
      'z: bool = "no"',
      "fn uses(a: A, b: B) -> int {",
      "  return 1",
      "}",
      "",
    ].join("\n");
    const { diagnostics } = await lsp.open(uri, text);
    const lines = diagnostics.map((d) => d.range.start.line);
    // The syntax error on line 5, the type error after it on line 7, and the schema left open.
    expect(lines).toContain(4);
    expect(lines).toContain(6);
    expect(diagnostics.filter((d) => d.code === "E0101" || String(d.code).startsWith("E01")).length).toBeGreaterThanOrEqual(2);
    expect(diagnostics.find((d) => d.range.start.line === 6)?.message).toContain("int");
    // B's item was left out by its syntax error: no second error for the use of 'B'.
    expect(diagnostics.filter((d) => String(d.message).includes("'B'"))).toEqual([]);
    expect(diagnostics.some((d) => d.range.start.line === 11)).toBe(false);
  }, LIMIT_MS);

  test("didClose clears the document's diagnostics", async () => {
    const uri = "file:///work/bad.luma";
    const since = lsp.publishedCount();
    await lsp.conn.sendNotification("textDocument/didClose", { textDocument: { uri } });
    const published = await lsp.nextDiagnostics(uri, since);
    expect(published.diagnostics).toEqual([]);
  }, LIMIT_MS);
});

describe("hover", () => {
  test("a variable shows its inferred type", async () => {
    expect(await hoverText("total =")).toContain("total: int");
    expect(await hoverText("stats =")).toContain("stats: Stats");
  }, LIMIT_MS);

  test("an expression shows its type", async () => {
    expect(await hoverText('"total: {total}"', 0, 1)).toContain("string");
  }, LIMIT_MS);

  test("a tool shows its contract, @desc text and generated JSON input schema", async () => {
    const h = await hoverText("text_stats", 2);
    expect(h).toContain("tool text_stats(");
    expect(h).toContain('side_effects: "none"');
    expect(h).toContain("Counts words");
    expect(h).toContain("The text to measure");
    expect(h).toContain("Input JSON Schema");
    expect(h).toContain('"maxLength": 100');
  }, LIMIT_MS);

  test("a schema shows its fields with annotations and @desc", async () => {
    const h = await hoverText("Stats {", 0, 1);
    expect(h).toContain('words: int @desc("How many words")');
    expect(h).toContain("characters: int");
    expect(h).toContain("How many words");
  }, LIMIT_MS);

  test("a field read shows the field's declaration", async () => {
    expect(await hoverText("stats.words", 0, 7)).toContain("Stats.words: int");
  }, LIMIT_MS);
});

describe("definition and references", () => {
  const definition = async (needle: string, nth = 0, delta = 0) => (await lsp.conn.sendRequest("textDocument/definition", at(needle, nth, delta))) as any;
  const references = async (needle: string, nth = 0, delta = 0) =>
    ((await lsp.conn.sendRequest("textDocument/references", { ...at(needle, nth, delta), context: { includeDeclaration: true } })) as any[]).map((l) => l.range.start);

  test("go to definition for schemas, tools, models, agents, fns, variables and fields", async () => {
    const cases: [string, number, number, string][] = [
      ["Stats", 1, 0, "Stats {"],
      ["text_stats", 1, 0, "text_stats(text"],
      ["Mini", 1, 0, "Mini {"],
      ["Flow", 1, 0, "Flow {"],
      ["double", 1, 0, "double(n"],
      ["total", 2, 0, "total ="],
      ["stats.words", 0, 6, "words: int"],
      ["run(", 1, 0, "run(text"],
    ];
    for (const [needle, nth, delta, target] of cases) {
      const loc = await definition(needle, nth, delta);
      expect({ needle, start: loc?.range.start }).toEqual({ needle, start: positionOf(PROGRAM, target) });
    }
  }, LIMIT_MS);

  test("find references lists the declaration and every use", async () => {
    expect(await references("Stats {")).toEqual([positionOf(PROGRAM, "Stats"), positionOf(PROGRAM, "Stats", 1)]);
    expect((await references("text_stats")).length).toBe(3);
    expect(await references("{total}", 0, 1)).toEqual([positionOf(PROGRAM, "total ="), positionOf(PROGRAM, "total}")]);
  }, LIMIT_MS);
});

describe("document symbols and rename", () => {
  test("the outline lists every declaration, with fields, methods and entries", async () => {
    const symbols = (await lsp.conn.sendRequest("textDocument/documentSymbol", { textDocument: { uri: URI } })) as any[];
    expect(symbols.map((s) => s.name)).toEqual(["Stats", "text_stats", "Mini", "Flow", "double", "total", "label"]);
    expect(symbols[0].children.map((c: any) => c.name)).toEqual(["words", "characters"]);
    expect(symbols[3].children.map((c: any) => c.name)).toEqual(["run"]);
  }, LIMIT_MS);

  test("rename of a declaration edits the declaration and every reference", async () => {
    const edit = (await lsp.conn.sendRequest("textDocument/rename", { ...at("Stats"), newName: "Counts" })) as any;
    const edits = edit.changes[URI];
    expect(edits.length).toBe(2);
    expect(edits.every((e: any) => e.newText === "Counts")).toBe(true);
  }, LIMIT_MS);

  test("rename of a variable edits its assignment and every read, only in its own code unit", async () => {
    const edit = (await lsp.conn.sendRequest("textDocument/rename", { ...at("{total}", 0, 1), newName: "sum" })) as any;
    expect(edit.changes[URI].map((e: any) => e.range.start)).toEqual([positionOf(PROGRAM, "total ="), positionOf(PROGRAM, "total}")]);
  }, LIMIT_MS);

  test("rename of a schema field edits its declaration and every read through a typed value", async () => {
    const edit = (await lsp.conn.sendRequest("textDocument/rename", { ...at("words: int"), newName: "count" })) as any;
    expect(edit.changes[URI].map((e: any) => e.range.start)).toEqual([positionOf(PROGRAM, "words: int"), positionOf(PROGRAM, "stats.words", 0, 6)]);
  }, LIMIT_MS);

  test("rename to something that is not a Luma name is refused", async () => {
    const req = lsp.conn.sendRequest("textDocument/rename", { ...at("double"), newName: "if" });
    await expect(req).rejects.toThrow("not a valid Luma name");
  }, LIMIT_MS);
});

describe("completion", () => {
  const complete = async (uri: string, text: string, needle: string, delta: number) => {
    await lsp.open(uri, text);
    const r = (await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: positionOf(text, needle, 0, delta) })) as any;
    return r.items.map((i: any) => i.label) as string[];
  };

  test("fields after `.` on a typed value", async () => {
    const text = PROGRAM.replace("return stats.words", "return stats.");
    expect(await complete("file:///work/c1.luma", text, "stats.\n", 6)).toEqual(["words", "characters"]);
  }, LIMIT_MS);

  test("fields after `.` in a valid document, the cursor right after the dot (as an editor asks on Ctrl-Space)", async () => {
    const text = PROGRAM.includes("return stats.words") ? PROGRAM : "";
    expect(text).not.toBe("");
    expect(await complete("file:///work/c1b.luma", text, "stats.words", 6)).toEqual(["words", "characters"]);
    // …and in the middle of the member name.
    expect(await complete("file:///work/c1c.luma", text, "stats.words", 8)).toEqual(["words", "characters"]);
  }, LIMIT_MS);

  test("tool options inside a tool block, agent keys inside an agent", async () => {
    const text = PROGRAM.replace('  description: "Counts words"', "  ret").replace("  tools: [text_stats]", "  tool_");
    const toolKeys = await complete("file:///work/c2.luma", text, "  ret", 5);
    expect(toolKeys).toContain("retries");
    expect(toolKeys).toContain("idempotency_key");
    const agentKeys = await complete("file:///work/c2.luma", text, "  tool_", 7);
    expect(agentKeys).toContain("tool_policy");
    expect(agentKeys).toContain("system");
    expect(agentKeys).toContain("history_limit");
  }, LIMIT_MS);

  test("annotations after `@`", async () => {
    const text = PROGRAM.replace("characters: int", "characters: int @");
    const items = await complete("file:///work/c3.luma", text, "int @", 5);
    expect(items).toContain("range");
    expect(items).toContain("desc");
  }, LIMIT_MS);

  test("keywords, declared names, variables and snippets elsewhere", async () => {
    const text = `${PROGRAM}\n`;
    const uri = "file:///work/c4.luma";
    await lsp.open(uri, text);
    const r = (await lsp.conn.sendRequest("textDocument/completion", { textDocument: { uri }, position: positionOf(text, "print(label)", 0, 13) })) as any;
    const labels = r.items.map((i: any) => i.label);
    for (const l of ["schema", "return", "Stats", "double", "total", "label", "print"]) expect(labels).toContain(l);
    // Issue #26 §1: the thread builtin and the conversation types, with what they are.
    for (const l of ["thread", "Thread", "Message"]) expect(labels).toContain(l);
    expect(r.items.find((i: any) => i.label === "Thread").documentation).toContain("A conversation");
    expect(r.items.some((i: any) => i.label === "tool" && i.insertTextFormat === 2)).toBe(true);
  }, LIMIT_MS);
});

describe("protocol and lifecycle", () => {
  test("a request before initialize gets ServerNotInitialized; shutdown then exit ends with 0", async () => {
    const { spawn } = await import("node:child_process");
    const { ensureBinary } = await import("../support/luma-binary");
    const proc = spawn(ensureBinary(), ["lsp"], { stdio: ["pipe", "pipe", "pipe"] });
    const body = (m: object) => {
      const b = JSON.stringify({ jsonrpc: "2.0", ...m });
      return `Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`;
    };
    let out = "";
    proc.stdout.on("data", (d) => (out += String(d)));
    const exited = new Promise<number | null>((r) => proc.on("exit", r));
    // A hover before initialize, garbage frames, a body that is not JSON, then a normal session.
    proc.stdin.write(body({ id: 1, method: "textDocument/hover", params: {} }));
    proc.stdin.write("Content-Length: 5\r\n\r\n{{{{{");
    proc.stdin.write("X-Nothing: 1\r\n\r\n");
    proc.stdin.write(body({ id: 2, method: "initialize", params: { capabilities: {} } }));
    proc.stdin.write(body({ id: 3, method: "no/such/method", params: {} }));
    proc.stdin.write(body({ id: 4, method: "shutdown" }));
    proc.stdin.write(body({ id: 5, method: "textDocument/hover", params: {} }));
    proc.stdin.write(body({ method: "exit" }));
    expect(await exited).toBe(0);
    expect(out).toContain('"id":1,"error":{"code":-32002');
    expect(out).toContain('"code":-32700');
    expect(out).toContain('"id":3,"error":{"code":-32601');
    expect(out).toContain('"id":5,"error":{"code":-32600');
    expect(out).not.toMatch(/\n\s+at /);
  }, LIMIT_MS);

  test("stdin closing without shutdown ends the server with 1, no stack trace", async () => {
    const s = await startLsp();
    s.proc.stdin?.end();
    expect(await s.exited).toBe(1);
    expect(s.stderr()).toBe("");
  }, LIMIT_MS);

  test("`luma lsp --stdio` (what editors' clients pass) serves the same", async () => {
    const s = await startLsp(["--stdio"]);
    const { diagnostics } = await s.open("file:///work/s.luma", "print(nope)\n");
    expect(diagnostics.length).toBe(1);
    expect(await s.close()).toBe(0);
  }, LIMIT_MS);

  test("luma lsp takes no FILE (usage error 64)", async () => {
    const { ensureBinary } = await import("../support/luma-binary");
    const r = Bun.spawnSync([ensureBinary(), "lsp", "x.luma"], { stderr: "pipe" });
    expect(r.exitCode).toBe(64);
    expect(r.stderr.toString()).toContain("luma lsp");
  }, LIMIT_MS);
});
