/**
 * Issue #28 §2, the standard library, through `dist/luma` as a user runs it: JSON and the
 * environment, time, numbers and ids, lists and objects, patterns and padding, stdin. Each
 * program prints what the builtins return; the failures are RUNTIME_ERRORs naming the
 * builtin and the offending value (or, for json_parse, the line and column in the text).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

function run(source: string, opts: { stdin?: string; env?: Record<string, string> } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "luma-stdlib-"));
  writeFileSync(join(dir, "main.luma"), source);
  return runLuma(["main.luma"], { cwd: dir, ...opts });
}

function lines(source: string, opts?: { stdin?: string; env?: Record<string, string> }): string[] {
  const r = run(source, opts);
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  return r.stdout.trimEnd().split("\n");
}

describe("issue #28 §2: JSON and the environment", () => {
  test("json_parse gives the value; env a variable or null", () => {
    const out = lines(`d = json_parse("\\{\\"a\\": [1, 2.5, \\"x\\"], \\"b\\": null, \\"__proto__\\": 1}")\nprint(d, d.a[1], env("LUMA_T_SET"), env("LUMA_T_UNSET"))`, { env: { LUMA_T_SET: "yes" } });
    expect(out).toEqual(['{"a":[1,2.5,"x"],"b":null,"__proto__":1} 2.5 yes null']);
  });
  test("a text that is not JSON is a RUNTIME_ERROR naming the line and column inside it, catchable", () => {
    const out = lines(`t: string = "[1,\\n  tru]"\ntry {\n  json_parse(t)\n} catch e {\n  print(e.code, e.message)\n}`);
    expect(out).toEqual(['RUNTIME_ERROR json_parse(): the text is not JSON: unexpected "t" at line 2, column 3 of the text at main.luma:3:3']);
    const r = run(`print(json_parse("\\{\\"a\\": 1"))`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("json_parse(): the text is not JSON: unexpected end of text, expected ',' or '}' at line 1, column 8 of the text at main.luma:1:7");
  });
});

describe("issue #28 §2: time", () => {
  test("parse_time reads ISO-8601 (UTC without a zone); format_time writes ISO-8601 or a pattern, in UTC", () => {
    const out = lines(
      [
        `print(parse_time("2025-01-31T12:00:05.250Z"), parse_time("2025-01-31"), parse_time("2025-01-31T14:00+02:00"), parse_time("2025-01-31 12:00:05"))`,
        `print(format_time(1738324805250), format_time(0, "YYYY-MM-DD HH:mm:ss.SSS"), format_time(1738324805250, "ddd DD MMM YYYY [at] HH:mm"))`,
        `t = now_ms()`,
        `print(t > 1700000000000, abs(parse_time(now()) - t) < 60000)`,
      ].join("\n"),
    );
    expect(out).toEqual([
      "1738324805250 1738281600000 1738324800000 1738324805000",
      "2025-01-31T12:00:05.250Z 1970-01-01 00:00:00.000 Fri 31 Jan 2025 at 12:00",
      "true true",
    ]);
  });
  test("anything else, or a date that does not exist, is a RUNTIME_ERROR quoting it", () => {
    for (const text of ["31/01/2025", "2025-02-30", "2025-01-31T25:00"]) {
      const r = run(`parse_time("${text}")`);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`parse_time() cannot read "${text}" as an ISO-8601 time`);
    }
  });
});

describe("issue #28 §2: numbers and ids", () => {
  test("abs keeps the type, floor/ceil give ints, random_int includes both bounds, uuid is v4", () => {
    const out = lines(
      [
        `print(abs(-3), abs(-2.5), floor(2.7), ceil(2.1), floor(-2.5), ceil(-0.5))`,
        `seen = {}`,
        `for i in range(400) {\n  seen["{random_int(1, 3)}"] = true\n  r = random()\n  assert r >= 0 and r < 1\n}`,
        `print(sort(keys(seen)), random_int(5, 5))`,
        `print(len(regex_find_all(uuid(), "^[0-9a-f]\\{8}-[0-9a-f]\\{4}-4[0-9a-f]\\{3}-[89ab][0-9a-f]\\{3}-[0-9a-f]\\{12}$")), uuid() != uuid())`,
      ].join("\n"),
    );
    expect(out).toEqual(["3 2.5 2 3 -3 0", '["1","2","3"] 5', "1 true"]);
    expect(run(`random_int(3, 1)`).stderr).toContain("random_int() needs a low bound no greater than the high one, got 3 and 1");
  });
});

describe("issue #28 §2: lists and objects", () => {
  test("sort, reverse, unique, values, entries, index_of", () => {
    const out = lines(
      [
        `xs = [3, 1, 2]`,
        `print(sort(xs), xs, sort(["b", "B", "a"]), reverse(xs), unique([1, 2, 1, \{a: 1}, \{a: 1}, "1"]))`,
        `print(values(\{a: 1, b: "x"}), entries(\{a: 1}), index_of(xs, 2), index_of(["a"], "z"), index_of([\{k: 1}], \{k: 1}), index_of("hello", "ll"))`,
      ].join("\n"),
    );
    expect(out).toEqual(['[1,2,3] [3,1,2] ["B","a","b"] [2,1,3] [1,2,{"a":1},"1"]', '[1,"x"] [{"key":"a","value":1}] 2 -1 0 2']);
    const r = run(`xs: any = [1, "a"]\nsort(xs)`);
    expect(r.stderr).toContain(`sort() sorts numbers or strings, not both or others: item 2 is string "a" at main.luma:2:1`);
  });
});

describe("issue #28 §2: patterns and padding", () => {
  test("regex_match gives the whole match then the groups; find_all every match; replace every match with $1", () => {
    const out = lines(
      [
        `print(regex_match("order o-12 and o-34", "o-(\\\\d+)( x)?"), regex_match("none", "\\\\d"))`,
        `print(regex_find_all("o-12 o-34", "o-\\\\d+"), regex_replace("o-12 o-34", "o-(\\\\d+)", "#$1"))`,
        `print(pad_start("7", 3, "0"), "[" + pad_end("ab", 4) + "]", pad_start("abc", 2), pad_end("x", 6, "ab"))`,
      ].join("\n"),
    );
    expect(out).toEqual(['["o-12","12",""] null', '["o-12","o-34"] #12 #34', "007 [ab  ] abc xababa"]);
  });
  test("a pattern computed at run time that does not compile is a RUNTIME_ERROR naming it; a constant one is E0320", () => {
    const r = run(`p = "a(" + ""\nregex_match("x", p)`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`regex_match(): "a(" is not a regular expression`);
    const c = run(`print(regex_replace("x", "a(", "b"))`);
    expect(c.exitCode).toBe(2);
    expect(c.stderr).toContain("error[E0320]: 'a(' is not a regular expression for 'regex_replace'");
  });
});

describe("issue #28 §2: stdin", () => {
  test("read_line gives lines without their endings, then null; read_all the rest", () => {
    const out = lines(`print(read_line(), read_line())\nprint(read_all())\nprint(read_line(), json(read_all()))`, { stdin: "first\r\nsecond\nrest one\nrest two" });
    expect(out).toEqual(["first second", "rest one", "rest two", 'null ""']);
  });
  test("a program reading stdin line by line until null", () => {
    const out = lines(`n = 0\nline = read_line()\nwhile line != null {\n  n = n + int(line)\n  line = read_line()\n}\nprint(n)`, { stdin: "1\n2\n3\n" });
    expect(out).toEqual(["6"]);
  });
});
