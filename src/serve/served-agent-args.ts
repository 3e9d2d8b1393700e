/**
 * The arguments of a served agent declared with parameters (`agent Support(user: User)`),
 * validated as a call `Support(user)` binds them. From one of two places:
 *
 * - `--agent-args Support='{"user": {…}}'` (repeatable, one per agent): fixed for the server's
 *   life, checked at start-up (E0676 for the flag's form; E0654–E0656 for its values, as
 *   `luma chat --agent-args`). A request may not change them.
 * - the request body's reserved key `$agent` (no parameter can be named so): the caller gives
 *   them each time — a backend holding the token, on behalf of its signed-in user. A request
 *   from a browser (it carries `Origin`) may not: parameters are trusted input
 *   (docs/security.md), and a page's user could claim to be anyone.
 *
 * What does not fit is the request's 400 (REQUEST_INVALID), naming the parameter and field.
 */
import { startupError } from "../diagnostics/luma-error";
import type { AgentDecl, Program } from "../syntax/ast";
import type { Runtime } from "../runtime/interpreter/runtime-context";
import type { Value } from "../runtime/interpreter/values";
import { agentArgsFrom, servedAgentArgs } from "../runtime/interpreter/agent-args-json";
import { requestInvalid } from "./error-answer";

/** The body key holding an agent's arguments; `$` keeps it apart from every parameter name. */
export const AGENT_ARGS_KEY = "$agent";

const FLAG = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;

/** `--agent-args AGENT=JSON` flags by agent, read before the program opens (E0676 for their form). */
export function agentArgsFlags(flags: readonly string[]): Map<string, string> {
  const byAgent = new Map<string, string>();
  for (const flag of flags) {
    const m = FLAG.exec(flag);
    if (m === null) throw startupError(`luma serve --agent-args ${flag.slice(0, 60)}: expected AGENT=JSON, e.g. --agent-args 'Support={"user": {"id": 7}}'.`, { catalogCode: "E0676" });
    if (byAgent.has(m[1])) throw startupError(`luma serve --agent-args: agent '${m[1]}' is given twice.`, { catalogCode: "E0676" });
    byAgent.set(m[1], m[2]);
  }
  return byAgent;
}

export class AgentArgs {
  private readonly fixed = new Map<string, ReadonlyMap<string, Value>>();

  /** Checks the fixed arguments now (E0654–E0656, E0676), against the served agents. */
  constructor(
    program: Program,
    private readonly rt: Runtime,
    flags: ReadonlyMap<string, string>,
    served: readonly string[],
  ) {
    for (const [agent, json] of flags) {
      if (!served.includes(agent)) throw startupError(`luma serve --agent-args ${agent}=…: no agent '${agent}' is served (served: ${served.join(", ") || "none"}).`, { catalogCode: "E0676" });
      const args = servedAgentArgs(program, rt, agent, json);
      if (args !== undefined) this.fixed.set(agent, args);
    }
  }

  /** The arguments `agent` runs with for one request; `given` is the body's `$agent` (undefined when absent). */
  for(agent: AgentDecl, given: unknown, fromBrowser: boolean): ReadonlyMap<string, Value> | undefined {
    const params = agent.params ?? [];
    const fixed = this.fixed.get(agent.name);
    if (given !== undefined) {
      if (params.length === 0) throw requestInvalid(`${AGENT_ARGS_KEY}: agent '${agent.name}' takes no parameters.`);
      if (fixed !== undefined) throw requestInvalid(`${AGENT_ARGS_KEY}: agent '${agent.name}' runs with the arguments the server was started with (--agent-args); a request cannot change them.`);
      if (fromBrowser) {
        throw requestInvalid(`${AGENT_ARGS_KEY}: a browser's request may not give agent '${agent.name}' its arguments (they are trusted input): send them from your backend, or fix them with --agent-args.`);
      }
      return agentArgsFrom(this.rt, agent, given, AGENT_ARGS_KEY, (message) => requestInvalid(message));
    }
    if (fixed !== undefined || params.length === 0) return fixed;
    return agentArgsFrom(this.rt, agent, {}, AGENT_ARGS_KEY, (message, kind) =>
      requestInvalid(kind === "missing" ? `Agent '${agent.name}' takes parameters (${params.map((p) => p.name).join(", ")}): send them as "${AGENT_ARGS_KEY}": { … } in the body, or start the server with --agent-args ${agent.name}='{…}'.` : message),
    );
  }
}
