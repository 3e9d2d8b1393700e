/**
 * `luma chat FILE --agent A [--method m] [--thread ID]` (issue #26 §3), the runtime's side: the
 * program is opened as for a run (config, tool modules, stores, trace) but its top-level code
 * does not run; each line the CLI hands over is one user message of one thread.
 *
 * - Without `--method`, the agent's own model, system prompt and tools answer: a plain-text
 *   streamed ask on the thread (as `stream ask line -> string in t` in one of its methods).
 * - With `--method m`, `A.m(thread, line)` answers; its signature must be
 *   `(Thread, string) -> string`, checked before the first line (E0662). What it streams
 *   (`stream ask`) goes out as it arrives; a reply it did not stream is written when returned.
 * - `--agent-args '{…}'`: an agent declared with parameters (`agent Support(user: User)`) gets
 *   them once for the session, validated as `luma mcp --agent-args` does (E0654–E0656): its
 *   `system` is filled in and its `when` conditions decide the tools of each line's ask.
 * - `--thread ID` continues the stored thread ID (the `"threads"` store, E0660 without one);
 *   without it the chat's thread lives in memory for the session.
 *
 * Tool calls are reported through `onToolCall` as they end (the CLI prints one line each).
 */
import { startupError } from "../diagnostics/luma-error";
import type { AgentDecl, FnDecl, Program, TypeRef } from "../syntax/ast";
import { loadRunConfig } from "./run-config";
import { openProgram, programHostOf } from "./open-program";
import type { StartOptions } from "./start-program";
import { createRuntime } from "./interpreter/runtime-context";
import { callAgentMethod } from "./interpreter/calls";
import { asLumaError } from "./interpreter/runtime-errors";
import { openStoredThread, ThreadHandle } from "./interpreter/thread-values";
import { streamToStdout } from "./interpreter/stream-output";
import { outsideThreadAsk } from "./interpreter/thread-ask";
import { askSettingsOf } from "./tools/steps/agent-ask-settings";
import { servedAgentArgs } from "./interpreter/agent-args-json";
import { agentContextFor } from "./interpreter/agent-context";
import { agentToolCallerFor } from "./interpreter/agent-tools";
import type { ThreadStore } from "./stores/threads/thread-message";
import type { Value } from "./interpreter/values";

export interface ChatOptions extends Omit<StartOptions, "args"> {
  agent: string;
  method?: string;
  thread?: string;
  /** `--agent-args`: the agent's parameters, a JSON object. */
  agentArgs?: string;
  /** One tool call, ended (`tool.call` trace events). */
  onToolCall?: (event: { tool: string; outcome: string; code: string | null; duration_ms: number }) => void;
}

export interface ChatSession {
  /** Answers one line; the reply has been written (streamed, then a newline) when it resolves. */
  reply(line: string): Promise<void>;
  close(): Promise<void>;
}

const STRING_TYPE: TypeRef = { kind: "PrimType", name: "string", span: { file: "<chat>", start: 0, end: 0 } };
const refused = (message: string) => startupError(message, { catalogCode: "E0662" });
const isType = (t: TypeRef | undefined, name: string) =>
  t !== undefined && (name === "string" ? t.kind === "PrimType" && t.name === "string" : t.kind === "NamedType" && t.name === name);

/** What the agent and method must be, before anything is opened. */
function chatTarget(program: Program, agentName: string, method: string | undefined): { agent: AgentDecl; fn?: FnDecl } {
  const agent = program.decls.find((d): d is AgentDecl => d.kind === "Agent" && d.name === agentName);
  const agents = program.decls.filter((d) => d.kind === "Agent").map((d) => d.name);
  if (!agent) throw refused(`luma chat: the program has no agent '${agentName}' (agents: ${agents.length ? agents.join(", ") : "none"}).`);
  if (method === undefined) {
    if (askSettingsOf(agent).model === undefined) throw refused(`luma chat: agent '${agentName}' declares no model to answer with; give it one, or chat through a method (--method).`);
    return { agent };
  }
  const fn = agent.methods.find((m) => m.name === method);
  if (!fn) throw refused(`luma chat: agent '${agentName}' has no method '${method}'.`);
  const [t, text] = fn.params;
  if (fn.params.length !== 2 || !isType(t.type, "Thread") || !isType(text.type, "string") || !isType(fn.returns, "string")) {
    throw refused(`luma chat: method ${agentName}.${method} must take (Thread, string) and return string, to answer each line with the chat's thread.`);
  }
  return { agent, fn };
}

export async function openChat(program: Program, opts: ChatOptions): Promise<ChatSession> {
  const { agent, fn } = chatTarget(program, opts.agent, opts.method);
  const observe = (event: object) => {
    const e = event as { event?: string; tool: string; outcome: string; code: string | null; duration_ms: number };
    if (e.event === "tool.call") opts.onToolCall?.(e);
  };
  const open = await openProgram(program, { ...opts, observe, servedBy: "luma chat" });
  let ownStore: ThreadStore | undefined;
  try {
    let thread: ThreadHandle;
    if (opts.thread !== undefined) {
      let store = open.threads;
      if (!store) {
        const { config } = await loadRunConfig(opts);
        if (!config.config.threads) {
          throw startupError(`luma chat --thread ${opts.thread}: luma.config.json configures no "threads" store to keep it in.`, { catalogCode: "E0660" });
        }
        const { openThreadStore } = await import("./stores/threads/open-thread-store");
        store = ownStore = await openThreadStore(config.config.threads, { projectDir: config.projectDir, env: opts.env });
      }
      thread = await openStoredThread(store, opts.thread);
    } else thread = new ThreadHandle(undefined, undefined);
    // Whether the method streamed its reply (then it is not written again when returned).
    let streamed = false;
    const raw = opts.stdoutText;
    const stdoutText = raw && ((text: string) => ((streamed = true), raw(text)));
    // The host of a `luma FILE` run (env, parallel_limit, max_agent_depth, …); `--thread` may have opened the store itself.
    const host = programHostOf(open, opts, "calls");
    const rt = createRuntime(program, {
      ...host, args: [], stdout: opts.stdout, stdoutText, stderr: opts.stderr, threads: { ...host.threads, store: open.threads ?? ownStore },
    });
    const site = {};
    const agentArgs = servedAgentArgs(program, rt, agent.name, opts.agentArgs);
    const context = agentContextFor(rt, agent.name, agentArgs ?? new Map());
    return {
      async reply(line) {
        if (fn) {
          streamed = false;
          const value = await callAgentMethod(rt, agent.name, fn.name, [thread as unknown as Value, line], {}, agentArgs);
          if (!streamed) opts.stdout(String(value));
          return;
        }
        const runner = open.ask!;
        const out = streamToStdout(opts);
        try {
          const methodCall = { failures: 0 };
          const callAgent = agentToolCallerFor(rt, agent.name, methodCall, agentArgs);
          await outsideThreadAsk(rt, thread, runner, { agent, methodCall, callAgent, prompt: line, target: STRING_TYPE, site, location: `luma chat --agent ${agent.name}`, onText: out.write, context });
          out.end(true);
        } catch (e) {
          out.end(false);
          throw asLumaError(e, rt.sourceOf, program.span);
        }
      },
      async close() {
        await ownStore?.close();
        await open.close();
      },
    };
  } catch (e) {
    await ownStore?.close();
    await open.close();
    throw e;
  }
}
