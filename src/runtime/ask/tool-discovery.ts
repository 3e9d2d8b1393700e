/**
 * Lazy tools and their discovery (docs/language/tools.md "Lazy tools"). A tool with
 * `lazy: true` is not declared to the model up front: while an `ask` has lazy tools it has not
 * found yet, the model is offered one synthetic tool, `search_tools(query)`, whose result lists
 * the best-matching lazy tools (tool-search-ranking.ts) with their description and parameters.
 * Every tool a result lists counts as found and is declared on the following requests of
 * that `ask`; `search_tools` stays offered while some lazy tool is not found.
 *
 * Why here and not in the pipeline: a search runs no handler and has no side effect — it is
 * the `ask`'s own bookkeeping, like the rate limit. It is not a journal step: its answer is a
 * pure function of the query and of what was found before, so a resumed run, replaying the
 * journaled provider answers, re-answers each search identically and declares the same tools
 * (the request digests match). The discovery state belongs to one `ask` call and lives as long
 * as it (all its attempts); the next `ask`, even at the same site, starts with nothing found.
 *
 * The flow asks this module two things: the tools of the next request (`offered`), and the
 * answers of the calls it owns in a round (`answerRound`): `search_tools` itself, and a lazy
 * tool called before it was found (an error result telling the model to search first). Those
 * not-found answers are judged against what was found before the round, so a tool searched
 * and called in the same turn is refused whatever order the calls would run in.
 */
import type { PreparedTools, ProviderAdapter, ToolCall, ToolResult, ToolSpec } from "../providers/provider-types";
import { buildSearchIndex, rankTools, type SearchIndex } from "./tool-search-ranking";

/** The synthetic tool's name; a user tool of that name next to lazy tools is a check error (E0275). */
export const SEARCH_TOOLS = "search_tools";

export const SEARCH_TOOLS_SPEC: ToolSpec = {
  name: SEARCH_TOOLS,
  description:
    "Finds more tools. Some tools are not loaded yet: describe in a few words what you need to do, and the result lists the best-matching tools " +
    "(name, description, parameters). Every tool listed can be called from your next turn on.",
  parameters: {
    type: "object",
    properties: { query: { type: "string", description: "What the tool should do, in a few words (e.g. \"refund an order\")." } },
    required: ["query"],
    additionalProperties: false,
  },
};

/** What an ask site knows about its lazy tools: built once with its plan (ask-plan.ts). */
export interface LazyCatalog {
  adapter: ProviderAdapter;
  eager: readonly ToolSpec[];
  lazy: ReadonlyMap<string, ToolSpec>;
  index: SearchIndex;
  /** `using tool x` of a lazy x: declared from the first request (a forced tool must be sent). */
  foundAtStart: readonly string[];
  /** Prepared declarations by the found tools' names, in the order found: the site's requests reuse them. */
  prepared: Map<string, PreparedTools>;
}

/** The site's catalog, or undefined when none of its tools is lazy (the flow is then unchanged). */
export function lazyCatalog(adapter: ProviderAdapter, specs: readonly ToolSpec[], isLazy: (name: string) => boolean, forced?: string): LazyCatalog | undefined {
  const lazy = specs.filter((s) => isLazy(s.name));
  if (lazy.length === 0) return undefined;
  return {
    adapter,
    eager: specs.filter((s) => !isLazy(s.name)),
    lazy: new Map(lazy.map((s) => [s.name, s])),
    index: buildSearchIndex(lazy),
    foundAtStart: forced !== undefined && isLazy(forced) ? [forced] : [],
    prepared: new Map(),
  };
}

/** The tools an ask site declares on its first request: eager ones and `search_tools`. */
export function initialTools(catalog: LazyCatalog): PreparedTools {
  return toolsFor(catalog, catalog.foundAtStart, catalog.lazy.size);
}

/** Eager tools in the agent's order, then found lazy tools in the order found, then `search_tools` while any is not found. */
function toolsFor(catalog: LazyCatalog, found: readonly string[], offerable: number): PreparedTools {
  const key = `${found.join(",")}/${offerable}`;
  let tools = catalog.prepared.get(key);
  if (tools === undefined) {
    const specs = [...catalog.eager, ...found.map((n) => catalog.lazy.get(n)!)];
    if (found.length < offerable) specs.push(SEARCH_TOOLS_SPEC);
    tools = catalog.adapter.prepareTools(specs);
    catalog.prepared.set(key, tools);
  }
  return tools;
}

export interface ToolDiscovery {
  /** The tool declarations of the next request. */
  offered(): PreparedTools | undefined;
  /** The lazy tools found so far (their `instructions` join the system prompt from then on, tool-offer.ts). */
  found(): readonly string[];
  /** Results for the calls (by index) this module answers; the others run through the pipeline. */
  answerRound(calls: readonly ToolCall[], indices: readonly number[]): ReadonlyMap<number, ToolResult>;
}

export interface ToolSearchEvent {
  event: "tool.search";
  agent: string;
  /** The model's query, as it wrote it (cut at 200 characters). */
  query: string;
  /** The names the result listed, best first. */
  found: string[];
  /** Lazy tools still not found after this search. */
  remaining: number;
}

const errorResult = (call: ToolCall, code: string, message: string): ToolResult => ({ call, isError: true, content: { error: { code, message, retryable: false } } });

/**
 * One `ask`'s discovery: nothing found yet but a forced tool. Without lazy tools, the plan's
 * tools as they are. `available` (default: all) is the seam for tools an `ask` may not offer
 * at all: a lazy tool it rejects is never listed by a search nor counted as remaining.
 */
export function startDiscovery(
  catalog: LazyCatalog | undefined,
  planTools: PreparedTools | undefined,
  agent: string,
  trace?: (event: object) => void,
  available: (name: string) => boolean = () => true,
): ToolDiscovery {
  if (catalog === undefined) return { offered: () => planTools, found: () => [], answerRound: () => new Map() };
  const found: string[] = catalog.foundAtStart.filter(available);
  const offerable = [...catalog.lazy.keys()].filter(available).length;

  const search = (call: ToolCall): ToolResult => {
    const args = call.args as { query?: unknown } | undefined;
    if (call.argsError !== undefined || typeof args?.query !== "string") {
      return errorResult(call, "TOOL_INPUT_INVALID", `${SEARCH_TOOLS} takes one argument, {"query": "<what you need, in a few words>"}.`);
    }
    const listed = rankTools(catalog.index, args.query, (spec) => available(spec.name));
    for (const spec of listed) if (!found.includes(spec.name)) found.push(spec.name);
    const event: ToolSearchEvent = { event: "tool.search", agent, query: args.query.slice(0, 200), found: listed.map((s) => s.name), remaining: offerable - found.length };
    trace?.(event);
    const tools = listed.map((s) => ({ name: s.name, ...(s.description !== undefined ? { description: s.description } : {}), parameters: s.parameters }));
    const note = listed.length > 0
      ? "These tools can be called from your next turn on."
      : "No tool matched. Search again with other words (what the tool does, or the kind of thing it works on).";
    return { call, isError: false, content: { tools, note } };
  };

  return {
    offered: () => toolsFor(catalog, found, offerable),
    found: () => found,
    answerRound(calls, indices) {
      const answers = new Map<number, ToolResult>();
      const foundBefore = new Set(found);
      for (const i of indices) {
        const call = calls[i];
        if (catalog.lazy.has(call.name) && !foundBefore.has(call.name)) {
          answers.set(i, errorResult(call, "TOOL_NOT_FOUND", `Tool '${call.name}' is not loaded yet: call ${SEARCH_TOOLS} first with what you need; you can call the tools it lists on your next turn.`));
        }
      }
      for (const i of indices) if (calls[i].name === SEARCH_TOOLS) answers.set(i, search(calls[i]));
      return answers;
    },
  };
}
