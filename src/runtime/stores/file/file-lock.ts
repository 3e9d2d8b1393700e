/**
 * The file store's exclusive lock: `flock(2)` on `<store>.lock`, taken through Bun's FFI.
 *
 * Why flock rather than a create-exclusive pid file: the kernel releases a flock the moment
 * its owner dies, however it dies (kill -9 included), so a lock left by a dead process is
 * taken over at once, and two processes can never both decide that a stale pid file is
 * theirs to break (the race every pid-file scheme has). A live owner's lock is never taken
 * over: callers wait for it, up to `waitMs`, then get an error naming its pid (read from
 * /proc/locks on Linux; writing the pid into the file on every acquisition cost a syscall
 * per operation).
 *
 * The lock file is never deleted (a new inode would let two processes each lock their
 * own). Critical sections are short and synchronous (read, write, fsync, rename), so the
 * wait is synchronous too: a non-blocking try, then a short sleep, in a loop.
 */
import { closeSync, fstatSync, readFileSync } from "node:fs";
import { runtimeError } from "../../../diagnostics/luma-error";
import { crashPoint } from "../../base/crash-points";
import { openOwnFile } from "./open-own-file";

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;

type Flock = (fd: number, op: number) => number;

/** Where the C library lives: glibc, musl, macOS. */
const LIBC_CANDIDATES = ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so", "/usr/lib/libSystem.B.dylib"];

let flock: Flock | undefined;
const loadFlock = (): Flock => {
  if (flock !== undefined) return flock;
  // Required here, not imported: a static import would load FFI with every `luma` start.
  const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
  for (const name of LIBC_CANDIDATES) {
    try {
      const lib = dlopen(name, { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
      return (flock = lib.symbols.flock as Flock);
    } catch {
      // try the next name
    }
  }
  throw runtimeError("RUNTIME_ERROR", "The file idempotency store needs flock(2) from the C library, which could not be loaded.");
};

const sleepSync = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

export class FileLock {
  private readonly fd: number;
  private readonly flock: Flock;
  private held = false;
  private closed = false;

  constructor(
    readonly path: string,
    private readonly waitMs = 10_000,
  ) {
    this.flock = loadFlock();
    this.fd = openOwnFile(path); // never through a planted symlink (open-own-file.ts)
  }

  /** Runs `work` holding the lock; waits for a live holder, never breaks its lock. */
  with<T>(work: () => T): T {
    if (this.held) return work(); // re-entrant within one synchronous section
    this.acquire();
    try {
      return work();
    } finally {
      this.release();
    }
  }

  private acquire(): void {
    // flock on a closed descriptor fails (EBADF) and would read as "busy": the loop would
    // then block the thread for the whole wait — or lock whatever file reused the number.
    if (this.closed) throw runtimeError("RUNTIME_ERROR", `The idempotency store lock ${this.path} was used after the store was closed.`);
    let pause = 0.2;
    const deadline = performance.now() + this.waitMs;
    while (this.flock(this.fd, LOCK_EX | LOCK_NB) !== 0) {
      if (performance.now() > deadline) {
        throw runtimeError(
          "RUNTIME_ERROR",
          `The idempotency store lock ${this.path} is held by process ${this.holder() ?? "(unknown)"}; gave up after ${this.waitMs} ms.`,
          { retryable: true },
        );
      }
      sleepSync(pause);
      pause = Math.min(pause * 2, 5);
    }
    this.held = true;
    crashPoint("after-lock");
  }

  private release(): void {
    this.held = false;
    this.flock(this.fd, LOCK_UN);
  }

  /** The holder's pid, from the kernel's lock table (Linux); undefined where it cannot be read. */
  holder(): number | undefined {
    try {
      const ino = fstatSync(this.fd).ino;
      for (const line of readFileSync("/proc/locks", "utf8").split("\n")) {
        // "1: FLOCK  ADVISORY  WRITE 13460 fe:00:2146321 0 EOF"
        const f = line.trim().split(/\s+/);
        if (f[1] === "FLOCK" && Number(f[5]?.split(":")[2]) === ino) return Number(f[4]);
      }
    } catch {
      // not Linux, or /proc not mounted
    }
    return undefined;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
