/**
 * The seccomp filter of a module's child under `sandbox: "process"` (docs/security.md "The
 * process tier"): installed by the child on itself, on every thread (TSYNC), after the
 * runtime started and before it reads a line of the module — so it cannot be removed or
 * widened by the module (a filter can only be added to, and bwrap already set
 * PR_SET_NO_NEW_PRIVS). It refuses with EPERM:
 *
 * - `ptrace` and `process_vm_readv`/`process_vm_writev`: no reading or steering another
 *   process's memory, even inside the sandbox's own pid namespace;
 * - `execve` and `execveat` unless `allow_spawn: true`: without it no program starts, not
 *   even the `luma` binary (the one executable the child's view holds);
 * - on x86-64, every x32-ABI system call (numbers with bit 30 set), which would otherwise
 *   reach the same calls under other numbers.
 *
 * A call from another architecture's ABI kills the process. Why here and not bwrap's
 * `--seccomp FD`: bwrap installs that filter before its own final execve, so a filter that
 * refuses execve would stop bwrap from starting the child at all.
 *
 * The program is classic BPF, built from the table below (no libseccomp: no native
 * dependency); libc's `syscall` is reached through `bun:ffi`.
 */
import { startupError } from "../../../diagnostics/luma-error";

interface ArchTable {
  /** AUDIT_ARCH_* as seccomp_data.arch reports it. */
  audit: number;
  seccomp: number;
  /** Numbers refused always. */
  always: Record<string, number>;
  /** Numbers refused unless allow_spawn. */
  spawn: Record<string, number>;
  /** x86-64 only: the x32 ABI's bit. */
  x32Bit?: number;
}

/** System call numbers per architecture (Linux's unistd tables). */
const ARCHES: Record<string, ArchTable> = {
  x64: { audit: 0xc000003e, seccomp: 317, always: { ptrace: 101, process_vm_readv: 310, process_vm_writev: 311 }, spawn: { execve: 59, execveat: 322 }, x32Bit: 0x40000000 },
  arm64: { audit: 0xc00000b7, seccomp: 277, always: { ptrace: 117, process_vm_readv: 270, process_vm_writev: 271 }, spawn: { execve: 221, execveat: 281 } },
};

// Classic BPF opcodes and seccomp's return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO_EPERM = 0x00050000 | 1;
const RET_KILL_PROCESS = 0x80000000;
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const SECCOMP_SET_MODE_FILTER = 1;
const SECCOMP_FILTER_FLAG_TSYNC = 1;
const PR_SET_NO_NEW_PRIVS = 38;

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The filter as `struct sock_filter[]` bytes; exported for the test that reads it back. */
export function seccompProgram(arch: ArchTable, allowSpawn: boolean): Uint8Array {
  const refused = [...Object.values(arch.always), ...(allowSpawn ? [] : Object.values(arch.spawn))];
  const x32 = arch.x32Bit === undefined ? 0 : 1;
  // Layout: load arch, check it, load nr, [x32 bit], one JEQ per refused call, then the three returns.
  const allowAt = 3 + x32 + refused.length;
  const errnoAt = allowAt + 1;
  const killAt = errnoAt + 1;
  const to = (target: number, pc: number) => target - pc - 1; // jumps are relative to the next instruction
  const program: Instruction[] = [
    [LD_W_ABS, 0, 0, OFFSET_ARCH],
    [JEQ_K, 0, to(killAt, 1), arch.audit],
    [LD_W_ABS, 0, 0, OFFSET_NR],
  ];
  if (arch.x32Bit !== undefined) program.push([JSET_K, to(errnoAt, program.length), 0, arch.x32Bit]);
  for (const nr of refused) program.push([JEQ_K, to(errnoAt, program.length), 0, nr]);
  program.push([RET_K, 0, 0, RET_ALLOW], [RET_K, 0, 0, RET_ERRNO_EPERM], [RET_K, 0, 0, RET_KILL_PROCESS]);
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach(([code, jt, jf, k], i) => {
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k >>> 0, true);
  });
  return bytes;
}

export const archTable = (arch: string = process.arch): ArchTable | undefined => ARCHES[arch];

const cannot = (why: string) =>
  startupError(`tool_module_policy.sandbox "process": the child's seccomp filter could not be installed: ${why}. Luma does not run the module without it.`, { catalogCode: "E0513" });

/** Installs the filter on this process (every thread); throws E0513 when it cannot. */
export async function installSeccompFilter(allowSpawn: boolean): Promise<void> {
  const arch = archTable();
  if (!arch) throw cannot(`no system call table for the ${process.arch} architecture`);
  const { dlopen, FFIType, ptr } = await import("bun:ffi");
  let libc;
  try {
    libc = dlopen("libc.so.6", {
      prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
      syscall: { args: [FFIType.i64, FFIType.u64, FFIType.u64, FFIType.ptr], returns: FFIType.i64 },
    });
  } catch (e) {
    throw cannot(`libc could not be opened (${(e as Error).message})`);
  }
  try {
    const filter = seccompProgram(arch, allowSpawn);
    // struct sock_fprog { unsigned short len; struct sock_filter *filter; }: 16 bytes on 64-bit.
    const fprog = new Uint8Array(16);
    const view = new DataView(fprog.buffer);
    view.setUint16(0, filter.length / 8, true);
    view.setBigUint64(8, BigInt(ptr(filter)), true);
    if (libc.symbols.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) !== 0) throw cannot("prctl(PR_SET_NO_NEW_PRIVS) failed");
    const result = libc.symbols.syscall(arch.seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, ptr(fprog));
    if (result !== 0n) throw cannot(`seccomp(SECCOMP_SET_MODE_FILTER) returned ${result}`);
  } finally {
    libc.close();
  }
}
