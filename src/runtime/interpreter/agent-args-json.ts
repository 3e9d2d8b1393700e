/**
 * `luma mcp FILE --agent Support --agent-args '{"user": {…}}'` (issue #25): the parameters a
 * served agent runs with, for every call of the session. They are read and validated once,
 * at start-up — a value that is missing, unknown or does not fit its parameter's type is a
 * start-up error (exit 2) naming the parameter and field — never taken from the client:
 * parameters are trusted input (docs/security.md). The tools whose `when` is false for them
 * are not served.
 */
import { isLumaError, startupError, type LumaError } from "../../diagnostics/luma-error";
import type { AgentDecl, Program } from "../../syntax/ast";
import { bindAgentArgs } from "./agent-context";
import type { Runtime } from "./runtime-context";
import type { Value } from "./values";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The served agent's parameters from `--agent-args`; undefined when the agent takes none (and none were given). */
export function servedAgentArgs(program: Program, rt: Runtime, agentName: string | undefined, json: string | undefined): Map<string, Value> | undefined {
  const agent = program.decls.find((d): d is AgentDecl => d.kind === "Agent" && d.name === agentName);
  const params = agent?.params ?? [];
  if (json === undefined) {
    const required = params.filter((p) => !p.optional && !p.annotations.some((a) => a.name === "default"));
    if (agent && required.length > 0) {
      const wanted = required.map((p) => p.name).join(", ");
      throw startupError(`--agent ${agent.name}: the agent takes parameters (${wanted}); give them with --agent-args '{"${required[0].name}": …}'.`, { catalogCode: "E0654" });
    }
    return agent && params.length > 0 ? bindAgentArgs(rt, agent, [], [], agent.nameSpan) : undefined;
  }
  if (!agent || params.length === 0) {
    throw startupError(`--agent-args: ${agent ? `agent '${agent.name}' takes no parameters` : "give the agent it is for with --agent NAME"}.`, { catalogCode: "E0656" });
  }
  let given: unknown;
  try {
    given = JSON.parse(json);
  } catch (e) {
    throw startupError(`--agent-args: not JSON (${e instanceof Error ? e.message : String(e)}).`, { catalogCode: "E0655" });
  }
  return agentArgsFrom(rt, agent, given, "--agent-args", (message, kind) => startupError(message, { catalogCode: kind === "missing" ? "E0654" : "E0655" }));
}

/**
 * An agent's parameters from a JSON value (`given`), validated as a call `Support(user)`
 * binds them: an object of the parameters, none unknown, every required one there, each
 * fitting its type. `where` names the source in messages; `fail` makes the error (a
 * start-up error for a flag, a request's 400 for `luma serve`'s `$agent`).
 */
export function agentArgsFrom(
  rt: Runtime,
  agent: AgentDecl,
  given: unknown,
  where: string,
  fail: (message: string, kind: "missing" | "invalid") => LumaError,
): Map<string, Value> {
  const params = agent.params ?? [];
  if (!isObject(given)) throw fail(`${where}: must be a JSON object of the parameters of agent '${agent.name}'.`, "invalid");
  const names = new Set(params.map((p) => p.name));
  for (const key of Object.keys(given)) {
    if (!names.has(key)) throw fail(`${where}: agent '${agent.name}' has no parameter '${key}' (it takes ${[...names].join(", ") || "none"}).`, "invalid");
  }
  for (const p of params) {
    const optional = p.optional || p.annotations.some((a) => a.name === "default");
    if (!(p.name in given) && !optional) throw fail(`${where}: missing '${p.name}', a parameter of agent '${agent.name}'.`, "missing");
  }
  // Positional, as a call `Support(user)` binds them; an absent optional one is null (or its default).
  const lastGiven = params.reduce((last, p, i) => (p.name in given ? i : last), -1);
  const args = params.slice(0, lastGiven + 1).map((p) => (p.name in given ? (given[p.name] as Value) : null));
  try {
    return bindAgentArgs(rt, agent, args, [], agent.nameSpan);
  } catch (e) {
    if (!isLumaError(e)) throw e;
    const issues = (e.details as { issues?: { message: string }[] } | undefined)?.issues;
    const why = issues ? issues.map((i) => i.message.replace(/\.$/, "")).join("; ") : e.message;
    throw fail(`${where}: ${why}.`, "invalid");
  }
}
