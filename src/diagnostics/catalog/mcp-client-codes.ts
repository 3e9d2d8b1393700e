import type { CatalogEntry } from "./catalog-entry";

/**
 * The MCP client's start-up codes of issue #29 §2 (a server Luma calls): what happens when
 * it connects (E0815–E0829) and the sampling it is answered (E0830–E0839). Its OAuth configuration's start-up code (E0690) is with the
 * other E06xx codes in startup-codes.ts.
 */
const MCP_CLIENT_ENTRIES = [
  {
    code: "E0815",
    title: "an MCP server could not be authorized",
    explanation:
      "The server answered 401 (or 403 for too few scopes) and the OAuth 2.1 flow did not end with a token: discovery found no authorization server, registration or the token request was refused, the configured client's secret or key was rejected, or nobody opened the printed URL and completed the authorization within 5 minutes. The cause follows; tokens and secrets are never shown.",
    example: '{ "mcp_servers": { "tickets": { "url": "https://mcp.example.com/mcp" } } }   // the URL printed on the terminal was never opened',
  },
  {
    code: "E0830",
    title: "an MCP server's sampling names a model the program does not declare",
    explanation:
      "`mcp_servers.<name>.sampling.model` names the model that answers the server's `sampling/createMessage` requests; it must be a `model` declared in the program that uses the server's tools. The message lists the models the program declares.",
    example: '{ "mcp_servers": { "docs": { "command": "docs-server", "sampling": { "model": "Gpt" } } } }   // the program declares no `model Gpt`',
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type McpClientCode = (typeof MCP_CLIENT_ENTRIES)[number]["code"];

export const mcpClientCodes: CatalogEntry[] = [...MCP_CLIENT_ENTRIES];
