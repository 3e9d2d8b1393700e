/**
 * The seccomp program of `sandbox: "process"` (src/runtime/tools/process-host/seccomp-filter.ts)
 * run by a small classic-BPF interpreter over made-up system calls, for every architecture it
 * has a table for — arm64 included, which these machines cannot run (process-seccomp.test.ts
 * checks the installed filter through dist/luma on this one).
 */
import { describe, expect, test } from "bun:test";
import { archTable, seccompProgram } from "../../src/runtime/tools/process-host/seccomp-filter";

type Verdict = "allow" | "EPERM" | "kill";

/** Runs the program over seccomp_data { nr, arch, ip, args[6] } (little-endian), as the kernel does. */
function run(program: Uint8Array, call: { arch: number; nr: number; arg1?: number }): Verdict {
  const data = new DataView(new ArrayBuffer(64));
  data.setUint32(0, call.nr, true);
  data.setUint32(4, call.arch, true);
  data.setBigUint64(24, BigInt(call.arg1 ?? 0), true);
  const code = new DataView(program.buffer, program.byteOffset, program.byteLength);
  let acc = 0;
  for (let pc = 0; pc < program.length / 8; pc++) {
    const [op, jt, jf, k] = [code.getUint16(pc * 8, true), code.getUint8(pc * 8 + 2), code.getUint8(pc * 8 + 3), code.getUint32(pc * 8 + 4, true)];
    if (op === 0x20) acc = data.getUint32(k, true);
    else if (op === 0x15) pc += acc === k ? jt : jf;
    else if (op === 0x45) pc += (acc & k) !== 0 ? jt : jf;
    else if (op === 0x06) return k === 0x7fff0000 ? "allow" : k === 0x00050001 ? "EPERM" : k === 0x80000000 ? "kill" : (`ret ${k}` as Verdict);
    else throw new Error(`unknown opcode ${op} at ${pc}`);
  }
  throw new Error("the program fell off its end");
}

const NUMBERS = {
  x64: { read: 0, ptrace: 101, process_vm_writev: 311, execve: 59, execveat: 322, ioctl: 16 },
  arm64: { read: 63, ptrace: 117, process_vm_writev: 271, execve: 221, execveat: 281, ioctl: 29 },
};

describe("issue #30: the child's seccomp program", () => {
  for (const [name, nr] of Object.entries(NUMBERS)) {
    const arch = archTable(name)!;
    const deny = seccompProgram(arch, false);
    const spawn = seccompProgram(arch, true);
    test(`${name}: ordinary calls pass; ptrace and process_vm_* are refused; execve only with allow_spawn`, () => {
      expect(run(deny, { arch: arch.audit, nr: nr.read })).toBe("allow");
      expect(run(deny, { arch: arch.audit, nr: nr.ptrace })).toBe("EPERM");
      expect(run(spawn, { arch: arch.audit, nr: nr.ptrace })).toBe("EPERM");
      expect(run(deny, { arch: arch.audit, nr: nr.process_vm_writev })).toBe("EPERM");
      for (const call of [nr.execve, nr.execveat]) {
        expect(run(deny, { arch: arch.audit, nr: call })).toBe("EPERM");
        expect(run(spawn, { arch: arch.audit, nr: call })).toBe("allow");
      }
    });

    test(`${name}: ioctl TIOCSTI / TIOCLINUX refused (low 32 bits, as the kernel reads them); other ioctls pass`, () => {
      expect(run(deny, { arch: arch.audit, nr: nr.ioctl, arg1: 0x5412 })).toBe("EPERM");
      expect(run(deny, { arch: arch.audit, nr: nr.ioctl, arg1: 0x541c })).toBe("EPERM");
      expect(run(deny, { arch: arch.audit, nr: nr.ioctl, arg1: 0x1_0000_5412 })).toBe("EPERM");
      expect(run(deny, { arch: arch.audit, nr: nr.ioctl, arg1: 0x5401 /* TCGETS */ })).toBe("allow");
    });

    test(`${name}: a call of another architecture's ABI kills the process`, () => {
      expect(run(deny, { arch: 0x40000003 /* i386 */, nr: nr.read })).toBe("kill");
    });
  }

  test("x64: every x32-ABI call is refused (bit 30 of the number)", () => {
    const arch = archTable("x64")!;
    expect(run(seccompProgram(arch, true), { arch: arch.audit, nr: 0x40000000 + 520 /* x32 execve */ })).toBe("EPERM");
  });
});
