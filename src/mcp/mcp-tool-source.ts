/**
 * The registry source for tools declared with `mcp: "server"` (plugged into the runtime as
 * its `openRemoteTools` through open-mcp-tools.ts, loaded only when a program has one). At start-up, before the first
 * statement:
 * 1. every server a tool names must be in `mcp_servers`, and the model its `sampling` names
 *    must be declared in the program (E0830);
 * 2. each such server is started or connected (in parallel) and its tool list read — a
 *    server that fails is a start-up error naming it;
 * 3. each tool's MCP name (`mcp_tool`, else its own) is looked up: a missing one is left
 *    to the registry's usual "not registered" error, which names the server;
 * 4. each contract is checked against the server's `inputSchema` (contract-fit.ts); every
 *    misfit of every tool is reported together.
 * Whatever was connected is closed again when start-up fails.
 */
import type { LumaConfig } from "../config/config-types";
import { startupError } from "../diagnostics/luma-error";
import { createSchemaTable } from "../schema/schema-table";
import { toJsonSchema } from "../schema/json-schema";
import type { Program, ToolDecl } from "../syntax/ast";
import { readToolOptions } from "../runtime/tools/steps/tool-options";
import type { LateRunParts, RemoteToolSource, ToolHandler } from "../runtime/tools/registry/registry-types";
import type { AskValue } from "../runtime/tools/tool-invoker-types";
import { connectServer, type ServerConnection } from "./connect-server";
import { contractProblems } from "./contract-fit";
import { remoteHandler } from "./remote-call";
import { resultShape } from "./content-values";

export type McpToolSource = RemoteToolSource;

export interface McpToolSourceOptions {
  program: Program;
  config: LumaConfig;
  /** The config file's directory: stdio servers run there. */
  projectDir: string;
  env: Record<string, string | undefined>;
  /** One line for the person (an authorization URL to open). */
  notice?: (line: string) => void;
  /** The person at the terminal, for the servers' elicitation requests. */
  askPerson?: AskValue;
  /** `luma mcp`: the servers' elicitation requests are forwarded to the served calls' clients. */
  forwardElicitation?: boolean;
  /** A durable run: the servers' elicitation requests nobody answers live wait in the journal. */
  journaled?: boolean;
  /** The run's models, late-bound: they answer the sampling requests of servers with `sampling`. */
  models?: LateRunParts;
}

export async function openMcpToolSource({ program, config, projectDir, env, notice, askPerson, models, forwardElicitation, journaled }: McpToolSourceOptions): Promise<McpToolSource> {
  const wanted = program.decls
    .filter((d): d is ToolDecl => d.kind === "Tool")
    .map((decl) => ({ decl, options: readToolOptions(decl) }))
    .filter((t) => t.options.mcp !== undefined);
  const servers = config.mcp_servers ?? {};
  const undeclared = wanted.filter((t) => !Object.hasOwn(servers, t.options.mcp!));
  if (undeclared.length > 0) {
    const known = Object.keys(servers).join(", ") || "none";
    throw startupError(
      undeclared
        .map((t) => `Tool '${t.decl.name}' names MCP server '${t.options.mcp}', which mcp_servers in luma.config.json does not declare (declared: ${known}).`)
        .join("\n"),
      { catalogCode: "E0803" },
    );
  }

  const names = [...new Set(wanted.map((t) => t.options.mcp!))];
  const unknownModels = names.flatMap((name) => {
    const model = servers[name]!.sampling?.model;
    return model === undefined || program.decls.some((d) => d.kind === "Model" && d.name === model) ? [] : [{ name, model }];
  });
  if (unknownModels.length > 0) {
    const declared = program.decls.filter((d) => d.kind === "Model").map((d) => d.name).join(", ") || "none";
    throw startupError(
      unknownModels.map((u) => `mcp_servers.${u.name}.sampling names model '${u.model}', which the program does not declare (declared models: ${declared}).`).join("\n"),
      { catalogCode: "E0830" },
    );
  }
  const settled = await Promise.allSettled(names.map((name) => connectServer({ name, entry: servers[name], env, cwd: projectDir, notice, askPerson, models, forwardElicitation, journaled })));
  const connections = new Map<string, ServerConnection>();
  settled.forEach((s, i) => s.status === "fulfilled" && connections.set(names[i], s.value));
  const close = async () => void (await Promise.allSettled([...connections.values()].map((c) => c.close())));
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed.length > 0) {
    await close();
    throw failed.length === 1 ? failed[0].reason : startupError(failed.map((f) => (f.reason as Error).message).join("\n"), { catalogCode: "E0802" });
  }

  const schemas = createSchemaTable(program);
  const handlers = new Map<string, { value: ToolHandler; module: string }>();
  const notOffered = new Map<string, string>();
  const problems: string[] = [];
  for (const { decl, options } of wanted) {
    const conn = connections.get(options.mcp!)!;
    const remoteName = options.mcpTool ?? decl.name;
    const remote = conn.tools.get(remoteName);
    if (remote === undefined) {
      notOffered.set(decl.name, `MCP server '${conn.name}' has no tool '${remoteName}'`);
      continue;
    }
    problems.push(...contractProblems(decl.name, conn.name, toJsonSchema(schemas.toolInput(decl.name)), remote.inputSchema));
    const output = toJsonSchema(schemas.typeOf(decl.returns)) as Record<string, unknown>;
    const takesText = Object.hasOwn((output.properties ?? {}) as object, "text");
    handlers.set(decl.name, { value: remoteHandler(conn, decl.name, remoteName, { shape: resultShape(output), takesText }), module: `mcp:${conn.name}` });
  }
  if (problems.length > 0) {
    await close();
    throw startupError(problems.join("\n"), { catalogCode: "E0805" });
  }
  return { handlers, notOffered, close };
}
