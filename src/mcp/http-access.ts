/**
 * Who may talk to `luma mcp --http`: the start-up rules for the address it listens on, and
 * the two checks every request passes before it reaches a session.
 *
 * On a loopback address (127.0.0.0/8, ::1, localhost) only programs on this machine reach the
 * server, and the `Host` check (DNS-rebinding protection) keeps browser pages of other sites
 * out. Any other address (0.0.0.0, a LAN or public one) serves whoever can reach it, write
 * tools included — so it starts only with a bearer token (`LUMA_MCP_TOKEN`, never a flag: argv
 * is visible to every user of the machine) and an explicit `--allowed-hosts` list, the names
 * clients reach it by, for the `Host` check. A token set for a loopback address is required
 * there too. The token is compared in constant time (both sides hashed to one length first).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { startupError } from "../diagnostics/luma-error";

export interface AccessRules {
  /** Every request must carry `Authorization: Bearer <token>` when set. */
  token?: string;
  /** The `Host` values requests may carry (`host:port`, or `host` alone as a proxy sends it). */
  hosts(port: number): string[];
}

const OCTET = "(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)";
const LOOPBACK_V4 = new RegExp(`^(?:::ffff:)?127\\.${OCTET}\\.${OCTET}\\.${OCTET}$`, "i");

/** Reached only from this machine. */
export const isLoopback = (hostname: string): boolean => hostname === "localhost" || hostname === "::1" || LOOPBACK_V4.test(hostname);

/** One `--allowed-hosts` entry: a DNS name, IPv4 address or bracketed IPv6 address, with an optional port. */
const HOST_ENTRY = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

function parseAllowedHosts(list: string): string[] {
  const entries = list.split(",").map((e) => e.trim()).filter((e) => e !== "");
  if (entries.length === 0) throw startupError("--allowed-hosts: expected a comma-separated list of host or host:port (e.g. mcp.example.com,10.0.0.5:8765).", { catalogCode: "E0804" });
  for (const entry of entries) {
    const m = HOST_ENTRY.exec(entry);
    if (!m || (m[1] !== undefined && Number(m[1]) > 65535)) {
      throw startupError(`--allowed-hosts: '${entry}' is not a host or host:port (letters, digits, '.', '-'; an IPv6 address in brackets).`, { catalogCode: "E0804" });
    }
  }
  return entries.map((e) => e.toLowerCase());
}

/**
 * The rules for serving at `hostname`, from `--allowed-hosts` and `LUMA_MCP_TOKEN` (or OAuth,
 * `oauth`); a non-loopback address without both is a start-up error naming what is missing.
 */
export function accessRules(address: string, hostname: string, allowedHosts: string | undefined, env: Record<string, string | undefined>, oauth = false): AccessRules {
  const token = env.LUMA_MCP_TOKEN;
  if (token !== undefined && (token.trim() === "" || /\s/.test(token))) {
    throw startupError("LUMA_MCP_TOKEN is set but empty or contains whitespace: set it to the bearer token clients send, or unset it.", { catalogCode: "E0804" });
  }
  const extra = allowedHosts === undefined ? [] : parseAllowedHosts(allowedHosts);
  const loopback = isLoopback(hostname);
  if (!loopback) {
    // OAuth (oauth-access.ts) authenticates every request as the token does.
    const missing = [token === undefined && !oauth ? "a bearer token in LUMA_MCP_TOKEN (clients send Authorization: Bearer <token>)" : "", allowedHosts === undefined ? "--allowed-hosts, the host names clients reach it by (for the Host check)" : ""].filter(Boolean);
    if (missing.length > 0) {
      throw startupError(`--http ${address}: ${hostname} is not a loopback address, so anyone who can reach it could call every served tool; serving there needs ${missing.join(" and ")}.`, { catalogCode: "E0804" });
    }
  }
  const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
  return {
    token,
    hosts(port) {
      const listed = extra.flatMap((e) => (/:\d+$/.test(e) ? [e] : [e, `${e}:${port}`]));
      return loopback ? [...new Set([`${shown}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, ...listed])] : listed;
    },
  };
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** The request carries the token (`Authorization: Bearer <token>`); compared in constant time. */
export function carriesToken(req: Request, token: string): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.get("authorization") ?? "");
  return timingSafeEqual(digest(m?.[1] ?? ""), digest(token)) && m !== null;
}

/** 401 with the JSON-RPC error body the transport uses for its own refusals. */
export const unauthorized = (): Response =>
  Response.json(
    { jsonrpc: "2.0", error: { code: -32001, message: "Unauthorized: send Authorization: Bearer <the server's LUMA_MCP_TOKEN>" }, id: null },
    { status: 401, headers: { "www-authenticate": 'Bearer realm="luma mcp"' } },
  );
