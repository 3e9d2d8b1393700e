import { describe, test, expect } from "bun:test";
import { failure, output } from "./interpreter-harness";

describe("§7 int(s), float(s), bool(s): 'a clear runtime error naming the value when it does not parse'", () => {
  test("int parses decimal digits (sign, blanks) and truncates numbers", async () => {
    expect(await output(`print(int("30"), int(" -7 "), int("+4"), int(3.9), int(-3.9))`)).toEqual(["30 -7 4 3 -3"]);
    expect(await output(`print(int(args[0]) > 18)`, { args: ["30"] })).toEqual(["true"]);
  });
  test("int of text that is not an int names the value", async () => {
    for (const [src, msg] of [
      [`int("abc")`, `int() cannot parse "abc" as an int at test.luma:1:1`],
      [`int("3.5")`, `int() cannot parse "3.5" as an int at test.luma:1:1`],
      [`int("")`, `int() cannot parse "" as an int at test.luma:1:1`],
      [`int("99999999999999999999")`, `int() cannot parse "99999999999999999999" as an int (out of range) at test.luma:1:1`],
      [`int(null)`, `int() expects a string or a number, got null at test.luma:1:1`],
    ]) {
      const e = await failure(src);
      expect(e.code).toBe("RUNTIME_ERROR");
      expect(e.message).toBe(msg);
    }
  });
  test("float parses decimals and exponents; junk and Infinity are errors", async () => {
    expect(await output(`print(float("2.5"), float(" -1e3 "), float(".5"), float("7"), float(2))`)).toEqual(["2.5 -1000 0.5 7 2"]);
    expect((await failure(`float("1,5")`)).message).toBe(`float() cannot parse "1,5" as a float at test.luma:1:1`);
    expect((await failure(`float("1e999")`)).message).toBe(`float() cannot parse "1e999" as a float at test.luma:1:1`);
    expect((await failure(`float("NaN")`)).message).toStartWith(`float() cannot parse "NaN"`);
  });
  test("bool takes true/false in any case; anything else is named", async () => {
    expect(await output(`print(bool("true"), bool(" FALSE "), bool(true))`)).toEqual(["true false true"]);
    expect((await failure(`bool("yes")`)).message).toBe(`bool() cannot parse "yes" as a bool (expected "true" or "false") at test.luma:1:1`);
  });
  test("a long value is quoted cut short", async () => {
    const e = await failure(`int(args[0])`, { args: ["x".repeat(500)] });
    expect(e.message.length).toBeLessThan(120);
  });
});

describe("§7 round(x, digits) and fixed(x, digits): numbers a report can print", () => {
  test("round is half away from zero, to the digits written", async () => {
    expect(await output(`print(round(2.5), round(-2.5), round(1.005, 2), round(2.675, 2), round(0.1 + 0.2, 2), round(1234.5678, 1))`)).toEqual([
      "3 -3 1.01 2.68 0.3 1234.6",
    ]);
  });
  test("fixed writes exactly the digits asked for", async () => {
    expect(await output(`print(fixed(0.1 + 0.2, 2), fixed(3, 2), fixed(1.005, 2), fixed(-0.001, 2), fixed(2.5, 0))`)).toEqual([
      "0.30 3.00 1.01 0.00 3",
    ]);
  });
  test("digits out of range or not an int are errors", async () => {
    expect((await failure(`round(1, 16)`)).message).toBe("round() takes 0 to 15 digits, got 16 at test.luma:1:1");
    expect((await failure(`fixed(1, -1)`)).message).toBe("fixed() takes 0 to 20 digits, got -1 at test.luma:1:1");
    expect((await failure(`x: any = "2"\nfixed(1, x)`)).message).toBe("fixed() expects digits as an int from 0 to 20, got string at test.luma:2:1");
    expect((await failure(`x: any = "2"\nround(x)`)).message).toBe("round() expects a number, got string at test.luma:2:1");
  });
});

describe("§7 range(n) / range(a, b)", () => {
  test("half-open ranges, empty when the end is not past the start", async () => {
    expect(await output(`print(range(3), range(2, 5), range(0), range(5, 2), range(-2, 1))`)).toEqual(["[0,1,2] [2,3,4] [] [] [-2,-1,0]"]);
  });
  test("a range beyond ten million items is an error, not an out-of-memory", async () => {
    expect((await failure(`range(1000000000)`)).message).toBe("range() of 1000000000 items is over the limit of 10000000 at test.luma:1:1");
    expect((await failure(`range(1.5)`)).message).toBe("range() expects an int, got float at test.luma:1:1");
  });
});

describe("§7 sum, min, max over numbers", () => {
  test("over one array or over the arguments", async () => {
    expect(await output(`print(sum([1, 2, 3.5]), sum([]), min([3, 1, 2]), max(3, 9, 2), min(4), max([-1.5, -2]))`)).toEqual(["6.5 0 1 9 4 -1.5"]);
  });
  test("a non-number names the item; min/max of nothing is an error", async () => {
    expect((await failure(`xs: any = [1, "2"]\nsum(xs)`)).message).toBe(`sum() expects numbers, got string "2" (item 2) at test.luma:2:1`);
    expect((await failure(`min([])`)).message).toBe("min() of no numbers has no value at test.luma:1:1");
  });
});

describe("§7 exit(code)", () => {
  test("exit(0) ends the run as a success; nothing after it runs", async () => {
    expect(await output(`print("a")\nexit(0)\nprint("b")`)).toEqual(["a"]);
    expect(await output(`print("a")\nexit()\nprint("b")`)).toEqual(["a"]);
  });
  test("another status ends the run with it, and no try/catch holds it", async () => {
    const e = await failure(`try {\n  exit(3)\n} catch e {\n  print("caught")\n}\nprint("after")`);
    expect(e.out).toEqual([]);
    expect((e as unknown as { exitCode: number }).exitCode).toBe(3);
  });
  test("a status outside 0–255 is an error", async () => {
    expect((await failure(`exit(256)`)).message).toBe("exit() takes a status from 0 to 255, got 256 at test.luma:1:1");
  });
});
