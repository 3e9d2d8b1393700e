import { describe, expect, test } from "bun:test";
import { OPTIONS, parseArgv, RUN_TIME_OPTIONS, runTimeOptions, UsageError, type RunCommand } from "../../src/cli/argv";

describe("§15 command line", () => {
  test("luma FILE [ARGS…]: arguments after FILE go to args", () => {
    expect(parseArgv(["app.luma", "a", "b"])).toEqual({ kind: "run", file: "app.luma", args: ["a", "b"], toolModules: [] });
  });

  test("Luma's own options are recognised before and after FILE; --tool-module is repeatable", () => {
    const cmd = parseArgv(["--tool-module", "a.ts", "app.luma", "x", "--tool-module=b.ts", "--config", "c.json", "--trace", "-"]);
    expect(cmd).toEqual({
      kind: "run", file: "app.luma", args: ["x"], toolModules: ["a.ts", "b.ts"], config: "c.json", trace: "-",
    });
  });

  test("every other argument after FILE goes to args, and `--` ends option parsing", () => {
    expect(parseArgv(["app.luma", "--verbose", "--", "--config", "x"])).toMatchObject({
      args: ["--verbose", "--config", "x"],
    });
  });

  test("--generate-tool-types OUT.d.ts", () => {
    expect(parseArgv(["app.luma", "--generate-tool-types", "t.d.ts"])).toMatchObject({ generateToolTypes: "t.d.ts" });
  });

  test("luma check FILE.luma", () => {
    expect(parseArgv(["check", "app.luma"])).toEqual({ kind: "check", file: "app.luma", format: "text" });
  });

  test("luma check --format json FILE.luma, before or after FILE", () => {
    expect(parseArgv(["check", "--format", "json", "app.luma"])).toEqual({ kind: "check", file: "app.luma", format: "json" });
    expect(parseArgv(["check", "app.luma", "--format=json"])).toEqual({ kind: "check", file: "app.luma", format: "json" });
  });

  test("--format is luma check's: for a run it is the program's argument", () => {
    expect(parseArgv(["app.luma", "--format", "json"])).toMatchObject({ kind: "run", args: ["--format", "json"] });
  });

  test("luma explain CODE", () => {
    expect(parseArgv(["explain", "E0201"])).toEqual({ kind: "explain", code: "E0201" });
  });

  test("luma --version | --help", () => {
    expect(parseArgv(["--version"])).toEqual({ kind: "version" });
    expect(parseArgv(["--help"])).toEqual({ kind: "help" });
  });

  test.each([
    [[], "missing FILE.luma"],
    [["--bogus", "app.luma"], "unknown option --bogus"],
    [["app.luma", "--config"], "option --config needs a value (PATH)"],
    [["check"], "luma check needs a FILE.luma"],
    [["check", "a.luma", "b.luma"], "unexpected argument 'b.luma' (luma check takes one FILE)"],
    [["check", "a.luma", "--config", "c.json"], "luma check takes no run options (only --format): it parses and checks FILE only"],
    [["check", "--format", "xml", "a.luma"], "--format must be text or json (got 'xml')"],
    [["check", "a.luma", "--format"], "option --format needs a value (text|json)"],
    [["explain"], "luma explain needs a CODE (for example E0201 or TOOL_TIMEOUT)"],
    [["explain", "E0201", "E0202"], "unexpected argument 'E0202' (luma explain takes one CODE)"],
  ])("usage error (exit 64): %p", (argv, message) => {
    expect(() => parseArgv(argv as string[])).toThrow(new UsageError(message as string));
  });
});

describe("§15 run options reach the run the same way for `luma FILE` and a built agent", () => {
  test("every run-time option of the table changes what runTimeOptions hands startProgram", () => {
    // A table entry that runTimeOptions forgets would be accepted and silently dropped (issue: a built agent ignored --journal).
    const bare = runTimeOptions(parseArgv(["app.luma"]) as RunCommand);
    const dropped = RUN_TIME_OPTIONS.filter((name) => {
      const argv = OPTIONS[name].takesValue ? ["app.luma", name, "v"] : ["app.luma", name];
      return Bun.deepEquals(runTimeOptions(parseArgv(argv) as RunCommand), bare);
    });
    expect(dropped).toEqual([]);
  });

  test("the run-time options are the table less its build-time ones (--tool-module, --generate-tool-types)", () => {
    expect(Object.keys(OPTIONS).filter((name) => !RUN_TIME_OPTIONS.includes(name))).toEqual(["--tool-module", "--generate-tool-types"]);
    expect(RUN_TIME_OPTIONS).toContain("--journal");
    expect(RUN_TIME_OPTIONS).toContain("--usage");
  });
});
