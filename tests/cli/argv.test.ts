import { describe, expect, test } from "bun:test";
import { parseArgv, UsageError } from "../../src/cli/argv";

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
    expect(parseArgv(["check", "app.luma"])).toEqual({ kind: "check", file: "app.luma" });
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
    [["check", "a.luma", "--config", "c.json"], "luma check takes no options: it parses and checks FILE only"],
  ])("usage error (exit 64): %p", (argv, message) => {
    expect(() => parseArgv(argv as string[])).toThrow(new UsageError(message as string));
  });
});
