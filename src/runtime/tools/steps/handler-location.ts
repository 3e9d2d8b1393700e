/**
 * Where a handler crashed, read from the thrown error's stack (issue #12.6): the first frame
 * in a file on disk — the handler module itself, or a package it called — as a path relative
 * to the working directory, `tools.ts:6:15`. Frames of the luma binary (`/$bunfs/…`), of
 * Bun's built-ins (`node:…`, `native`) and anonymous ones are skipped: they say nothing a
 * tool author can open. TypeScript modules keep their own lines because Bun's loader
 * transpiles them with a source map (module-loading/prepare-source.ts); CommonJS frames are
 * moved back by the line the VM wrapper adds (module-loading/commonjs-wrapper.ts).
 *
 * `handlerStack` is the same stack with the binary's frames left out, for LUMA_DEBUG=1.
 */
import { isAbsolute, relative } from "node:path";
import { compiledLineShiftOf } from "../../module-loading/commonjs-wrapper";

/** `at fn (file:line:col)` or `at file:line:col`: the location part of one V8/JSC frame line. */
const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?\s*$/;

const isBinaryFrame = (file: string): boolean => file.startsWith("/$bunfs/") || file.startsWith("B:/~BUN/");

/** A frame's file, line and column when it names a file on disk outside the binary. */
function diskFrame(line: string): { file: string; line: string; col: string } | undefined {
  const m = FRAME.exec(line);
  if (!m) return undefined;
  const file = m[1].replace(/^file:\/\//, "");
  if (!isAbsolute(file) || isBinaryFrame(file)) return undefined;
  return { file, line: String(Number(m[2]) - compiledLineShiftOf(file)), col: m[3] };
}

/**
 * The thrown error's stack — an Error of any realm: a module under the strict policy runs in
 * a VM context of its own, whose `Error` is not this one (`instanceof Error` is false there).
 */
const stackOf = (thrown: unknown): string | undefined => {
  if (thrown === null || typeof thrown !== "object") return undefined;
  const stack = (thrown as { stack?: unknown }).stack;
  return typeof stack === "string" ? stack : undefined;
};

/** `tools.ts:6:15` for the handler's innermost frame on disk, or undefined (a non-Error, no such frame). */
export function handlerSite(thrown: unknown, cwd: string = process.cwd()): string | undefined {
  const stack = stackOf(thrown);
  if (stack === undefined) return undefined;
  for (const line of stack.split("\n")) {
    const frame = diskFrame(line);
    if (!frame) continue;
    const shown = relative(cwd, frame.file);
    return `${shown.startsWith("..") ? frame.file : shown}:${frame.line}:${frame.col}`;
  }
  return undefined;
}

/** The thrown error's stack without the binary's own frames (what LUMA_DEBUG=1 prints). */
export function handlerStack(thrown: unknown): string | undefined {
  const stack = stackOf(thrown);
  if (stack === undefined) return undefined;
  return stack
    .split("\n")
    .filter((line) => !(FRAME.test(line) && /\/\$bunfs\/|B:\/~BUN\//.test(line)))
    .map((line) => {
      const frame = diskFrame(line);
      return frame ? line.replace(/:\d+:(\d+)(\)?)\s*$/, `:${frame.line}:$1$2`) : line;
    })
    .join("\n");
}
