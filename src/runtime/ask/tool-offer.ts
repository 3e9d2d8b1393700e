/**
 * Which of an agent's tools one `ask` offers the model, and how each is shown (issue #25
 * §2, §5; docs/language/tools.md "Who sees a tool"). The ask flow asks this module once per
 * `ask` and sends what it answers: the tool declarations, the system prompt, and how much of
 * each result the model may see.
 *
 * An agent's `tools` are first read into candidates, once per `ask` site (`toolCandidates`):
 * a tool with `audience: "code"` is never a candidate — it is for the program's code only.
 * Then each `ask` filters them (`offerTools`); each filter says why a tool is withheld, and
 * the ask traces each withheld tool once (`tool.withheld`). The filters:
 *
 *   credential   the tool's `credential` variable is unset or empty (read at each ask, as the
 *                pipeline reads it at each call): offering it would only fail the call.
 *   when         the agent lists it as `t when COND` and COND is false for this ask's agent
 *                arguments (issue #25 §2; the interpreter evaluates the conditions).
 *   max_handoffs a `transfer_to_X` tool (the agent's `handoffs`, handoffs.ts) once the ask
 *                made as many transfers as the agent where it started allows.
 *
 * A new filter (an agent's `when` conditions, lazy tools) is one more reason in `Withheld`
 * and one more test in `withheldReason`.
 *
 * Lazy tools (`lazy: true`) are discovered among the offered tools only (tool-discovery.ts):
 * each prepared offer holds its own catalog, so a withheld lazy tool is never listed by
 * `search_tools` nor counted as remaining.
 *
 * The system prompt is the agent's `system` followed by the `instructions` of each offered
 * tool, in the order of the agent's `tools`, each after a blank line; a withheld tool's
 * instructions are left out with it, and a lazy tool's count from the request after
 * `search_tools` found it (before, the model has not been offered it). A tool's `metadata` is never part of what is offered.
 */
import type { Expr, Program, QueryDecl, ToolDecl } from "../../syntax/ast";
import { toJsonSchema } from "../../schema/json-schema";
import type { SchemaTable } from "../../schema/schema-table-types";
import type { JsonSchema, PreparedTools, ProviderAdapter, ToolSpec } from "../providers/provider-types";
import { readStatementEntries } from "../datasources/statement-entries";
import { readToolOptions } from "../tools/steps/tool-options";
import { initialTools, lazyCatalog, type LazyCatalog } from "./tool-discovery";
import { agentToolOf, type AgentToolTarget } from "./agent-tools";
import { assertNever } from "../../syntax/assert-never";

/** One tool (query, command) an agent lists that a model may be offered. */
export interface ToolCandidate {
  name: string;
  spec: ToolSpec;
  /** The environment variable the tool needs (tools only). */
  credential?: string;
  instructions?: string;
  maxResultChars?: number;
  /** Declared only once `search_tools` found it (tool-discovery.ts). */
  lazy?: boolean;
  /** `Refunds.handle` in `tools`: the agent method a call of `Refunds_handle` runs (agent-tools.ts). */
  agentTool?: AgentToolTarget;
  /** `transfer_to_Refunds`: the agent of the agent's `handoffs` a call of it hands the ask to (handoffs.ts). */
  handoff?: string;
  /** How the agent's `tools` writes it when that differs from `name` (`Refunds.handle`): what a `when` condition is keyed by. */
  listedAs?: string;
}

/** A candidate this ask does not offer, and why (the `tool.withheld` trace event). */
export type Withheld =
  /** `variable`: the variable's name — never its value. */
  | { tool: string; reason: "credential"; variable: string }
  /** `condition`: the `when` condition's source, false in this ask. */
  | { tool: string; reason: "when"; condition: string }
  /** `limit`: the `max_handoffs` this ask reached. */
  | { tool: string; reason: "max_handoffs"; limit: number };

export interface ToolOffer {
  /** The first request's tools in the adapter's wire form (eager ones, and `search_tools` while lazy ones are offered); undefined when none is offered. */
  tools?: PreparedTools;
  /** The offered lazy tools, for the ask's discovery; undefined when none is lazy. */
  lazy?: LazyCatalog;
  /** The offered tools by name: a call of any other tool gets an error result. */
  specs: ReadonlyMap<string, ToolSpec>;
  /**
   * The system prompt of a request: the agent's `system` (`base`: with its parameters filled
   * in, issue #25) and the instructions of the tools it declares (lazy ones once found).
   */
  systemFor(found: readonly string[], base?: string): string | undefined;
  /** The offered tools' `max_result_chars`. */
  maxResultChars: ReadonlyMap<string, number>;
  /** The offered agents' methods (`Refunds_handle`), by tool name: run by the interpreter, not the pipeline. */
  agentTools: ReadonlyMap<string, AgentToolTarget>;
  /** The offered transfers (`transfer_to_Refunds` → `Refunds`): answered by the ask itself (handoffs.ts). */
  handoffs: ReadonlyMap<string, string>;
  withheld: readonly Withheld[];
}

/** What an offer of the same tools always is; kept per `ask` site, keyed by the offered names. */
type SameOffer = Omit<ToolOffer, "withheld">;

export interface OfferSource {
  candidates: readonly ToolCandidate[];
  system?: string;
  adapter: ProviderAdapter;
  /** `using tool x`: a lazy x is declared from the first request. */
  forced?: string;
  /** Offers already prepared, by the names offered (most asks offer the same tools every time). */
  prepared: Map<string, SameOffer>;
}

/** An agent's listed tools, in its order, less those no model may ever see; `agentArgs`: the `Other(args).m` items' arguments, by `Other.m`. */
export function toolCandidates(program: Program, schemas: SchemaTable, names: readonly string[], agentArgs?: ReadonlyMap<string, readonly Expr[]>): ToolCandidate[] {
  const out: ToolCandidate[] = [];
  for (const name of names) {
    if (name.includes(".")) {
      const agentTool = agentToolOf(program, name, agentArgs?.get(name));
      if (agentTool) out.push({ name: agentTool.name, spec: agentTool.spec, agentTool: agentTool.target, listedAs: name });
      continue;
    }
    const decl = program.decls.find(
      (d): d is ToolDecl | QueryDecl => d.name === name && (d.kind === "Tool" || d.kind === "Query" || d.kind === "Command"),
    );
    if (!decl) continue;
    const spec: ToolSpec = { name: decl.name, parameters: toJsonSchema(schemas.toolInput(decl.name)) as JsonSchema };
    if (decl.kind !== "Tool") {
      const description = readStatementEntries(decl).description;
      if (description !== undefined) spec.description = description;
      out.push({ name, spec });
      continue;
    }
    const o = readToolOptions(decl);
    if (o.audience === "code") continue;
    if (o.description !== undefined) spec.description = o.description;
    out.push({ name, spec, credential: o.credential, instructions: o.instructions, maxResultChars: o.maxResultChars, lazy: o.lazy });
  }
  return out;
}

/** How many more transfers this ask may make, of how many (`max_handoffs` of the agent where it started). */
export interface HandoffAllowance {
  left: number;
  limit: number;
}

/** Why this ask does not offer a candidate, or undefined when it does. */
function withheldReason(c: ToolCandidate, env: Record<string, string | undefined>, inactive?: ReadonlyMap<string, string>, handoffs?: HandoffAllowance): Withheld | undefined {
  if (c.handoff !== undefined && handoffs !== undefined && handoffs.left <= 0) return { tool: c.name, reason: "max_handoffs", limit: handoffs.limit };
  const condition = inactive?.get(c.listedAs ?? c.name);
  if (condition !== undefined) return { tool: c.name, reason: "when", condition };
  if (c.credential !== undefined && !env[c.credential]) return { tool: c.name, reason: "credential", variable: c.credential };
  return undefined;
}

/** The tools this ask offers, with the system prompt and result limits that go with them. */
export function offerTools(source: OfferSource, env: Record<string, string | undefined>, inactive?: ReadonlyMap<string, string>, handoffs?: HandoffAllowance): ToolOffer {
  const offered: ToolCandidate[] = [];
  const withheld: Withheld[] = [];
  for (const c of source.candidates) {
    const why = withheldReason(c, env, inactive, handoffs);
    if (why) withheld.push(why);
    else offered.push(c);
  }
  const key = offered.map((c) => c.name).join("\n");
  let same = source.prepared.get(key);
  if (!same) {
    same = prepareOffer(source, offered);
    source.prepared.set(key, same);
  }
  return { ...same, withheld };
}

function prepareOffer(source: OfferSource, offered: readonly ToolCandidate[]): SameOffer {
  const specs = new Map(offered.map((c) => [c.name, c.spec]));
  const maxResultChars = new Map<string, number>();
  for (const c of offered) if (c.maxResultChars !== undefined) maxResultChars.set(c.name, c.maxResultChars);
  const agentTools = new Map<string, AgentToolTarget>();
  for (const c of offered) if (c.agentTool) agentTools.set(c.name, c.agentTool);
  const handoffs = new Map<string, string>();
  for (const c of offered) if (c.handoff !== undefined) handoffs.set(c.name, c.handoff);
  const lazyNames = new Set(offered.filter((c) => c.lazy).map((c) => c.name));
  // One system prompt per set of lazy tools found (most asks find none, or always the same ones).
  const systems = new Map<string, string | undefined>();
  const systemFor = (found: readonly string[], base?: string): string | undefined => {
    // A system with the agent's parameters filled in differs per ask: built each time.
    if (base !== undefined) return systemWithInstructions(base, offered.filter((c) => !c.lazy || found.includes(c.name)));
    const key = found.join("\n");
    if (!systems.has(key)) systems.set(key, systemWithInstructions(source.system, offered.filter((c) => !c.lazy || found.includes(c.name))));
    return systems.get(key);
  };
  const lazy = lazyCatalog(source.adapter, [...specs.values()], (name) => lazyNames.has(name), source.forced);
  return {
    tools: lazy !== undefined ? initialTools(lazy) : specs.size > 0 ? source.adapter.prepareTools([...specs.values()]) : undefined,
    lazy,
    specs,
    systemFor,
    maxResultChars,
    agentTools,
    handoffs,
  };
}

/** `system`, then each offered tool's instructions after a blank line (docs/language/tools.md). */
export function systemWithInstructions(system: string | undefined, offered: readonly ToolCandidate[]): string | undefined {
  const parts = system === undefined || system === "" ? [] : [system];
  for (const c of offered) if (c.instructions !== undefined && c.instructions !== "") parts.push(c.instructions);
  return parts.length === 0 ? system : parts.join("\n\n");
}

/** The trace event of a withheld tool: names only, never a value. */
export function withheldEvent(agent: string, w: Withheld) {
  switch (w.reason) {
    case "credential":
      return { event: "tool.withheld", agent, tool: w.tool, reason: w.reason, variable: w.variable };
    case "when":
      return { event: "tool.withheld", agent, tool: w.tool, reason: w.reason, condition: w.condition };
    case "max_handoffs":
      return { event: "tool.withheld", agent, tool: w.tool, reason: w.reason, limit: w.limit };
    default:
      return assertNever(w);
  }
}
