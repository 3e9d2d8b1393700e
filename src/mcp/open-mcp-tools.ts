/**
 * The MCP client as the runtime's source of `mcp:` tools (`OpenRemoteTools`): what the
 * composition roots (src/index.ts, cli/, the MCP server) plug into a run, so the runtime
 * needs no arrow to mcp/. This file is small on purpose: the client and the SDK behind it
 * (mcp-tool-source.ts) load only when a program declares an `mcp:` tool.
 */
import type { OpenRemoteTools } from "../runtime/tools/registry/registry-types";

export const openMcpTools: OpenRemoteTools = async (opts) => (await import("./mcp-tool-source")).openMcpToolSource(opts);

/** The same for `luma mcp`: a server's elicitation during a served call is forwarded to that call's client. */
export const openServedMcpTools: OpenRemoteTools = async (opts) => (await import("./mcp-tool-source")).openMcpToolSource({ ...opts, forwardElicitation: true });
