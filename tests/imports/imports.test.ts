/**
 * Issue #28 §1, through the real `dist/luma`: `import { … } from "./x.luma"` between files.
 * A program split across files runs as one (aliases, a tool served under its declared name,
 * imported files' statements not run, a tool nothing reaches needing no handler); every
 * import error is a check error at file:line:col in the file it belongs to; the checker's
 * own errors in an imported file name that file; a change in an imported file is seen by
 * the checked-program cache; `luma fmt`, `luma test` and `--generate-tool-types` read the
 * linked program.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runLuma } from "../support/luma-binary";

/** A temporary project: each path (relative, `/` separated) with its text. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-imports-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const ORDERS = `schema Order {
  id: string
  total: float
}

schema CalcResult { result: float }

tool calculate(a: float, b: float, operation: enum["add", "multiply"]) -> CalcResult {}

// No handler anywhere: only an importer that reaches it needs one.
tool lookup_order(id: string) -> Order {}

fn describe(o: Order) -> string {
  return "order {o.id}: {o.total}"
}

print("orders.luma ran its own statements")
`;

describe("a program across files runs as one", () => {
  test("aliases, a tool under its declared name, nested imports; imported statements do not run", () => {
    const dir = project({
      "lib/orders.luma": ORDERS,
      "shared/money.luma": `import { CalcResult as Sum } from "../lib/orders.luma"\nfn euros(s: Sum) -> string {\n  return "{s.result} EUR"\n}\n`,
      "main.luma": `import {
  Order as O,
  describe,
  calculate as calc,
} from "./lib/orders.luma"
import { euros } from "./shared/money.luma"

o: O = { id: "o-1", total: 5.5 }
print(describe(o))
r = tool calc({ a: 2, b: 3, operation: "add" })
print(euros(r))
`,
    });
    const r = runLuma(["main.luma"], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("order o-1: 5.5\n5 EUR\n");
    expect(r.exitCode).toBe(0);
  });

  test("a tool the main file reaches only through an imported fn still runs its pipeline", () => {
    const dir = project({
      "lib/orders.luma": ORDERS + `fn add(a: float, b: float) -> float {\n  return tool calculate({ a: a, b: b, operation: "add" }).result\n}\n`,
      "main.luma": `import { add } from "./lib/orders.luma"\nprint(add(1, 2))\n`,
    });
    const r = runLuma(["main.luma"], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("3\n");
  });

  test("a tool the main file does reach must have a handler, as in one file (E0601 names it)", () => {
    const dir = project({
      "lib/orders.luma": ORDERS,
      "main.luma": `import { lookup_order } from "./lib/orders.luma"\nprint(tool lookup_order({ id: "1" }))\n`,
    });
    const r = runLuma(["main.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("'lookup_order' is not registered in the tool registry.");
  });
});

describe("import errors: check errors at the import, naming both files", () => {
  const dir = project({
    "lib/orders.luma": ORDERS,
    "lib/reexport.luma": `import { Order } from "./orders.luma"\nschema Wrapper { o: Order }\n`,
    "lib/a.luma": `import { B } from "./b.luma"\nschema A { x: int }\n`,
    "lib/b.luma": `import { A } from "./a.luma"\nschema B { y: int }\n`,
    "bad_paths.luma": `import { Order } from "lib/orders"\nimport { Order } from "./lib/missing.luma"\n`,
    "unknown.luma": `import { Ordr } from "./lib/orders.luma"\nimport { Order } from "./lib/reexport.luma"\n`,
    "cycle.luma": `import { A } from "./lib/a.luma"\nprint("x")\n`,
    "clash.luma": `import { Order } from "./lib/orders.luma"\nimport { describe, describe as Order } from "./lib/orders.luma"\nschema describe { x: int }\n`,
    "twice.luma": `import { describe } from "./lib/orders.luma"\nschema Order { x: int }\n`,
    "not_imported.luma": `import { describe } from "./lib/orders.luma"\no: Order = { id: "1", total: 1 }\nprint(describe(o))\n`,
  });
  const check = (file: string) => runLuma(["check", file], { cwd: dir });

  test("E1001 a path that is not relative .luma, E1002 a missing file", () => {
    const r = check("bad_paths.luma");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      'bad_paths.luma:1:23: error[E1001]: Import path "lib/orders" must be relative to the importing file (start with ./ or ../) and end in .luma.',
    );
    expect(r.stderr).toContain('bad_paths.luma:2:23: error[E1002]: Cannot read "./lib/missing.luma" imported by bad_paths.luma: no such file (lib/missing.luma).');
  });

  test("E1003 a name the file does not declare: did you mean, and no re-export", () => {
    const r = check("unknown.luma");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown.luma:1:10: error[E1003]: 'Ordr' is not declared in lib/orders.luma (imported by unknown.luma).");
    expect(r.stderr).toContain("hint: did you mean 'Order'?");
    expect(r.stderr).toContain("unknown.luma:2:10: error[E1003]: 'Order' is not declared in lib/reexport.luma (imported by unknown.luma).");
    expect(r.stderr).toContain("hint: that file imports it from ./orders.luma: a file does not re-export what it imports");
  });

  test("E1004 an import cycle, at the import that closes it, in the file it belongs to", () => {
    const r = check("cycle.luma");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("lib/b.luma:1:19: error[E1004]: Import cycle: lib/a.luma → lib/b.luma → lib/a.luma.");
  });

  test("E1005 a name imported twice, or over one the file declares", () => {
    const r = check("clash.luma");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("clash.luma:2:10: error[E1005]: 'describe' is imported from lib/orders.luma, but clash.luma declares it too.");
    expect(r.stderr).toContain("clash.luma:2:32: error[E1005]: 'Order' is imported from lib/orders.luma, but clash.luma already imports that name from lib/orders.luma.");
  });

  test("E1006 two files of one program declaring one name, even unimported", () => {
    const r = check("twice.luma");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      "lib/orders.luma:1:8: error[E1006]: 'Order' is declared in twice.luma and again in lib/orders.luma: the files of one program share one set of declaration names.",
    );
  });

  test("E1007 a declaration of another file used without importing it, with the line to add", () => {
    const r = check("not_imported.luma");
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("not_imported.luma:2:4: error[E1007]: 'Order' is declared in lib/orders.luma, which not_imported.luma does not import it from.");
    expect(r.stderr).toContain('hint: add: import { Order } from "./lib/orders.luma"');
    // A plain run refuses it as well, before anything runs.
    const run = runLuma(["not_imported.luma"], { cwd: dir });
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe("");
  });
});

describe("the checker's own errors in an imported file name that file", () => {
  test("a type error inside an imported fn: lib/orders.luma:line:col, with its source line", () => {
    const dir = project({
      "lib/orders.luma": ORDERS.replace('return "order {o.id}: {o.total}"', "return o.totl"),
      "main.luma": `import { describe } from "./lib/orders.luma"\nprint("main")\n`,
    });
    const r = runLuma(["check", "main.luma"], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("lib/orders.luma:14:10: error[E0301]: Type 'Order' has no field 'totl'.");
    expect(r.stderr).toContain("return o.totl");
  });
});

describe("the checked-program cache sees a change in an imported file", () => {
  test("a clean cached program, then an edit of the imported file only: the edit is judged", () => {
    const dir = project({
      "lib/orders.luma": ORDERS,
      "main.luma": `import { describe, Order } from "./lib/orders.luma"\no: Order = { id: "o-1", total: 2 }\nprint(describe(o))\n`,
    });
    const env = { LUMA_NO_CACHE: undefined, XDG_CACHE_HOME: join(dir, "cache") };
    expect(runLuma(["main.luma"], { cwd: dir, env }).stdout).toBe("order o-1: 2\n");
    expect(runLuma(["check", "main.luma"], { cwd: dir, env }).exitCode).toBe(0);
    writeFileSync(join(dir, "lib/orders.luma"), ORDERS.replace('"order {o.id}: {o.total}"', '"order #{o.id}"'));
    expect(runLuma(["main.luma"], { cwd: dir, env }).stdout).toBe("order #o-1\n");
    writeFileSync(join(dir, "lib/orders.luma"), ORDERS.replace('return "order {o.id}: {o.total}"', "return o.totl"));
    const checked = runLuma(["check", "main.luma"], { cwd: dir, env });
    expect(checked.exitCode).toBe(2);
    expect(checked.stderr).toContain("error[E0301]");
  });
});

describe("the commands that read a program read all of its files", () => {
  test("luma fmt prints import lines canonically (one line when it fits, a name a line otherwise)", () => {
    const dir = project({
      "main.luma": `import {Order as O,describe} from "./lib/orders.luma"\nimport { AVeryLongNameNumberOne, AVeryLongNameNumberTwo, AVeryLongNameNumberThree, AVeryLongNameNumberFour } from "./lib/x.luma"\n`,
    });
    const r = runLuma(["fmt", "main.luma"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, "main.luma"), "utf8")).toBe(
      `import { Order as O, describe } from "./lib/orders.luma"\nimport {\n  AVeryLongNameNumberOne,\n  AVeryLongNameNumberTwo,\n  AVeryLongNameNumberThree,\n  AVeryLongNameNumberFour,\n} from "./lib/x.luma"\n`,
    );
  });

  test("luma test runs a file's tests against what it imports", () => {
    const dir = project({
      "lib/orders.luma": ORDERS,
      "main.luma": `import { describe as show, Order } from "./lib/orders.luma"\n\ntest "describes an order" {\n  o: Order = { id: "a", total: 1 }\n  assert show(o) == "order a: 1"\n}\n`,
    });
    const r = runLuma(["test", "main.luma"], { cwd: dir });
    expect(r.stderr + r.stdout).toContain("1 passed");
    expect(r.exitCode).toBe(0);
  });

  test("--generate-tool-types writes the types of an imported tool the program reaches", () => {
    const dir = project({
      "lib/orders.luma": ORDERS,
      "main.luma": `import { lookup_order as find } from "./lib/orders.luma"\nprint(tool find({ id: "1" }))\n`,
    });
    const r = runLuma(["main.luma", "--generate-tool-types", "tools.d.ts"], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const types = readFileSync(join(dir, "tools.d.ts"), "utf8");
    expect(types).toContain("lookup_order");
    expect(types).toContain("total: number");
  });
});

describe("luma build bundles the imported files", () => {
  test("the executable runs from anywhere without them; a runtime error inside one shows its line; the manifest lists them", () => {
    const dir = project({
      "lib/boom.luma": `fn boom(x: any) -> any {\n  return x.a.b\n}\n\nfn fine() -> string {\n  return "fine"\n}\n`,
      "main.luma": `import { boom, fine } from "./lib/boom.luma"\nprint(fine())\nprint(boom({ a: null }))\n`,
    });
    const built = runLuma(["build", "main.luma", "-o", "agent"], { cwd: dir });
    expect(built.exitCode).toBe(0);
    const exe = join(dir, "agent");
    const elsewhere = mkdtempSync(join(tmpdir(), "luma-imports-run-"));
    const r = runLuma([], { bin: exe, cwd: elsewhere });
    expect(r.stdout).toBe("fine\n");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("Cannot read field 'b' of null at lib/boom.luma:2:10");
    expect(r.stderr).toContain("  2 |   return x.a.b");
    const manifest = JSON.parse(runLuma(["--luma-manifest"], { bin: exe, cwd: elsewhere }).stdout);
    expect(manifest.imports.map((f: { path: string }) => f.path)).toEqual(["lib/boom.luma"]);
  });
});
