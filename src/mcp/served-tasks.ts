/**
 * Tasks (protocol 2025-11-25): a served agent method may be called now and fetched later. Its
 * `tools/list` entry says `execution: { taskSupport: "optional" }` — a method may run for many
 * model turns — and a `tools/call` that carries `task` is answered at once with the created
 * task (`working`); the method runs on, and its answer is stored as the task's result
 * (`completed`, or `failed` for an error answer). The client polls `tasks/get`, reads
 * `tasks/result`, lists with `tasks/list` and may `tasks/cancel`, which aborts the method as a
 * cancelled call would; the SDK answers those four from the session's store.
 *
 * A task's method cannot ask its client anything (its request has been answered, there is no
 * stream to ask on): an approval or a client tool's answer it needs is refused as for a client
 * without elicitation. Plain tools run as they always do, a `task` in their call ignored
 * (they do not say they support it). Results are kept for the task's `ttl` (the client's, at
 * most MAX_TTL_MS), then dropped.
 */
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";
import type { Task } from "@modelcontextprotocol/sdk/types.js";
import { runtimeError } from "../diagnostics/luma-error";
import type { CallOptions, CallToolAnswer } from "./serve-call";

/** What a session server declares: task-augmented `tools/call`, with list and cancel. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** How long a finished task's result is kept at most (and when the client names no ttl). */
const MAX_TTL_MS = 3_600_000;
/** How often a client is asked to poll. */
const POLL_INTERVAL_MS = 500;

/** The session's tasks; a cancel from the client aborts the running method. */
export class ServedTaskStore extends InMemoryTaskStore {
  private readonly running = new Map<string, AbortController>();

  /**
   * The SDK's store drops a task after its ttl with a plain timer, which would keep `luma mcp`
   * alive for up to MAX_TTL_MS after its client left: each such timer is unref'd.
   */
  private unrefTimers(): void {
    for (const timer of (this as unknown as { cleanupTimers: Map<string, { unref?: () => void }> }).cleanupTimers.values()) timer.unref?.();
  }

  override async createTask(...args: Parameters<InMemoryTaskStore["createTask"]>): Promise<Task> {
    const task = await super.createTask(...args);
    this.unrefTimers();
    return task;
  }

  override async storeTaskResult(...args: Parameters<InMemoryTaskStore["storeTaskResult"]>): Promise<void> {
    await super.storeTaskResult(...args);
    this.unrefTimers();
  }

  override async updateTaskStatus(taskId: string, status: Task["status"], statusMessage?: string, sessionId?: string): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    this.unrefTimers();
    if (status === "cancelled") this.running.get(taskId)?.abort(new Error("the client cancelled the task"));
  }

  /** Creates the task and runs `call` for it in the background; the task is returned at once. */
  async start(
    request: { ttl?: number },
    ids: { requestId: string | number; request: { method: string; params?: Record<string, unknown> }; sessionId?: string },
    call: (options: CallOptions) => Promise<CallToolAnswer>,
    track: (work: Promise<unknown>) => unknown,
  ): Promise<{ task: Task }> {
    const ttl = Math.min(request.ttl ?? MAX_TTL_MS, MAX_TTL_MS);
    const task = await this.createTask({ ttl, pollInterval: POLL_INTERVAL_MS }, ids.requestId, ids.request as never, ids.sessionId);
    const abort = new AbortController();
    this.running.set(task.taskId, abort);
    const cannotAsk = (tool: string) =>
      Promise.reject(runtimeError("TOOL_PERMISSION_DENIED", `Tool '${tool}' needs approval: a method called as a task cannot ask its MCP client (its call was already answered).`));
    const work = call({ signal: abort.signal, approve: cannotAsk })
      .then((answer) => this.storeTaskResult(task.taskId, answer.isError === true ? "failed" : "completed", answer, ids.sessionId))
      .catch(async (e: unknown) => {
        const answer: CallToolAnswer = { content: [{ type: "text", text: (e as Error).message ?? String(e) }], isError: true };
        await this.storeTaskResult(task.taskId, "failed", answer, ids.sessionId);
      })
      // A cancelled task is terminal: its late result is not stored (the store refuses it).
      .catch(() => undefined)
      .finally(() => this.running.delete(task.taskId));
    track(work);
    return { task };
  }

  /** Aborts what still runs and drops the results (the session ends). */
  close(): void {
    for (const abort of this.running.values()) abort.abort(new Error("the session ended"));
    this.cleanup();
  }
}
