/**
 * A tool's options (spec §4 "Tool options"), parsed once from its declaration entries.
 * Defaults live here and nowhere else.
 */
import type { ConfigValue, ToolDecl } from "../../../syntax/ast";
import { readBool, readEntries, readNumber, readPath, readString } from "./config-values";

export type SideEffects = "none" | "read" | "write";
export type RetryBackoff = "none" | "fixed" | "exponential";

export interface ToolOptions {
  sideEffects: SideEffects;
  cache: boolean;
  scope?: string;
  credential?: string;
  /** Name of the schema a thrown typed error is validated against. */
  error?: string;
  retries: number;
  retryBackoff: RetryBackoff;
  retryDelay: number;
  timeout?: number;
  idempotent: boolean;
  /** Path into the validated input, without a leading `input.`. */
  idempotencyKey?: string[];
  idempotencyTtlMs: number;
  description?: string;
  /** The `mcp_servers` entry whose tool is the handler (src/mcp/), and that tool's name there. */
  mcp?: string;
  mcpTool?: string;
}

/**
 * Every field is present, the optional ones as undefined, so the options of every tool share
 * one object shape: the steps read them on every call, and reads that see one shape stay fast.
 */
export const defaultToolOptions = (): ToolOptions => ({
  sideEffects: "none",
  cache: false,
  scope: undefined,
  credential: undefined,
  error: undefined,
  retries: 0,
  retryBackoff: "none",
  retryDelay: 100,
  timeout: undefined,
  idempotent: false,
  idempotencyKey: undefined,
  idempotencyTtlMs: 300_000,
  description: undefined,
  mcp: undefined,
  mcpTool: undefined,
});

const oneOf = <T extends string>(allowed: readonly T[], v: ConfigValue): T | undefined => {
  const s = readString(v);
  return allowed.includes(s as T) ? (s as T) : undefined;
};

const set = <K extends keyof ToolOptions>(o: ToolOptions, key: K, value: ToolOptions[K] | undefined) => {
  if (value !== undefined) o[key] = value;
};

const READERS: Record<string, (v: ConfigValue, o: ToolOptions) => void> = {
  side_effects: (v, o) => set(o, "sideEffects", oneOf(["none", "read", "write"], v)),
  cache: (v, o) => set(o, "cache", readBool(v)),
  scope: (v, o) => set(o, "scope", readString(v)),
  credential: (v, o) => set(o, "credential", readString(v)),
  error: (v, o) => set(o, "error", readString(v)),
  retries: (v, o) => set(o, "retries", readNumber(v)),
  retry_backoff: (v, o) => set(o, "retryBackoff", oneOf(["none", "fixed", "exponential"], v)),
  retry_delay: (v, o) => set(o, "retryDelay", readNumber(v)),
  timeout: (v, o) => set(o, "timeout", readNumber(v)),
  idempotent: (v, o) => set(o, "idempotent", readBool(v)),
  idempotency_key: (v, o) => {
    const path = readPath(v);
    // `input.request_id` and `request_id` name the same field.
    set(o, "idempotencyKey", path && path.length > 1 && path[0] === "input" ? path.slice(1) : path);
  },
  idempotency_ttl_ms: (v, o) => set(o, "idempotencyTtlMs", readNumber(v)),
  description: (v, o) => set(o, "description", readString(v)),
  mcp: (v, o) => set(o, "mcp", readString(v)),
  mcp_tool: (v, o) => set(o, "mcpTool", readString(v)),
};

export const readToolOptions = (decl: ToolDecl): ToolOptions => readEntries(decl.options, READERS, defaultToolOptions());
