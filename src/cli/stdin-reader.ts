/**
 * The process's standard input as the `read_line` / `read_all` builtins read it
 * (runtime/interpreter/builtins-system.ts): read synchronously from file descriptor 0, in
 * chunks, only when a program asks — a program that never reads stdin never touches it, so
 * `luma FILE` at a terminal does not wait for input nobody wants. Lines end at "\n"; a "\r"
 * before it is dropped. End of input (or an unreadable stdin) is an empty rest.
 */
import { readSync } from "node:fs";
import type { StdinSource } from "../runtime/interpreter/runtime-context";

const CHUNK = 64 * 1024;

export function processStdin(): StdinSource {
  let buffered = "";
  let ended = false;
  const decoder = new TextDecoder();
  const chunk = Buffer.alloc(CHUNK);

  /** One more chunk into `buffered`; false at the end of input. */
  function fill(): boolean {
    if (ended) return false;
    let n = 0;
    try {
      n = readSync(0, chunk, 0, CHUNK, null);
    } catch (e) {
      // A non-blocking stdin with nothing yet: wait a moment and read again.
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") {
        Bun.sleepSync(5);
        return true;
      }
      n = 0;
    }
    if (n === 0) {
      ended = true;
      buffered += decoder.decode();
      return false;
    }
    buffered += decoder.decode(chunk.subarray(0, n), { stream: true });
    return true;
  }

  return {
    readLine() {
      let newline = buffered.indexOf("\n");
      while (newline < 0 && fill()) newline = buffered.indexOf("\n");
      if (newline < 0) {
        if (buffered === "") return null;
        const last = buffered;
        buffered = "";
        return last;
      }
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      return line.endsWith("\r") ? line.slice(0, -1) : line;
    },
    readAll() {
      while (fill());
      const rest = buffered;
      buffered = "";
      return rest;
    },
  };
}
