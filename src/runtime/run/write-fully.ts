/**
 * Writes all of a text to a file descriptor, synchronously, whatever the descriptor is.
 *
 * Bun makes inherited pipes and terminals non-blocking, so a plain `writeSync` to a full
 * pipe either writes part of the text (and the rest is silently lost) or fails with
 * EAGAIN. Writing synchronously is still the right model for a program's output: it keeps
 * stdout and stderr in the order written, applies back-pressure (a slow reader slows the
 * program instead of filling memory), and leaves nothing buffered when the CLI calls
 * `process.exit`. So the loop below writes what the kernel takes, and when the pipe is full
 * it sleeps briefly (growing to a few milliseconds) until the reader drains it.
 *
 * A failure that writing cannot fix ends the run (`RunEndingError`): EPIPE — the reader went
 * away (`| head -1`) — ends it quietly with 141, the status a shell shows for a process
 * killed by SIGPIPE; anything else (ENOSPC on a full disk, EIO, EBADF for a closed
 * descriptor) is an error naming the stream, exit 1. A descriptor that failed stays failed:
 * later writes fail the same way, so nothing that swallowed the first error can go on
 * writing into the void.
 */
import { writeSync } from "node:fs";
import { RunEndingError } from "../base/run-ending-error";

/** 128 + SIGPIPE: what a shell reports for a writer whose reader closed the pipe. */
export const EXIT_BROKEN_PIPE = 141;

const MAX_WAIT_MS = 8;

export interface FdWriter {
  (text: string): void;
  /** The error that broke this descriptor, once one did. */
  readonly failure: RunEndingError | undefined;
}

const describe = (code: string | undefined): string =>
  code === "ENOSPC" ? "no space left on device (ENOSPC)" : code === "EBADF" ? "the descriptor is closed (EBADF)" : code === "EIO" ? "input/output error (EIO)" : code ?? "unknown error";

/** `label` names the stream in errors: "stdout", "stderr", "the trace file out.jsonl". */
export function fdWriter(fd: number, label: string): FdWriter {
  let failure: RunEndingError | undefined;
  const fail = (e: NodeJS.ErrnoException): never => {
    failure = e.code === "EPIPE"
      ? new RunEndingError({ code: "RUNTIME_ERROR", message: `${label} was closed by its reader` }, EXIT_BROKEN_PIPE, true)
      : new RunEndingError({ code: "RUNTIME_ERROR", message: `cannot write to ${label}: ${describe(e.code)}` }, 1);
    throw failure;
  };
  const write = (text: string): void => {
    if (failure !== undefined) throw failure;
    // The whole text in one call first, as a string: no copy into a Buffer, whose first use
    // alone costs a process ~0.25 ms — on `stream ask`'s first byte (`bun run bench`).
    let off = 0;
    try {
      off = writeSync(fd, text);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "EAGAIN" && code !== "EINTR") fail(e as NodeJS.ErrnoException);
    }
    if (off === Buffer.byteLength(text)) return;
    // Part of it (a full pipe): the rest, byte by byte from where the kernel stopped.
    const bytes = Buffer.from(text);
    let wait = 0;
    while (off < bytes.length) {
      let n: number;
      try {
        n = writeSync(fd, bytes, off, bytes.length - off);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "EINTR") continue;
        if (code !== "EAGAIN") fail(e as NodeJS.ErrnoException);
        n = 0;
      }
      if (n > 0) {
        off += n;
        wait = 0;
      } else {
        // Full: let the reader drain it (a 1 MB line to a slow reader waits here, in order).
        wait = wait === 0 ? 1 : Math.min(wait * 2, MAX_WAIT_MS);
        Bun.sleepSync(wait);
      }
    }
  };
  return Object.defineProperty(write, "failure", { get: () => failure }) as FdWriter;
}
