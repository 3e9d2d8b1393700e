/**
 * Where a JSON text stops being valid JSON.
 *
 * `JSON.parse` in Bun says what is wrong but not where ("Property name must be a string
 * literal"), and a config error without a line:col sends the user hunting. This is a strict
 * RFC 8259 scanner that only runs after `JSON.parse` has already failed, to find the offset.
 */

export interface JsonSyntaxProblem {
  offset: number;
  reason: string;
}

class Stop {
  constructor(readonly offset: number, readonly reason: string) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ["true", "false", "null"] as const;

/** The first syntax problem in `text`, or undefined when it is valid JSON. */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  let i = 0;
  const fail = (reason: string, at = i): never => {
    throw new Stop(at, i >= text.length && at === i ? "unexpected end of input" : reason);
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const expect = (ch: string, reason: string) => {
    if (text[i] !== ch) fail(reason);
    i++;
  };

  const string = () => {
    const start = i;
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail("unterminated string", start);
      const ch = text[i];
      if (ch === '"') return void i++;
      if (ch < " ") fail("control character in string");
      if (ch === "\\") {
        const esc = text[i + 1];
        if (esc === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i += 2;
        else fail("invalid escape in string");
      } else i++;
    }
  };

  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === "{") return object();
    if (ch === "[") return array();
    if (ch === '"') return string();
    if (ch === "-" || (ch >= "0" && ch <= "9")) {
      NUMBER.lastIndex = i;
      if (!NUMBER.exec(text)) fail("invalid number");
      i = NUMBER.lastIndex;
      return;
    }
    const literal = LITERALS.find((word) => text.startsWith(word, i));
    if (literal) return void (i += literal.length);
    fail("expected a value");
  };

  const object = () => {
    i++;
    ws();
    if (text[i] === "}") return void i++;
    for (;;) {
      ws();
      if (text[i] === "}") fail("trailing comma before '}'");
      if (text[i] !== '"') fail("expected a property name in double quotes");
      string();
      ws();
      expect(":", "expected ':' after a property name");
      value();
      ws();
      if (text[i] === "}") return void i++;
      expect(",", "expected ',' or '}'");
    }
  };

  const array = () => {
    i++;
    ws();
    if (text[i] === "]") return void i++;
    for (;;) {
      ws();
      if (text[i] === "]") fail("trailing comma before ']'");
      value();
      ws();
      if (text[i] === "]") return void i++;
      expect(",", "expected ',' or ']'");
    }
  };

  try {
    value();
    ws();
    if (i < text.length) fail("unexpected text after the JSON value");
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return { offset: e.offset, reason: e.reason };
    throw e;
  }
}
