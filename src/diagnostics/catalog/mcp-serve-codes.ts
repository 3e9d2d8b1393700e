import type { CatalogEntry } from "./catalog-entry";

/**
 * `luma mcp` serving a program, its start-up settings (E0680–E0689): what the server is told
 * through its environment and `luma.config.json` before it serves.
 */
const MCP_SERVE_ENTRIES = [
  {
    code: "E0680",
    title: "LUMA_MCP_PAGE_SIZE is not a page size",
    explanation:
      "`luma mcp` lists tools, resources and resource templates a page at a time (a `nextCursor` while more follow). `LUMA_MCP_PAGE_SIZE` sets the entries of a page: a whole number from 1 to 10000 (default 100). Any other value stops the server before it serves.",
    example: "LUMA_MCP_PAGE_SIZE=0 luma mcp app.luma",
  },
  {
    code: "E0681",
    title: "mcp_serve.oauth's issuer cannot be read",
    explanation:
      "With `mcp_serve.oauth` in luma.config.json, `luma mcp --http` accepts only JWTs signed by the issuer's keys. At start-up it reads the issuer's metadata (`/.well-known/oauth-authorization-server`, else `/.well-known/openid-configuration`) for its `jwks_uri`; metadata that cannot be fetched, names another issuer or has no `jwks_uri` stops the server before it serves.",
    example: '{ "mcp_serve": { "oauth": { "issuer": "https://auth.example.invalid" } } }',
  },
  {
    code: "E0682",
    title: "mcp_serve.oauth and LUMA_MCP_TOKEN together",
    explanation:
      "`luma mcp --http` takes either the issuer's JWTs (`mcp_serve.oauth` in luma.config.json) or the plain shared bearer of LUMA_MCP_TOKEN (for simple setups), not both: one of the two decides who may call, so a server configured with both does not start.",
    example: 'LUMA_MCP_TOKEN=s3cret luma mcp app.luma --http 8765   # luma.config.json has "mcp_serve": { "oauth": … }',
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type McpServeCode = (typeof MCP_SERVE_ENTRIES)[number]["code"];

export const mcpServeCodes: CatalogEntry[] = [...MCP_SERVE_ENTRIES];
