/**
 * Lazy tools (docs/language/tools.md "Lazy tools"): a lazy tool is found by the model through
 * the synthetic `search_tools`, by its name, parameter names and description — so it needs a
 * description (E0276), and an agent with lazy tools cannot have a tool of its own named
 * `search_tools` (E0275), which the synthetic one would shadow.
 */
import type { Decl, Entry, ToolDecl } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { messages } from "../messages";

/** The synthetic tool's name (runtime/ask/tool-discovery.ts, which the checker may not import). */
const SEARCH_TOOLS = "search_tools";

const isLazy = (ctx: CheckContext, decl: Decl | undefined): decl is ToolDecl => {
  const entry: Entry | undefined = decl?.kind === "Tool" ? ctx.entry(decl.options, "lazy") : undefined;
  return entry?.value.kind === "Lit" && entry.value.value === true;
};

export function lazyTools(ctx: CheckContext): void {
  const byName = new Map<string, Decl>();
  for (const decl of ctx.program.decls) {
    if (!byName.has(decl.name)) byName.set(decl.name, decl);
    if (isLazy(ctx, decl) && !ctx.entry(decl.options, "description")) ctx.report(messages.lazyToolDescription(decl.name), ctx.entry(decl.options, "lazy")!.span);
  }
  for (const agent of ctx.program.decls) {
    if (agent.kind !== "Agent") continue;
    const tools = ctx.entry(agent.entries, "tools")?.value;
    if (tools?.kind !== "List") continue;
    const named = tools.items.map((item) => ({ item, name: item.kind === "Path" && item.parts.length === 1 ? item.parts[0] : undefined }));
    if (!named.some(({ name }) => name !== undefined && isLazy(ctx, byName.get(name)))) continue;
    for (const { item, name } of named) if (name === SEARCH_TOOLS) ctx.report(messages.searchToolsNameTaken(agent.name), item.span);
  }
}
