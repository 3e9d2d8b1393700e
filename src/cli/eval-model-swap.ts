/**
 * `luma eval --model Triage=Other` (docs/eval.md): the program with agent `Triage` answering
 * through model `Other`, so the same dataset runs against both and the report sets them side
 * by side. The swap is a copy of the program in which only that agent's `model:` entry
 * differs — the original stays as loaded, and both are checked programs (a model the
 * program declares replaces another model). A name that is no agent, or no model, is
 * E1413.
 */
import type { AgentDecl, Entry, Program } from "../syntax/ast";
import { startupError } from "../diagnostics/luma-error";
import { AGENT_KEYS } from "../language/keys/agent-keys";
import { entryOf } from "../language/keys/key-spec";

export interface ModelSwap {
  agent: string;
  model: string;
}

/** `Triage=Other` → the swap; a value without `=` is reported by the command line. */
export function swappedProgram(program: Program, swap: ModelSwap): Program {
  const agent = program.decls.find((d): d is AgentDecl => d.kind === "Agent" && d.name === swap.agent);
  if (!agent) throw startupError(`--model ${swap.agent}=${swap.model}: the program declares no agent '${swap.agent}' (an agent the eval file declares or imports)`, { catalogCode: "E1413" });
  if (!program.decls.some((d) => d.kind === "Model" && d.name === swap.model)) {
    throw startupError(`--model ${swap.agent}=${swap.model}: the program declares no model '${swap.model}' (a model to swap in is declared in the eval file or imported by it)`, { catalogCode: "E1413" });
  }
  const old = entryOf(AGENT_KEYS, agent.entries, "model");
  const span = old?.value.span ?? agent.nameSpan;
  const entry: Entry = { kind: "Entry", key: "model", keySpan: old?.keySpan ?? span, value: { kind: "Path", parts: [swap.model], span }, span: old?.span ?? span };
  const entries = old ? agent.entries.map((e) => (e === old ? entry : e)) : [...agent.entries, entry];
  const swapped: AgentDecl = { ...agent, entries };
  return { ...program, decls: program.decls.map((d) => (d === agent ? swapped : d)) };
}
