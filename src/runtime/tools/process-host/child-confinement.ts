/**
 * What a module's child does to itself under `sandbox: "process"` before it reads a line of
 * the module (child-entry.ts), on top of the bubblewrap sandbox it runs in:
 *
 * - resource limits: at most OPEN_FILES_LIMIT open files and CPU_SECONDS_LIMIT seconds of CPU
 *   time (past it the kernel kills the child; the next call gets a fresh one), as hard
 *   limits: with every capability dropped, nothing in the sandbox can raise them;
 * - the seccomp filter of seccomp-filter.ts, on every thread (TSYNC).
 *
 * Done here, through libc (`bun:ffi`), rather than by `prlimit` around bwrap: one program
 * less to start per child. Anything that fails stops the module from loading (E0513):
 * never a child without its limits or its filter.
 */
import type { Library, ptr as ffiPtr } from "bun:ffi";
import { startupError } from "../../../diagnostics/luma-error";
import { archTable, seccompProgram } from "./seccomp-filter";

export const OPEN_FILES_LIMIT = 256;
/** CPU seconds a child may use in its lifetime. */
export const CPU_SECONDS_LIMIT = 600;

// Linux's generic numbers, the same on x86-64 and arm64.
const RLIMIT_CPU = 0;
const RLIMIT_NOFILE = 7;
const PR_SET_NO_NEW_PRIVS = 38;
const SECCOMP_SET_MODE_FILTER = 1;
const SECCOMP_FILTER_FLAG_TSYNC = 1;

const cannot = (why: string) =>
  startupError(`tool_module_policy.sandbox "process": the child could not confine itself: ${why}. Luma does not run the module without it.`, { catalogCode: "E0513" });

const LIBC_SYMBOLS = {
  setrlimit: { args: ["i32", "ptr"], returns: "i32" },
  prctl: { args: ["i32", "u64", "u64", "u64", "u64"], returns: "i32" },
  syscall: { args: ["i64", "u64", "u64", "ptr"], returns: "i64" },
} as const;

/** libc's three functions the confinement calls, and the pointer helper; opened once. */
export type Libc = { library: Library<typeof LIBC_SYMBOLS>; ptr: typeof ffiPtr };

/** Opens libc (bun:ffi compiles its bindings: the costly part, done while the child waits). Throws E0513. */
export async function openLibc(): Promise<Libc> {
  const { dlopen, ptr } = await import("bun:ffi");
  try {
    return { library: dlopen("libc.so.6", LIBC_SYMBOLS), ptr };
  } catch (e) {
    throw cannot(`libc could not be opened (${(e as Error).message})`);
  }
}

/** Limits, then the filter; throws E0513 naming what failed. `libc`: opened ahead (child-entry.ts), else opened here. */
export async function confineChild(opts: { allowSpawn: boolean; libc?: Libc }): Promise<void> {
  const arch = archTable();
  if (!arch) throw cannot(`no system call table for the ${process.arch} architecture (x64 and arm64 have one)`);
  const { library: libc, ptr } = opts.libc ?? (await openLibc());
  try {
    for (const [resource, limit, name] of [[RLIMIT_NOFILE, OPEN_FILES_LIMIT, "RLIMIT_NOFILE"], [RLIMIT_CPU, CPU_SECONDS_LIMIT, "RLIMIT_CPU"]] as const) {
      // struct rlimit { rlim_t cur, max }: soft and hard alike.
      const value = new BigUint64Array([BigInt(limit), BigInt(limit)]);
      if (libc.symbols.setrlimit(resource, ptr(value)) !== 0) throw cannot(`setrlimit(${name}) failed`);
    }
    const filter = seccompProgram(arch, opts.allowSpawn);
    // struct sock_fprog { unsigned short len; struct sock_filter *filter; }: 16 bytes on 64-bit.
    const fprog = new Uint8Array(16);
    const view = new DataView(fprog.buffer);
    view.setUint16(0, filter.length / 8, true);
    view.setBigUint64(8, BigInt(ptr(filter)), true);
    if (libc.symbols.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) !== 0) throw cannot("prctl(PR_SET_NO_NEW_PRIVS) failed");
    const result = libc.symbols.syscall(arch.seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, ptr(fprog));
    if (Number(result) !== 0) throw cannot(`seccomp(SECCOMP_SET_MODE_FILTER) returned ${result}`);
  } finally {
    libc.close();
  }
}
