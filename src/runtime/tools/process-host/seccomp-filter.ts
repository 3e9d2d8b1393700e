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
 * - `ioctl(TIOCSTI)` and `ioctl(TIOCLINUX)`: no typing into the terminal its stderr may be
 *   (what bwrap's `--new-session` would prevent; setsid costs the child ~15 ms of start-up,
 *   the filter nothing — the kernel reads only the low 32 bits of the request, and so does
 *   the filter);
 * - on x86-64, every x32-ABI system call (numbers with bit 30 set), which would otherwise
 *   reach the same calls under other numbers.
 *
 * A call from another architecture's ABI kills the process. Why here and not bwrap's
 * `--seccomp FD`: bwrap installs that filter before its own final execve, so a filter that
 * refuses execve would stop bwrap from starting the child at all.
 *
 * The program is classic BPF, built from the table below (no libseccomp: no native
 * dependency); child-confinement.ts installs it.
 */

export interface ArchTable {
  /** AUDIT_ARCH_* as seccomp_data.arch reports it. */
  audit: number;
  seccomp: number;
  ioctl: number;
  /** Numbers refused always. */
  always: Record<string, number>;
  /** Numbers refused unless allow_spawn. */
  spawn: Record<string, number>;
  /** x86-64 only: the x32 ABI's bit. */
  x32Bit?: number;
}

/** System call numbers per architecture (Linux's unistd tables). */
const ARCHES: Record<string, ArchTable> = {
  x64: { audit: 0xc000003e, seccomp: 317, ioctl: 16, always: { ptrace: 101, process_vm_readv: 310, process_vm_writev: 311 }, spawn: { execve: 59, execveat: 322 }, x32Bit: 0x40000000 },
  arm64: { audit: 0xc00000b7, seccomp: 277, ioctl: 29, always: { ptrace: 117, process_vm_readv: 270, process_vm_writev: 271 }, spawn: { execve: 221, execveat: 281 } },
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
/** seccomp_data.args[1], its low 32 bits (little-endian: x86-64 and arm64 both are). */
const OFFSET_ARG1_LOW = 24;
/** The terminal requests that push input into a terminal (asm-generic/ioctls.h). */
const TERMINAL_INJECTION = { TIOCSTI: 0x5412, TIOCLINUX: 0x541c };

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The filter as `struct sock_filter[]` bytes; exported for the test that reads it back. */
export function seccompProgram(arch: ArchTable, allowSpawn: boolean): Uint8Array {
  const refused = [...Object.values(arch.always), ...(allowSpawn ? [] : Object.values(arch.spawn))];
  const injection = Object.values(TERMINAL_INJECTION);
  const x32 = arch.x32Bit === undefined ? 0 : 1;
  // Layout: load arch, check it, load nr, [x32 bit], one JEQ per refused call, the ioctl
  // check (load its request, one JEQ per refused request), then the three returns.
  const ioctlAt = 3 + x32 + refused.length;
  const allowAt = ioctlAt + 2 + injection.length;
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
  program.push([JEQ_K, 0, to(allowAt, program.length), arch.ioctl], [LD_W_ABS, 0, 0, OFFSET_ARG1_LOW]);
  for (const request of injection) program.push([JEQ_K, to(errnoAt, program.length), 0, request]);
  program.push([RET_K, 0, 0, RET_ALLOW], [RET_K, 0, 0, RET_ERRNO_EPERM], [RET_K, 0, 0, RET_KILL_PROCESS]);
  if (program.length !== killAt + 1) throw new Error("internal: the seccomp program's layout is off");
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
