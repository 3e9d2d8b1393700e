import type { CatalogEntry } from "./catalog-entry";

/** MCP, both ways (E08xx): servers Luma connects to, and `luma mcp` serving a program. */
const MCP_ENTRIES = [
  {
    code: "E0801",
    title: "an MCP server header's variable is not set",
    explanation:
      "`headers_env` maps an HTTP header to the environment variable that holds its value (a token never sits in the config). The variable is unset, so the server is not contacted.",
    example: '{ "mcp_servers": { "docs": { "url": "http://127.0.0.1:9000/mcp", "headers_env": { "Authorization": "DOCS_TOKEN" } } } }',
  },
  {
    code: "E0802",
    title: "an MCP server failed to start or connect",
    explanation:
      "A server a program's tools use is started (stdio) or connected (HTTP) before the first statement; it did not come up, so nothing ran. The cause follows; a URL's credentials are never shown.",
    example: '{ "mcp_servers": { "docs": { "command": "no-such-server" } } }',
  },
  {
    code: "E0803",
    title: "an MCP server is not declared",
    explanation: "A tool's `mcp:` option (or `luma mcp import NAME`) names a server that `mcp_servers` in luma.config.json does not declare.",
    example: 'tool search(q: string) -> Hits { mcp: "dcos" }',
  },
  {
    code: "E0804",
    title: "luma mcp --http cannot serve at that address",
    explanation:
      "`--http` takes HOST:PORT or PORT (127.0.0.1 by default; port 0 picks a free one), and the address must be free to listen on. An address that is not loopback also needs a bearer token in LUMA_MCP_TOKEN and `--allowed-hosts` (the host names clients use): without them anyone who can reach it could call every served tool.",
    example: "luma mcp app.luma --http 127.0.0.1:99999",
  },
  {
    code: "E0805",
    title: "a tool contract does not fit its MCP server's tool",
    explanation:
      "The `.luma` contract is checked against the server's `inputSchema` at start-up: a field the server requires that the contract lacks, or a type that can never match, would fail every call — so it fails the start instead, naming tool, field and server.",
    example: 'tool echo(text: int) -> Echo { mcp: "everything" }   // the server wants a string `message`',
  },
  {
    code: "E0806",
    title: "luma mcp --agent names no agent",
    explanation: "`luma mcp FILE --agent NAME` serves the tools and methods of that agent; the program declares no agent by that name.",
    example: "luma mcp app.luma --agent Wroker",
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type McpCode = (typeof MCP_ENTRIES)[number]["code"];

export const mcpCodes: CatalogEntry[] = [...MCP_ENTRIES];
