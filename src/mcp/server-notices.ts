/**
 * What an MCP server tells Luma's client while it works: **log lines**
 * (`notifications/message`) and **progress** of a call (`notifications/progress`, sent only
 * for a call that carries a progress token). Both become trace events (`mcp.log`,
 * `mcp.progress`); a log line at `warning` or above also goes to stderr, trace or not.
 *
 * Cheap when off: a call asks for progress (the SDK adds a progress token) only while the run
 * has a trace; a log line below `warning` without a trace is dropped where it arrives. The
 * server's text is its own, so it is cut at MAX_TEXT characters and goes out without the
 * connection's secrets (a header value it echoes back).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { LOG_LEVELS, type LogLevel } from "./call-notices";

const MAX_TEXT = 200;
const WARNING = LOG_LEVELS.indexOf("warning");

const cut = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

export interface NoticeSinks {
  server: string;
  /** The run's trace, once it exists (absent without `--trace`). */
  trace: () => ((event: object) => void) | undefined;
  /** A whole line on stderr. */
  stderr?: (line: string) => void;
  redact: (text: string) => string;
}

/** Takes this client's log notifications: trace events, and stderr lines from `warning` up. */
export function takeServerLogs(client: Client, sinks: NoticeSinks): void {
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const { level, logger, data } = notification.params;
    const trace = sinks.trace();
    const loud = LOG_LEVELS.indexOf(level as LogLevel) >= WARNING;
    if (trace === undefined && !loud) return;
    const message = cut(sinks.redact(typeof data === "string" ? data : JSON.stringify(data) ?? String(data)));
    trace?.({ event: "mcp.log", server: sinks.server, level, logger: logger ?? null, message });
    if (loud) sinks.stderr?.(`${level === "warning" ? "warning" : "error"}: MCP server '${sinks.server}'${logger ? ` (${logger})` : ""} logged ${level}: ${message}`);
  });
}

/** The `onprogress` of one call of `tool` while the run has a trace; undefined otherwise (no progress token is sent). */
export function progressOf(sinks: NoticeSinks, tool: string): ((p: Progress) => void) | undefined {
  const trace = sinks.trace();
  if (trace === undefined) return undefined;
  return (p) =>
    trace({
      event: "mcp.progress",
      server: sinks.server,
      tool,
      progress: p.progress,
      total: p.total ?? null,
      message: p.message === undefined ? null : cut(sinks.redact(p.message)),
    });
}
