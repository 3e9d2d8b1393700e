/**
 * Pagination of `tools/list`, `resources/list` and `resources/templates/list`: at most
 * `pageSize` entries a page, and a `nextCursor` while more follow. A cursor is opaque to the
 * client (base64url of `p1:<offset>`); one Luma did not hand out — not base64 of that form,
 * or past the end — is invalid params (JSON-RPC −32602), as the protocol asks.
 */
import { INVALID_PARAMS, ProtocolError } from "./protocol-error";
import { startupError } from "../diagnostics/luma-error";

/** Entries of a page when LUMA_MCP_PAGE_SIZE does not say otherwise. */
export const DEFAULT_PAGE_SIZE = 100;

const encode = (offset: number) => Buffer.from(`p1:${offset}`).toString("base64url");

const decode = (cursor: string, length: number): number => {
  const m = /^p1:(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const offset = m ? Number(m[1]) : NaN;
  if (!(offset > 0 && offset < length)) throw new ProtocolError(INVALID_PARAMS, `Invalid cursor: ${JSON.stringify(cursor.slice(0, 64))} was not handed out by this server.`);
  return offset;
};

/** One page of `items` from `cursor` (the first without one). */
export function page<T>(items: readonly T[], cursor: string | undefined, pageSize: number): { items: T[]; nextCursor?: string } {
  const from = cursor === undefined ? 0 : decode(cursor, items.length);
  const to = from + pageSize;
  return to < items.length ? { items: items.slice(from, to), nextCursor: encode(to) } : { items: items.slice(from) };
}

/** `LUMA_MCP_PAGE_SIZE`: a whole number from 1 to 10,000; anything else does not start (E0680). */
export function pageSizeFrom(env: Record<string, string | undefined>): number {
  const text = env.LUMA_MCP_PAGE_SIZE;
  if (text === undefined) return DEFAULT_PAGE_SIZE;
  const n = /^\d{1,5}$/.test(text.trim()) ? Number(text) : NaN;
  if (!(n >= 1 && n <= 10_000)) {
    throw startupError(`LUMA_MCP_PAGE_SIZE=${JSON.stringify(text.slice(0, 40))}: expected a whole number of list entries from 1 to 10000.`, { catalogCode: "E0680" });
  }
  return n;
}
