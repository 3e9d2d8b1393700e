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
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type McpServeCode = (typeof MCP_SERVE_ENTRIES)[number]["code"];

export const mcpServeCodes: CatalogEntry[] = [...MCP_SERVE_ENTRIES];
