/**
 * What a served call tells its client while it runs: **logging** (`notifications/message`)
 * and **progress** (`notifications/progress`, only for a request that carries a progress
 * token). Both go on the call's own stream (Streamable HTTP), so a client sees them beside
 * the answer they belong to.
 *
 * Log lines come from the program's output sinks, which serve every session at once: a
 * method's `print`, a warning or soft-rule note, a tool handler's `console` line. Which call
 * a line belongs to is the async context it was written in (AsyncLocalStorage: each
 * `tools/call` runs inside `withNotices`), so a line written by one client's call never
 * reaches another client. Outside any call (start-up) a line only goes where it always did.
 * Each line still goes to its usual sink (stderr, or stdout over HTTP) as well.
 *
 * The session's level (`logging/setLevel`) filters what is sent: the syslog order of RFC
 * 5424, as MCP uses it; `info` until the client sets one.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ProgressSink } from "../runtime/tools/tool-invoker-types";
import type { Sampler } from "./sampling-transport";

/** MCP's log levels (RFC 5424), least severe first. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface CallNotices {
  log(level: LogLevel, logger: string, data: string): void;
  /** Absent when the request carries no progress token. */
  progress?: ProgressSink;
  /** Asks the calling client to sample for a `provider: "mcp"` model (sampling-transport.ts). */
  sample?: Sampler;
  /** Forwards an MCP server's elicitation request to the calling client (answer-elicitation.ts). */
  elicit?: Elicitor;
}

/** An `elicitation/create` request's params, asked of the client of a served call; its answer as the client gave it. */
export type Elicitor = (params: Record<string, unknown>) => Promise<Record<string, unknown>>;

const current = new AsyncLocalStorage<CallNotices>();

/** Runs one served call with its notices: every line written inside it (awaits included) is its. */
export const withNotices = <T>(notices: CallNotices, run: () => T): T => current.run(notices, run);

/** The sampler of the call running in this async context, if any. */
export const currentSampler = (): Sampler | undefined => current.getStore()?.sample;

/** The elicitor of the served call running in this async context, if any. */
export const currentElicitor = (): Elicitor | undefined => current.getStore()?.elicit;

/** The level a line of the program's stderr is sent at, from how it starts. */
const levelOfLine = (line: string): LogLevel =>
  /^warning\b/i.test(line) ? "warning" : /^note\b/i.test(line) ? "notice" : /^error\b/i.test(line) ? "error" : "info";

/** The program's `print` sink: each line also goes to the calling client, at `info`, as logger `print`. */
export const printSink = (write: (line: string) => void) => (line: string): void => {
  write(line);
  current.getStore()?.log("info", "print", line);
};

/** The program's stderr sink (warnings, notes, handlers' console lines): each line also goes to the calling client. */
export const stderrSink = (write: (line: string) => void) => (line: string): void => {
  write(line);
  current.getStore()?.log(levelOfLine(line), "luma", line);
};

/** One session's `logging/setLevel`: what it asked for, and whether a level passes. */
export class SessionLogLevel {
  private least = LOG_LEVELS.indexOf("info");
  set(level: LogLevel): void {
    this.least = LOG_LEVELS.indexOf(level);
  }
  allows(level: LogLevel): boolean {
    return LOG_LEVELS.indexOf(level) >= this.least;
  }
}

type Notify = (notification: { method: string; params: Record<string, unknown> }) => Promise<void>;

/**
 * The notices of one request: its log lines when the session's level lets them through, and
 * its progress when it carries a token — counted here, so the numbers only go up however
 * many tool calls and `ask` turns a method makes. `total` is the steps of a direct tool call's
 * plan (while the count stays within it); `message` (what runs now) only where the session's
 * version defines it (2025-03-26 on).
 */
export function callNotices(level: SessionLogLevel, notify: Notify, progress: { progressToken?: string | number; withMessage: boolean }): CallNotices {
  const { progressToken, withMessage } = progress;
  // A notice that cannot be delivered (the client went away) is not the call's failure.
  const send = (method: string, params: Record<string, unknown>) => void notify({ method, params }).catch(() => undefined);
  let count = 0;
  return {
    log: (lvl, logger, data) => {
      if (level.allows(lvl)) send("notifications/message", { level: lvl, logger, data });
    },
    progress:
      progressToken === undefined
        ? undefined
        : (message, _done, total) => {
            count++;
            const params: Record<string, unknown> = { progressToken, progress: count };
            if (total !== undefined && count <= total) params.total = total;
            if (withMessage) params.message = message;
            send("notifications/progress", params);
          },
  };
}
