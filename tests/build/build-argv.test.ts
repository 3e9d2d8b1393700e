/** `luma build` command line (issue #13): FILE, -o OUT, repeatable --tool-module, --config, --target. */
import { describe, expect, test } from "bun:test";
import { parseArgv, UsageError } from "../../src/cli/argv";

describe("luma build FILE -o OUT [--tool-module PATH]... [--config PATH] [--target T]", () => {
  test("options before and after FILE, `=` forms, --tool-module repeatable", () => {
    expect(parseArgv(["build", "--tool-module", "a.ts", "p.luma", "-o", "out", "--tool-module=b.cjs", "--config=c.json", "--target", "bun-linux-arm64"])).toEqual({
      kind: "build",
      file: "p.luma",
      out: "out",
      toolModules: ["a.ts", "b.cjs"],
      config: "c.json",
      target: "bun-linux-arm64",
    });
    expect(parseArgv(["build", "p.luma", "--output", "o"])).toMatchObject({ kind: "build", out: "o" });
  });

  test("missing FILE, missing OUT, a second FILE, a run-time option: usage errors naming the problem", () => {
    const usage = (argv: string[]) => {
      try {
        parseArgv(argv);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        return (e as Error).message;
      }
      throw new Error("no usage error");
    };
    expect(usage(["build"])).toBe("luma build needs a FILE.luma");
    expect(usage(["build", "p.luma"])).toBe("luma build needs -o OUT (the executable to write)");
    expect(usage(["build", "p.luma", "q.luma", "-o", "o"])).toBe("unexpected argument 'q.luma' (luma build takes one FILE)");
    expect(usage(["build", "p.luma", "-o"])).toBe("option -o needs a value");
    expect(usage(["build", "p.luma", "-o", "o", "--trace", "-"])).toContain("unknown option --trace for luma build");
  });
});
