/**
 * One tool module's child process under `sandbox: "process"`, seen from `luma`: started
 * (sandbox-command.ts), asked to load the module, then kept warm and sent one framed
 * message per call (frames.ts, wire.ts). Calls are multiplexed by id, so `max_concurrency`
 * calls can be in the child at once.
 *
 * A child that dies — crashes, exits, is killed, runs out of memory, or writes garbage on
 * the channel (then it is killed) — fails every call in flight with TOOL_SANDBOX_FAILED
 * (retryable, naming the module and how it died); a fresh child, which loads the module
 * again, is started at once, so the next call finds it warm. A call whose AbortSignal fires
 * sends the child an abort (its handler's signal fires there); if the call has not settled
 * `killGraceMs` later, the child is killed (a handler that ignores its signal cannot hold
 * the slot, or run on unseen).
 */
import type { Subprocess } from "bun";
import { constants as osConstants } from "node:os";
import { runtimeError, type LumaError } from "../../../diagnostics/luma-error";
import { BadFrame, encodeFrame, FrameReader } from "./frames";
import { watchMemory } from "./memory-watch";
import { fromWireError, type ChildMessage, type LoadRequest, type ParentMessage } from "./wire";
import { claimEarlyChild, spawnChild } from "./early-start";

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  graceTimer?: ReturnType<typeof setTimeout>;
}

export interface ModuleChildOptions {
  shownPath: string;
  /** The command line of a fresh child (bwrap + luma). */
  argv: () => string[];
  /** Its whole environment (never on the command line, which any user of the host can read). */
  env: Record<string, string>;
  load: LoadRequest;
  killGraceMs: number;
  /** `max_memory_mb`: the child's resident memory, sampled (memory-watch.ts). */
  maxMemoryMb?: number;
}

export type Shape = { handlers: string[]; datasources: string[] };

export const sandboxFailed = (shownPath: string, how: string): LumaError =>
  runtimeError("TOOL_SANDBOX_FAILED", `Tool module '${shownPath}' ${how}; its process is restarted for the next call.`, { retryable: true });

export class ModuleChild {
  private proc?: Subprocess<"pipe", "pipe", "inherit">;
  private ready?: Promise<Shape>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Set when the current child is killed on purpose: how its death is described. */
  private killedFor?: string;
  /** Whether the current child loaded its module (a replacement is pre-started only for such a one). */
  private loaded = false;
  private closed = false;

  constructor(private readonly opts: ModuleChildOptions) {}

  /** Starts the child if none is running and waits until its module is loaded. */
  start(): Promise<Shape> {
    if (this.ready) return this.ready;
    // The child started early for exactly this command line (early-start.ts), or a fresh one.
    const argv = this.opts.argv();
    const proc = claimEarlyChild(argv, this.opts.env) ?? spawnChild(argv, this.opts.env);
    this.proc = proc;
    this.killedFor = undefined;
    this.loaded = false;
    const ready = new Promise<Shape>((resolve, reject) => {
      this.pending.set(0, { resolve: resolve as (v: unknown) => void, reject });
    });
    this.ready = ready;
    // The load's own failure is reported by its awaiter; the promise is observed here too.
    ready.catch(() => {});
    void this.readReplies(proc);
    const maxMb = this.opts.maxMemoryMb;
    const unwatch = maxMb === undefined ? undefined : watchMemory(proc.pid, maxMb, (mib) => this.kill(proc, `was killed: it used ${mib} MiB, over max_memory_mb (${maxMb})`));
    void proc.exited.then((code) => (unwatch?.(), this.onExit(proc, code)));
    this.send(this.opts.load);
    return ready;
  }

  /** One call into the child; `signal` aborts it there. */
  async call(kind: "tool" | "datasource", name: string, args: unknown[], signal?: AbortSignal, env?: Record<string, string>): Promise<unknown> {
    if (signal?.aborted) throw signal.reason;
    try {
      await this.start();
    } catch (e) {
      // A fresh child whose module no longer loads (it loaded at start-up): this call fails, typed.
      if ((e as { code?: unknown }).code === "TOOL_SANDBOX_FAILED") throw e;
      throw sandboxFailed(this.opts.shownPath, `could not load again in a fresh process: ${(e as Error).message}`);
    }
    const id = this.nextId++;
    const proc = this.proc!;
    return new Promise((resolve, reject) => {
      const entry: Pending = { resolve, reject };
      this.pending.set(id, entry);
      const onAbort = () => {
        this.send({ t: "abort", id });
        entry.graceTimer = setTimeout(() => this.kill(proc, `was killed: a handler ignored its AbortSignal for ${this.opts.killGraceMs} ms after it fired`), this.opts.killGraceMs);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const settle = () => {
        signal?.removeEventListener("abort", onAbort);
        if (entry.graceTimer) clearTimeout(entry.graceTimer);
      };
      entry.resolve = (v) => (settle(), resolve(v));
      entry.reject = (e) => (settle(), reject(e));
      this.send({ t: "call", id, kind, name, args, signal: signal !== undefined, env });
    });
  }

  /** Stops the child (end of the run). */
  close(): void {
    this.closed = true;
    if (this.proc) this.kill(this.proc, "was stopped");
  }

  /** The child's pid as luma sees it (bwrap's): for tests and diagnostics. */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  private send(message: ParentMessage): void {
    try {
      this.proc?.stdin.write(encodeFrame(message));
      this.proc?.stdin.flush();
    } catch {
      // A child that is gone: its exit settles what is pending.
    }
  }

  private kill(proc: Subprocess, why: string): void {
    if (proc !== this.proc || proc.exitCode !== null || proc.signalCode !== null) return;
    this.killedFor ??= why;
    proc.kill("SIGKILL");
  }

  private async readReplies(proc: Subprocess<"pipe", "pipe", "inherit">): Promise<void> {
    const reader = new FrameReader();
    try {
      for await (const chunk of proc.stdout) {
        for (const message of reader.push(chunk)) this.onMessage(message as ChildMessage);
      }
    } catch (e) {
      this.kill(proc, e instanceof BadFrame ? `broke the channel: ${e.message}` : `broke the channel`);
    }
  }

  private onMessage(message: ChildMessage): void {
    if (message === null || typeof message !== "object") throw new BadFrame("a message that is not an object");
    if (message.t === "loaded" || message.t === "load-failed") {
      const waiter = this.pending.get(0);
      this.pending.delete(0);
      this.loaded = message.t === "loaded";
      if (message.t === "loaded") waiter?.resolve({ handlers: message.handlers, datasources: message.datasources });
      else waiter?.reject(fromWireError(message.error));
      return;
    }
    if (message.t !== "result" || typeof message.id !== "number" || message.id === 0) throw new BadFrame(`an unknown message`);
    const entry = this.pending.get(message.id);
    if (!entry) return; // a call already failed (its child is being replaced)
    this.pending.delete(message.id);
    if (message.ok) entry.resolve(message.value);
    else entry.reject(fromWireError(message.error));
  }

  private onExit(proc: Subprocess, code: number | null): void {
    if (proc !== this.proc) return;
    const how = this.killedFor ?? describeExit(code, proc.signalCode);
    const wasLoaded = this.loaded;
    this.proc = undefined;
    this.ready = undefined;
    const failed = [...this.pending.values()];
    this.pending.clear();
    for (const entry of failed) entry.reject(sandboxFailed(this.opts.shownPath, how));
    // The replacement starts now, not at the next call, so that call finds it warm. Only for a
    // child that had loaded: one whose load failed or died is left to the next call, never
    // restarted in a loop.
    if (wasLoaded && !this.closed) this.start().catch(() => {});
  }

}

/** bwrap passes its child's death on as an exit code, 128 + the signal's number. */
const signalOfCode = (code: number | null): string | undefined =>
  code !== null && code > 128 ? Object.entries(osConstants.signals).find(([, n]) => n === code - 128)?.[0] : undefined;

const describeExit = (code: number | null, rawSignal: string | number | null): string => {
  const signal = rawSignal ?? signalOfCode(code) ?? null;
  if (signal === "SIGKILL") return "was killed (SIGKILL: killed from outside, or out of memory)";
  if (signal === "SIGXCPU") return "was killed: it used up its CPU time";
  if (signal) return `was killed by ${signal}`;
  return `exited with code ${code}`;
};
