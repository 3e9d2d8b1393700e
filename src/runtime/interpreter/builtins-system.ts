/**
 * The builtins that reach outside the program's values (issue #28 §2): JSON text, the
 * environment, randomness and standard input.
 *
 * - `json_parse(s)`: the value a JSON text holds; a text that is not JSON is a
 *   RUNTIME_ERROR naming the line and column (from 1) inside it (json-text.ts).
 * - `env(name)`: an environment variable's value, or null when it is not set. The value is
 *   the program's: it is not written to traces or journals unless the program prints it.
 * - `random()`: a float in [0, 1). `random_int(a, b)`: an int from `a` to `b`, both
 *   included (`a > b` is an error). `uuid()`: a random (version 4) UUID. None of them is
 *   cryptographically promised; none is replayed by a journal.
 * - `read_line()`: the next line of stdin without its line ending, null at the end of
 *   input; `read_all()`: the rest of stdin ("" at its end). `luma test` gives each test an
 *   empty stdin.
 * - `sleep(ms)`: waits, at most MAX_SLEEP_MS; it suspends (the asynchronous evaluator runs
 *   it), and it looks every SLEEP_CHECK_MS whether the run was stopped (Ctrl-C, a test's
 *   deadline), ending there as a `while` does.
 */
import type { Span } from "../../syntax/ast";
import type { BuiltinTable } from "./builtins";
import { badValue, intArg, stringArg } from "./builtin-args";
import type { Runtime } from "./runtime-context";
import type { Value } from "./values";
import { readJson } from "./json-text";

export const MAX_SLEEP_MS = 24 * 3600 * 1000;
/** How often a sleep asks whether the run was stopped: soon enough for Ctrl-C to feel immediate. */
const SLEEP_CHECK_MS = 50;

async function sleepFor([ms]: Value[], rt: Runtime, span: Span): Promise<Value> {
  const total = intArg(rt, "sleep", ms, span, "a time in ms (an int)");
  if (total < 0 || total > MAX_SLEEP_MS) return badValue(rt, `sleep() takes 0 to ${MAX_SLEEP_MS} ms, got ${total}`, span);
  const until = Date.now() + total;
  for (let left = total; left > 0; left = until - Date.now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, SLEEP_CHECK_MS)));
    const reason = rt.host.stopped?.();
    if (reason !== undefined) throw reason;
  }
  return null;
}

export const SYSTEM_BUILTINS = {
  json_parse: {
    run([s], rt, span) {
      const read = readJson(stringArg(rt, "json_parse", s, span));
      if (read.ok) return read.value;
      return badValue(rt, `json_parse(): the text is not JSON: ${read.problem} at line ${read.line}, column ${read.column} of the text`, span);
    },
  },
  env: {
    run: ([name], rt, span) => rt.host.env?.(stringArg(rt, "env", name, span)) ?? null,
  },
  random: { run: () => Math.random() },
  random_int: {
    run([a, b], rt, span) {
      const low = intArg(rt, "random_int", a, span);
      const high = intArg(rt, "random_int", b, span);
      if (low > high) return badValue(rt, `random_int() needs a low bound no greater than the high one, got ${low} and ${high}`, span);
      return low + Math.floor(Math.random() * (high - low + 1));
    },
  },
  uuid: { run: () => crypto.randomUUID() },
  read_line: { run: (_args, rt) => rt.host.stdin?.readLine() ?? null },
  read_all: { run: (_args, rt) => rt.host.stdin?.readAll() ?? "" },
  sleep: {
    run: (_args, rt, span) => badValue(rt, "Internal error: sleep() reached the synchronous evaluator", span),
    wait: sleepFor,
  },
} satisfies BuiltinTable;
