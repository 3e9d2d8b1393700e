import { describe, test, expect } from "bun:test";
import { failure, output } from "./interpreter-harness";

/** `file:line:col` of the n-th occurrence (0-based) of `needle` in `source`. */
function at(source: string, needle: string, nth = 0): string {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = source.indexOf(needle, i + 1);
  const before = source.slice(0, i).split("\n");
  return `test.luma:${before.length}:${before[before.length - 1].length + 1}`;
}

describe("§7 arithmetic: + - * / %", () => {
  test("'/ is real division (7 / 2 is 3.5)'", async () => {
    expect(await output(`print(7 / 2)\nprint(6 / 2)\nprint(1 / 4)`)).toEqual(["3.5", "3", "0.25"]);
  });
  test("+ - * % and precedence, unary minus, parentheses", async () => {
    expect(await output(`print(1 + 2 * 3, (1 + 2) * 3, 10 - 4 - 3, 7 % 3, -7 % 3, -(2 + 3), 0.5 + 0.25)`)).toEqual([
      "7 9 3 1 -1 -5 0.75",
    ]);
  });
  test("division by zero is RUNTIME_ERROR with file:line:col", async () => {
    const src = `x = 1\ny = x / 0\nprint(y)`;
    const e = await failure(src);
    expect(e.code).toBe("RUNTIME_ERROR");
    expect(e.phase).toBe("runtime");
    expect(e.message).toBe(`Division by zero at ${at(src, "x / 0")}`);
  });
  test("modulo by zero is RUNTIME_ERROR", async () => {
    const e = await failure(`print(5 % 0)`);
    expect(e.code).toBe("RUNTIME_ERROR");
    expect(e.message).toStartWith("Modulo by zero at test.luma:1:7");
  });
  test("arithmetic on non-numbers is RUNTIME_ERROR naming the operator and the types", async () => {
    const e = await failure(`x = "a" - 1`);
    expect(e.code).toBe("RUNTIME_ERROR");
    expect(e.message).toStartWith("Operator '-' cannot be applied to string and int at test.luma:1:5");
    expect((await failure(`x = null * 2.5`)).message).toStartWith("Operator '*' cannot be applied to null and float");
    expect((await failure(`x = true + 1`)).message).toStartWith("Operator '+' cannot be applied to bool and int");
    expect((await failure(`x = -"a"`)).message).toStartWith("Operator '-' cannot be applied to string");
  });
  test("a result that is not a finite number is RUNTIME_ERROR, not Infinity", async () => {
    expect((await failure(`print(1e308 * 10)`)).message).toStartWith("Numeric overflow");
  });
});

describe("§7 '+ with a string on either side concatenates'", () => {
  test("the other side is rendered as interpolation renders it", async () => {
    expect(
      await output(`print("n=" + 3)\nprint(2.5 + "!")\nprint("b=" + true + ", z=" + null)\nprint("o=" + { a: [1, "x"] })\nprint("" + "")`),
    ).toEqual(["n=3", "2.5!", "b=true, z=null", 'o={"a":[1,"x"]}', ""]);
  });
  test("two arrays concatenate (the way to grow a list)", async () => {
    expect(await output(`xs = [1]\nxs = xs + [2, 3]\nprint(xs)`)).toEqual(["[1,2,3]"]);
  });
});

describe("§7 comparisons", () => {
  test("< <= > >= on numbers and on strings", async () => {
    expect(await output(`print(1 < 2, 2 <= 2, 3 > 4, 1.5 >= 1, "a" < "b", "b" <= "a")`)).toEqual([
      "true true false true true false",
    ]);
  });
  test("'comparisons of different types are false, not errors'", async () => {
    expect(await output(`print(1 < "2", "1" > 0, null < 1, 1 >= null, [1] < [2], true > false)`)).toEqual([
      "false false false false false false",
    ]);
    expect(await output(`print(1 == "1", null == false, 0 == false)`)).toEqual(["false false false"]);
  });
  test("== and != are deep structural equality", async () => {
    expect(
      await output(`print({ a: [1, { b: 2 }] } == { a: [1, { b: 2 }] }, [1, 2] != [1, 2], [1] == [1, 2], 1 == 1.0, null == null)`),
    ).toEqual(["true false false true true"]);
  });
});

describe("§7 and / or / not", () => {
  test("short-circuit: the right side is not evaluated when the left decides", async () => {
    // `1 / 0` would fail if evaluated.
    expect(await output(`print(false and 1 / 0, true or 1 / 0)`)).toEqual(["false true"]);
  });
  test("results are booleans; truthiness: false, null, 0, \"\" falsy", async () => {
    expect(await output(`print(1 and "x", 0 or "", not 0, not "", not [], not null, null or 3)`)).toEqual([
      "true false true true false true true",
    ]);
  });
});

describe("§7 a.b field access", () => {
  test("a missing field on an object reads as null", async () => {
    expect(await output(`o = { a: { b: 1 } }\nprint(o.a.b, o.a.c, o.x)`)).toEqual(["1 null null"]);
  });
  test("field access on null is RUNTIME_ERROR 'Cannot read field 'b' of null' with file:line:col", async () => {
    const src = `o = { a: null }\n\nprint(o.a.b)`;
    const e = await failure(src);
    expect(e.code).toBe("RUNTIME_ERROR");
    expect(e.message).toBe(`Cannot read field 'b' of null at ${at(src, "o.a.b")}`);
    expect(e.message).toEndWith("at test.luma:3:7");
  });
  test("field access on a non-object is RUNTIME_ERROR; inherited JS properties are not fields", async () => {
    expect((await failure(`x = "s".length`)).message).toStartWith("Cannot read field 'length' of string");
    expect(await output(`o = {}\nprint(o.constructor, o.toString)`)).toEqual(["null null"]);
  });
});

describe("§7 a[i] indexing", () => {
  test("arrays by int, objects by string; out of range is null", async () => {
    expect(await output(`xs = [10, 20]\no = { k: "v" }\nprint(xs[0], xs[1], xs[2], xs[-1], o["k"], o["nope"])`)).toEqual([
      '10 20 null null v null',
    ]);
  });
  test("wrong index types are RUNTIME_ERROR", async () => {
    expect((await failure(`xs = [1]\nprint(xs["0"])`)).message).toStartWith("Cannot index array with string");
    expect((await failure(`o = {}\nprint(o[0])`)).message).toStartWith("Cannot index object with int");
    expect((await failure(`print([1][0.5])`)).code).toBe("RUNTIME_ERROR");
    expect((await failure(`x = null\nprint(x[0])`)).message).toStartWith("Cannot index null at test.luma:2:7");
  });
});

describe("§7 string interpolation {expr}", () => {
  test("strings verbatim, numbers/bools as JSON, null as null, objects/arrays compact JSON", async () => {
    const src = `s = "hi"\nn = 42\nf = 0.5\nb = false\nz = null\no = { a: 1, "b c": [true, null] }\nxs = [1, "two"]
print("{s}|{n}|{f}|{b}|{z}|{o}|{xs}|{n + 1}|\\{literal\\}")`;
    expect(await output(src)).toEqual(['hi|42|0.5|false|null|{"a":1,"b c":[true,null]}|[1,"two"]|43|{literal}']);
  });
  test("object literals keep '__proto__' as a plain field", async () => {
    expect(await output(`o = { "__proto__": 1 }\nprint(o, keys(o))`)).toEqual(['{"__proto__":1} ["__proto__"]']);
  });
});
