/**
 * Issue #28 §3, through the real `dist/luma`: `import { … } from "luma:std"` is checked like
 * an import of a file (E1008 an unknown built-in module, E1009 a name it does not offer,
 * E1005/E1006 clashes with the program's own names), `luma explain std` prints the
 * contracts the checker reads, a tool module cannot replace a std handler, a `luma test`
 * stub can, and a built executable carries luma:std (its files root: the executable's
 * directory).
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { STD_SOURCE } from "../../src/language/std-tools";
import { luma, project } from "./std-project";

describe("checking an import of luma:std", () => {
  test("a program importing std tools and schemas checks clean", async () => {
    const dir = project({ "main.luma": `import { read_file, StdFile, http_get as fetch_page } from "luma:std"\nf: StdFile = tool read_file({ path: "x" })\np = tool fetch_page({ url: "http://a/" })\nprint(p.status)\n` });
    const r = await luma(["check", "main.luma"], dir);
    expect(r.exitCode).toBe(0);
  });

  test("E1008 an unknown luma: module, E1009 a name luma:std does not offer (did-you-mean)", async () => {
    const dir = project({ "main.luma": `import { read_fil } from "luma:std"\nimport { x } from "luma:files"\n` });
    const r = await luma(["check", "main.luma"], dir);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`main.luma:1:10: error[E1009]: 'read_fil' is not part of luma:std, which offers read_file, list_dir, write_file, http_get, http_send, StdFile, StdDirEntry, StdDirListing, StdWritten, StdHttpResponse.
  1 | import { read_fil } from "luma:std"
    |          ^^^^^^^^
  hint: did you mean 'read_file'?`);
    expect(r.stderr).toContain(`main.luma:2:19: error[E1008]: "luma:files" is not a built-in module: the modules are "luma:std".`);
  });

  test("a std name over the program's own is E1005; a std schema name declared elsewhere is E1006 at the program's declaration", async () => {
    const clash = project({ "main.luma": `import { read_file } from "luma:std"\nschema Out { x: int }\ntool read_file(p: string) -> Out {}\n` });
    const r1 = await luma(["check", "main.luma"], clash);
    expect(r1.stderr).toContain("main.luma:1:10: error[E1005]: 'read_file' is imported from luma:std, but main.luma declares it too.");
    const twice = project({ "lib.luma": "schema StdFile { a: string }\n", "main.luma": `import { read_file } from "luma:std"\nimport { StdFile as Mine } from "./lib.luma"\n` });
    const r2 = await luma(["check", "main.luma"], twice);
    expect(r2.stderr).toContain("lib.luma:1:8: error[E1006]: 'StdFile' is declared in lib.luma and again in luma:std");
  });

  test("a tool of the program named like a std tool it does not import is its own", async () => {
    const dir = project({
      "main.luma": `import { read_file } from "luma:std"\nschema R { result: float }\ntool http_get(a: float, b: float, operation: string) -> R {}\nprint(tool read_file({ path: "main.luma" }).bytes > 0)\n`,
      "tools.ts": `export const http_get = () => ({ result: 1 });\n`,
    });
    const r = await luma(["main.luma", "--tool-module", "tools.ts"], dir);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("true\n");
  });
});

test("`luma explain std` prints the contracts the checker reads, and where their reach is set", async () => {
  const r = await luma(["explain", "std"], project({}));
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toContain(STD_SOURCE.trimEnd());
  expect(r.stdout).toContain('"std": { "files_root": "…", "http_hosts": ["host", "host:port"]');
  for (const t of ["read_file", "list_dir", "write_file", "http_get", "http_send"]) expect(r.stdout).toContain(`tool ${t}(`);
});

test("a tool module exporting a std tool's handler is a registry conflict (E0602)", async () => {
  const dir = project({
    "main.luma": `import { read_file } from "luma:std"\nprint(tool read_file({ path: "main.luma" }).bytes)\n`,
    "tools.ts": `export const read_file = () => ({ path: "x", text: "fake", bytes: 4 });\n`,
  });
  const r = await luma(["main.luma", "--tool-module", "tools.ts"], dir);
  expect(r.exitCode).toBe(2);
  expect(r.stderr).toContain("Tool registry conflict: read_file.");
});

test("a std tool runs through the pipeline: its trace events name it like any tool", async () => {
  const dir = project({ "a.txt": "A", "main.luma": `import { read_file } from "luma:std"\nprint(tool read_file({ path: "a.txt" }).text)\n` });
  const r = await luma(["main.luma", "--trace", "t.jsonl"], dir);
  expect(r.stdout).toBe("A\n");
  const events = readFileSync(join(dir, "t.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(events.some((e) => e.tool === "read_file")).toBe(true);
});

test("a built executable carries luma:std; its files root is its own directory (an embedded relative root too)", async () => {
  const src = project({
    "main.luma": `import { read_file, write_file } from "luma:std"\nprint(tool read_file({ path: "in.txt" }).text)\ntool write_file({ path: "out.txt", text: "from the agent", request_id: "1" })\n`,
    "in.txt": "build machine",
  });
  const built = await luma(["build", "main.luma", "-o", "agent"], src);
  expect(built.stderr).not.toContain("error");
  expect(built.exitCode).toBe(0);
  const place = project({ "in.txt": "next to the agent" });
  copyFileSync(join(src, "agent"), join(place, "agent"));
  const elsewhere = project({ "in.txt": "the working directory" });
  const r = await luma([], elsewhere, {}, join(place, "agent"));
  expect(r.stderr).toBe("");
  expect(r.stdout).toBe("next to the agent\n");
  expect(readFileSync(join(place, "out.txt"), "utf8")).toBe("from the agent");

  writeFileSync(join(src, "luma.config.json"), JSON.stringify({ std: { files_root: "data" } }));
  expect((await luma(["build", "main.luma", "-o", "agent2"], src)).exitCode).toBe(0);
  mkdirSync(join(place, "data"));
  writeFileSync(join(place, "data/in.txt"), "in data/");
  copyFileSync(join(src, "agent2"), join(place, "agent2"));
  const r2 = await luma([], elsewhere, {}, join(place, "agent2"));
  expect(r2.stdout).toBe("in data/\n");
}, 120_000);

test("from the checked-program cache, a std tool is still served by its built-in handler", async () => {
  const dir = project({ "a.txt": "cached", "main.luma": `import { read_file } from "luma:std"\nprint(tool read_file({ path: "a.txt" }).text)\n` });
  const env = { LUMA_NO_CACHE: "", XDG_CACHE_HOME: join(dir, ".cache") };
  const first = await luma(["main.luma"], dir, env);
  const second = await luma(["main.luma"], dir, env);
  expect([first.stdout, second.stdout]).toEqual(["cached\n", "cached\n"]);
  expect(second.stderr).toBe("");
  expect(readdirSync(join(dir, ".cache/luma")).length).toBe(1);
});
