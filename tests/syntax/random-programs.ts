/**
 * Random Luma programs from a small generator of the grammar's shapes — expressions of
 * every operator and postfix step, strings with interpolation and escapes, statements,
 * declarations, tests — with random blanks, newlines and comments between tokens, so the
 * newline rule, spans and contextual words are exercised. Most are valid; some are not
 * (a newline where the grammar forbids one), which is as useful to the differential test.
 */

export function randomProgram(rnd: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const gap = (): string => pick([" ", " ", " ", "", "\n", "  ", "\t", " /* c */ ", " // c\n", "\r\n"]);
  const name = (): string => pick(["a", "b", "x1", "order", "format", "test", "replay", "mock", "assert", "notx", "_y", "ifs"]);
  const type = (): string =>
    pick(["int", "string", "float", "bool", "any", "T", "Order", 'enum["a", "b"]']) + pick(["", "", "[]", " []", "[][]"]);

  function str(depth: number): string {
    const parts = ["", "text", "\\n", "\\{", "\\\"", "😀", " { "];
    let s = '"';
    for (let k = Math.floor(rnd() * 4); k > 0; k--) s += depth > 0 && rnd() < 0.3 ? `{${gap()}${expr(depth - 1)}${gap()}}` : pick(parts);
    return `${s.replace(/ \{ /g, " ")}"`;
  }

  function primary(depth: number): string {
    const r = rnd();
    if (depth <= 0 || r < 0.3) return pick([name(), "1", "-2", "3.5", "1e3", "true", "false", "null", '""']);
    if (r < 0.4) return str(depth);
    if (r < 0.5) return `(${gap()}${expr(depth - 1)}${gap()})`;
    if (r < 0.6) return `[${gap()}${list(depth)}]`;
    if (r < 0.7) return `{${gap()}${name()}:${gap()}${expr(depth - 1)}${pick(["", ",", `, "k": ${expr(depth - 1)}`])}${gap()}}`;
    if (r < 0.77) return `tool ${name()}(${expr(depth - 1)})`;
    if (r < 0.84) return `ask ${expr(depth - 1)} -> ${type()}${pick(["", " using tool t"])}`;
    if (r < 0.9) return `${pick(["query", "command"])} q(${expr(depth - 1)})`;
    return name();
  }

  function list(depth: number): string {
    if (depth <= 0) return "";
    const items: string[] = [];
    for (let k = Math.floor(rnd() * 3); k > 0; k--) items.push(expr(depth - 1));
    return items.join(`,${gap()}`) + (items.length > 0 && rnd() < 0.3 ? "," : "");
  }

  function postfix(depth: number): string {
    let e = primary(depth);
    for (let k = depth > 0 ? Math.floor(rnd() * 3) : 0; k > 0; k--) {
      e += pick([`(${list(depth)})`, `[${expr(depth - 1)}]`, `.${name()}`, `${gap()}.${gap()}${name()}`, ` (${list(depth)})`]);
    }
    return e;
  }

  function expr(depth: number): string {
    let e = pick(["", "", "", "-", "not ", "- ", "not not "]) + postfix(depth);
    for (let k = Math.floor(rnd() * 3); k > 0; k--) {
      e += `${gap()}${pick(["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or"])}${gap()}${pick(["", "-", "not "])}${postfix(depth)}`;
    }
    return e;
  }

  function block(depth: number): string {
    const body: string[] = [];
    for (let k = Math.floor(rnd() * 3); k > 0; k--) body.push(stmt(depth - 1));
    return `{${gap()}${body.join(pick(["\n", "; ", "\n\n"]))}${gap()}}`;
  }

  function stmt(depth: number): string {
    const r = rnd();
    const d = Math.max(depth, 0);
    if (r < 0.2) return `${name()}${gap()}=${gap()}${expr(d)}`;
    if (r < 0.27) return `${name()}: ${type()} = ${expr(d)}`;
    if (r < 0.34) return `${name()}${pick([".a", "[0]", ".b[c]", " [1].x"])} = ${expr(d)}`;
    if (depth > 0 && r < 0.44) return `if ${expr(d)} ${block(depth)}${pick(["", ` else ${block(depth)}`, ` else if ${expr(d)} ${block(depth)}`])}`;
    if (depth > 0 && r < 0.5) return `for ${name()} in ${expr(d)} ${block(depth)}`;
    if (depth > 0 && r < 0.55) return `while ${expr(d)} ${block(depth)}`;
    if (depth > 0 && r < 0.6) return `try ${block(depth)} catch e ${block(depth)}`;
    if (r < 0.66) return pick(["return", `return ${expr(d)}`, "return\n", "break", "continue"]);
    if (r < 0.72) return `assert${pick([" ", "\n"])}${expr(d)}${pick(["", `, ${str(1)}`])}`;
    return expr(d);
  }

  const field = (): string => `${name()}${pick(["", "?"])}: ${type()}${pick(["", ' @desc("d")', " @range(0, 10)", " @default([1, {a: null}])"])}`;
  const entries = (): string => pick(['provider: "openai"', "retries: 2, cache: true", "a: { b: [1, x.y, \"s\"] }", "", "k: -1.5; m: null"]);
  function decl(): string {
    const r = rnd();
    if (r < 0.15) return `schema ${pick(["S", "Order"])} {${gap()}${field()}${pick(["", `, ${field()}`, `\n${field()}`])}${gap()}}`;
    if (r < 0.2) return "schema D = A | B tagged by kind";
    if (r < 0.3) return `tool t(${field()}${pick(["", ","])}) -> ${type()} {${gap()}${pick(["", "needs db: Database", entries()])}${gap()}}`;
    if (r < 0.38) return `model M { ${entries()} }`;
    if (r < 0.48) return `agent A {${gap()}${entries()}\nfn run(${field()}) -> ${type()} ${block(2)}${gap()}}`;
    if (r < 0.6) return `fn f(${pick(["", field()])})${pick(["", ` -> ${type()}`])} ${block(3)}`;
    if (r < 0.65) return `query q(${field()}) -> ${type()} { source: W, sql: "select" }`;
    if (r < 0.75) return `test ${str(0)} {${gap()}${pick(["", 'replay "c.jsonl"', "mock M [{ text: \"hi\" }]"])}\n${stmt(2)}${gap()}}`;
    if (r < 0.78) return 'replay "c.jsonl"';
    return stmt(3);
  }

  const items: string[] = [];
  for (let k = 1 + Math.floor(rnd() * 5); k > 0; k--) items.push(decl());
  return pick(["", "\uFEFF", "#!/usr/bin/env luma\n", "// c\n"]) + items.join(pick(["\n", "\n\n", "; "])) + pick(["", "\n", " // end"]);
}
