/**
 * Issue #30: the limits and seccomp filter a module's child sets on itself under `"process"`
 * (src/runtime/tools/process-host/child-confinement.ts, seccomp-filter.ts), through
 * dist/luma. The probes ask the kernel directly (libc's `syscall` through `bun:ffi`, allowed
 * to the module): a call the filter refuses fails with EPERM before the kernel looks at its
 * arguments, so arguments the kernel would refuse otherwise tell the two apart — a pid that
 * does not exist (ESRCH), a stderr that is no terminal (ENOTTY) under `"strict"` (the
 * control: no filter), EPERM under `"process"`.
 */
import { describe, expect } from "bun:test";
import { runLuma } from "../support/luma-binary";
import { GAP, it, projectDir } from "./process-project";

const APP = `schema Out { r: string }
tool probe(x: string) -> Out { timeout: 5000 }
try {
  print(tool probe({ x: "a" }).r)
} catch e {
  print(e.code, e.message)
}
`;

const run = (handler: string, policy: object) => {
  const dir = projectDir("luma-process-seccomp-", {
    "tools.cjs": `${GAP}module.exports = { probe: ${handler} };\n`,
    "app.luma": APP,
    "luma.config.json": JSON.stringify({ tool_modules: ["./tools.cjs"], tool_module_policy: policy }),
  });
  return runLuma(["app.luma"], { cwd: dir });
};

/** A raw system call from libc's `syscall`; returns "<result> errno <errno>". */
const SYSCALL = `(i) => {
  const { dlopen, FFIType, read, ptr } = require("bun:ffi");
  const I = FFIType.i64;
  const libc = dlopen("libc.so.6", { syscall: { args: [I, I, I, I, I, I, I], returns: I }, __errno_location: { args: [], returns: FFIType.ptr } });
  const nr = { ptrace: { x64: 101, arm64: 117 }, process_vm_readv: { x64: 310, arm64: 270 }, TIOCSTI: { x64: 16, arm64: 29 }, "TIOCSTI, high bits set": { x64: 16, arm64: 29 } }[i.x][P(i).arch];
  // One valid iovec each side, so the kernel gets as far as looking the pid up.
  const local = new BigUint64Array(1);
  const iov = new BigUint64Array([BigInt(ptr(local)), 8n]);
  const result = i.x === "ptrace"
    ? libc.symbols.syscall(nr, 16, 999999, 0, 0, 0, 0) // PTRACE_ATTACH pid 999999, which does not exist
    : i.x === "process_vm_readv"
      ? libc.symbols.syscall(nr, 999999, ptr(iov), 1, ptr(iov), 1, 0)
      // ioctl(2, TIOCSTI, "x"): push a byte into stderr's terminal; the kernel reads the request's low 32 bits only.
      : libc.symbols.syscall(nr, 2, i.x === "TIOCSTI" ? 0x5412 : 0x100005412, ptr(new Uint8Array([120])), 0, 0, 0);
  return { r: String(result) + " errno " + read.i32(libc.symbols.__errno_location(), 0) };
}`;
const FFI = { allow_builtins: ["bun:ffi"] };
const ESRCH = 3;
const EPERM = 1;
const ENOTTY = 25;

const probeApp = (call: string) => APP.replace('{ x: "a" }', `{ x: "${call}" }`);

describe("issue #30: the child's seccomp filter", () => {
  const CALLS = [
    { call: "ptrace", strict: ESRCH, why: "the kernel looks the pid up" },
    { call: "process_vm_readv", strict: ESRCH, why: "the kernel looks the pid up" },
    { call: "TIOCSTI", strict: ENOTTY, why: "stderr is a pipe here, no terminal" },
    { call: "TIOCSTI, high bits set", strict: ENOTTY, why: "the kernel truncates the request to 32 bits" },
  ];
  for (const { call, strict, why } of CALLS) {
    it(`${call} is refused (EPERM) under process; under strict it reaches the kernel (${why})`, () => {
      const runCall = (policy: object) => {
        const dir = projectDir("luma-process-seccomp-", {
          "tools.cjs": `${GAP}module.exports = { probe: ${SYSCALL} };\n`,
          "app.luma": probeApp(call),
          "luma.config.json": JSON.stringify({ tool_modules: ["./tools.cjs"], tool_module_policy: policy }),
        });
        return runLuma(["app.luma"], { cwd: dir });
      };
      expect(runCall({ sandbox: "strict", ...FFI }).stdout).toBe(`-1 errno ${strict}\n`);
      expect(runCall({ sandbox: "process", ...FFI }).stdout).toBe(`-1 errno ${EPERM}\n`);
    });
  }

  const spawnSelf = `(i) => { try { const s = B(i).spawnSync([P(i).execPath, "--version"], { env: {} }); return { r: "ran, exit " + s.exitCode }; } catch (e) { return { r: "denied " + e.code }; } }`;
  it("execve is refused without allow_spawn — even of the luma binary, the one executable in the child's view", () => {
    expect(run(spawnSelf, { sandbox: "strict" }).stdout).toBe("ran, exit 0\n");
    expect(run(spawnSelf, { sandbox: "process" }).stdout).toBe("denied EPERM\n");
  });

  it("open files are bounded (256) in the child; the same module under strict opens 300", () => {
    const openMany = `(i) => { const fs = require("fs"); const fds = []; try { for (let n = 0; n < 300; n++) fds.push(fs.openSync("/dev/null", "r")); return { r: "opened " + fds.length }; } catch (e) { return { r: e.code + " after " + (fds.length < 256 ? "fewer than 256" : fds.length) }; } finally { for (const fd of fds) fs.closeSync(fd); } }`;
    expect(run(openMany, { sandbox: "strict", allow_builtins: ["fs"] }).stdout).toBe("opened 300\n");
    expect(run(openMany, { sandbox: "process", allow_builtins: ["fs"] }).stdout).toBe("EMFILE after fewer than 256\n");
  });

  it("with allow_spawn: true execve goes through (and what it starts runs inside the same sandbox)", () => {
    expect(run(spawnSelf, { sandbox: "process", allow_spawn: true }).stdout).toBe("ran, exit 0\n");
  });
});
