/**
 * Each tool's, query's and command's `description` (the text a model is shown), by name: what
 * an `execute_tool` span reports as `gen_ai.tool.description`. Handed to the OpenTelemetry
 * exporter at start-up (open-program.ts) rather than carried by every `tool.call` trace event,
 * so the trace file does not repeat a declaration's text on each line. Read on first use.
 */
import type { Program } from "../syntax/ast";
import { readStatementEntries } from "./datasources/statement-entries";
import { readToolOptions } from "./tools/steps/tool-options";

export function toolDescriptions(program: Program): (name: string) => string | undefined {
  let byName: Map<string, string> | undefined;
  return (name) => {
    if (byName === undefined) {
      byName = new Map();
      for (const d of program.decls) {
        const text = d.kind === "Tool" ? readToolOptions(d).description : d.kind === "Query" || d.kind === "Command" ? readStatementEntries(d).description : undefined;
        if (text !== undefined && !byName.has(d.name)) byName.set(d.name, text);
      }
    }
    return byName.get(name);
  };
}
