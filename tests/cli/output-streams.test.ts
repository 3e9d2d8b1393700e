/**
 * Issue #10.1 through the real binary, driven by a real shell: a program's stdout and stderr
 * are complete and in order on pipes (a slow reader included), files, /dev/null; a reader
 * that goes away (`| head -1`) ends the program quietly with 141; a full disk (/dev/full) is
 * an error naming the stream. Bun makes inherited pipes non-blocking, which is what used to
 * cut output at ~64 KiB (see src/runtime/run/write-fully.ts).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "../support/luma-binary";

const LINE = "0123456789".repeat(10);
/** 2^14 = 16384 numbered lines of ~106 bytes: about 1.7 MB, far past a pipe's 64 KiB. */
const MANY_LINES = `line = "${LINE}"
xs = [1]
for k in [1,2,3,4,5,6,7,8,9,10,11,12,13,14] { xs = xs + xs }
n = 0
for x in xs {
  n = n + 1
  print(n, line)
}
`;
const EXPECTED = Array.from({ length: 16384 }, (_, i) => `${i + 1} ${LINE}\n`).join("");

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "luma-io-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/**
 * Runs `script` in bash with $LUMA set; the script prints the statuses it wants to check.
 * No NO_COLOR: the colour probe (`process.stderr.isTTY`) is what makes Bun switch the
 * inherited pipes to non-blocking, as in a user's shell.
 */
function sh(dir: string, script: string) {
  const r = Bun.spawnSync(["bash", "-c", script], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", LUMA: ensureBinary() },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

describe("issue #10.1: stdout is complete and in order, however large", () => {
  test("to a pipe whose reader starts late: every line, in order, exit 0, nothing on stderr", () => {
    const dir = project({ "app.luma": MANY_LINES });
    const r = sh(dir, '"$LUMA" app.luma 2>err | { sleep 1; cat > out; }; echo "${PIPESTATUS[0]}"');
    expect(r.stdout).toBe("0\n");
    expect(readFileSync(join(dir, "err"), "utf8")).toBe("");
    expect(readFileSync(join(dir, "out"), "utf8")).toBe(EXPECTED);
  });

  test("to a pipe read at once, to a file, to /dev/null: complete, exit 0", () => {
    const dir = project({ "app.luma": MANY_LINES });
    const r = sh(dir, '"$LUMA" app.luma | cat > piped; echo "${PIPESTATUS[0]}"; "$LUMA" app.luma > file; echo $?; "$LUMA" app.luma > /dev/null; echo $?');
    expect(r.stdout).toBe("0\n0\n0\n");
    expect(r.stderr).toBe("");
    expect(readFileSync(join(dir, "piped"), "utf8")).toBe(EXPECTED);
    expect(readFileSync(join(dir, "file"), "utf8")).toBe(EXPECTED);
  });

  test("one 1 MiB line to a slow pipe arrives whole", () => {
    const dir = project({
      "app.luma": 's = "x"\nfor k in [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20] { s = s + s }\nprint(s)\nprint("end")\n',
    });
    const r = sh(dir, '"$LUMA" app.luma | { sleep 1; cat > out; }; echo "${PIPESTATUS[0]}"');
    expect(r.stdout).toBe("0\n");
    expect(readFileSync(join(dir, "out"), "utf8")).toBe("x".repeat(1 << 20) + "\nend\n");
  });

  test("a long line of multi-byte characters to a slow pipe arrives whole: a write cut mid-character goes on from the byte it stopped at", () => {
    // 9 bytes per repeat, 2^17 repeats: ~1.2 MB, so the pipe fills somewhere inside a character.
    const dir = project({
      "app.luma": 's = "é€😀"\nfor k in [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17] { s = s + s }\nprint(s)\nprint("end")\n',
    });
    const r = sh(dir, '"$LUMA" app.luma | { sleep 1; cat > out; }; echo "${PIPESTATUS[0]}"');
    expect(r.stdout).toBe("0\n");
    expect(readFileSync(join(dir, "out"), "utf8")).toBe("é€😀".repeat(1 << 17) + "\nend\n");
  });
});

describe("issue #10.1: a closed pipe ends the program quietly", () => {
  test("`| head -1`: the first line arrives, exit 141 (SIGPIPE's status), no 'Internal error'", () => {
    const dir = project({ "app.luma": MANY_LINES });
    const r = sh(dir, '"$LUMA" app.luma 2>err | head -1; echo "${PIPESTATUS[0]}"');
    expect(r.stdout).toBe(`1 ${LINE}\n141\n`);
    expect(readFileSync(join(dir, "err"), "utf8")).toBe("");
  });

  test("a Luma try/catch cannot catch the closed pipe: the catch block never runs", () => {
    const dir = project({
      "tools.ts": `import { appendFileSync } from "node:fs";
export const lumaTools = { mark: (input: { n: number }) => { appendFileSync("caught", input.n + "\\n"); return { ok: true }; } };
`,
      "app.luma": `schema Ok { ok: bool }
tool mark(n: int) -> Ok {}
${MANY_LINES.replace("  print(n, line)", "  try { print(n, line) } catch e { tool mark({ n: n }) }")}`,
    });
    const r = sh(dir, '"$LUMA" app.luma --tool-module tools.ts 2>err | head -1; echo "${PIPESTATUS[0]}"');
    expect(r.stdout).toBe(`1 ${LINE}\n141\n`);
    expect(readFileSync(join(dir, "err"), "utf8")).toBe("");
    expect(existsSync(join(dir, "caught"))).toBe(false);
  });

  test("the trace file is complete up to the last call when the reader goes away", () => {
    const dir = project({ "app.luma": CALC_LOOP });
    const r = sh(dir, '"$LUMA" app.luma --trace trace.jsonl 2>err | head -1; echo "${PIPESTATUS[0]}"');
    expect(r.stdout).toBe("2\n141\n");
    const events = readFileSync(join(dir, "trace.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.event === "tool.call" && e.outcome === "ok")).toBe(true);
  });
});

/** 4096 tool calls, each printing its result: with `--trace -`, 4096 trace lines on stderr. */
const CALC_LOOP = `schema CalcResult { result: float }
tool calculate(a: float, b: float, operation: enum["add", "multiply"]) -> CalcResult {}
xs = [1]
for k in [1,2,3,4,5,6,7,8,9,10,11,12] { xs = xs + xs }
n = 0
for x in xs {
  n = n + 1
  r = tool calculate({ a: n, b: 1, operation: "add" })
  print(r.result)
}
`;

describe("issue #10.1: stderr is written the same way", () => {
  test("a large `--trace -` on stderr, merged with stdout into a slow pipe: complete and interleaved in order", () => {
    const dir = project({ "app.luma": CALC_LOOP });
    const r = sh(dir, '"$LUMA" app.luma --trace - 2>&1 | { sleep 1; cat > out; }; echo "${PIPESTATUS[0]}"');
    expect(r.stdout).toBe("0\n");
    const lines = readFileSync(join(dir, "out"), "utf8").trimEnd().split("\n");
    expect(lines.length).toBe(2 * 4096);
    for (let i = 0; i < 4096; i++) {
      expect(JSON.parse(lines[2 * i]).event).toBe("tool.call");
      expect(lines[2 * i + 1]).toBe(String(i + 2));
    }
  });

  test("stderr closed by its reader ends the run with 141 too", () => {
    const dir = project({ "app.luma": CALC_LOOP });
    const r = sh(dir, '"$LUMA" app.luma --trace - 2>&1 >/dev/null | head -1 >/dev/null; echo "${PIPESTATUS[0]}"');
    expect(r.stdout).toBe("141\n");
  });
});

describe("issue #10.1: a full disk is a clear error naming the stream", () => {
  test("stdout on /dev/full: `cannot write to stdout: no space left on device (ENOSPC)`, exit 1", () => {
    const dir = project({ "app.luma": 'print("hello")\n' });
    const r = sh(dir, '"$LUMA" app.luma > /dev/full; echo "$?"');
    expect(r.stdout).toBe("1\n");
    expect(r.stderr).toBe("Error: [RUNTIME_ERROR] cannot write to stdout: no space left on device (ENOSPC)\n");
  });

  test("`luma check` and `--version` on /dev/full fail the same way, not with a stack", () => {
    const dir = project({ "app.luma": 'print("hello")\n' });
    const r = sh(dir, '"$LUMA" check app.luma > /dev/full; echo "$?"; "$LUMA" --version > /dev/full; echo "$?"');
    expect(r.stdout).toBe("1\n1\n");
    expect(r.stderr).toBe("Error: [RUNTIME_ERROR] cannot write to stdout: no space left on device (ENOSPC)\n".repeat(2));
  });

  test("stderr on /dev/full (a trace that cannot be written): exit 1, stdout stops there", () => {
    const dir = project({ "app.luma": CALC_LOOP });
    const r = sh(dir, '"$LUMA" app.luma --trace - 2>/dev/full; echo "$?"');
    expect(r.stdout).toBe("1\n");
  });

  test("a trace file on a full disk names the trace file", () => {
    const dir = project({ "app.luma": CALC_LOOP });
    const r = sh(dir, '"$LUMA" app.luma --trace /dev/full >/dev/null; echo "$?"');
    expect(r.stdout).toBe("1\n");
    expect(r.stderr).toBe("Error: [RUNTIME_ERROR] cannot write to the trace file /dev/full: no space left on device (ENOSPC)\n");
  });
});
