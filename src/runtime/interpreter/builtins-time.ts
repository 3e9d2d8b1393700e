/**
 * The time builtins (issue #28 §2). Times are ints: milliseconds since 1970-01-01T00:00Z,
 * so they add, subtract and compare as numbers (`deadline = now_ms() + 60 * 1000`).
 *
 * - `now_ms()`: the current time (a journaled run's recorded clock, as `now()`).
 * - `parse_time(s)`: ISO-8601 text — `2025-01-31`, `2025-01-31T12:00`, `…T12:00:05`,
 *   `…T12:00:05.250`, each with `Z` or `±HH:MM` (or `±HHMM`), a space allowed for `T`.
 *   Without a zone the time is UTC. Anything else, or a date that does not exist
 *   (`2025-02-30`), is a RUNTIME_ERROR quoting the text.
 * - `format_time(ms, pattern?)`: always in UTC. Without a pattern, ISO-8601 with
 *   milliseconds (`2025-01-31T12:00:05.250Z`). A pattern's tokens: `YYYY` year, `MM` month
 *   01–12, `MMM` month name (Jan), `DD` day 01–31, `ddd` weekday (Mon), `HH` hour 00–23,
 *   `mm` minute, `ss` second, `SSS` millisecond; text in `[brackets]` is written as it is;
 *   every other character is itself.
 */
import type { Span } from "../../syntax/ast";
import type { BuiltinTable } from "./builtins";
import { badValue, intArg, quoted, stringArg } from "./builtin-args";
import type { Runtime } from "./runtime-context";

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** The instant an ISO-8601 text names, or undefined when it names none. */
export function parseIsoTime(text: string): number | undefined {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = m;
  const parts = [y, mo, d, h, mi, s].map(Number);
  const [year, month, day, hour, minute, second] = parts;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Number((frac + "000").slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 2025-02-30 over to March: a date that does not exist is refused.
  if (new Date(utc).getUTCDate() !== day) return undefined;
  if (!m[4] && zone) return undefined;
  let offset = 0;
  if (zone && zone !== "Z") {
    const digits = zone.replace(":", "");
    const sign = digits[0] === "-" ? -1 : 1;
    const zh = Number(digits.slice(1, 3));
    const zm = Number(digits.slice(3, 5));
    if (zh > 23 || zm > 59) return undefined;
    offset = sign * (zh * 60 + zm) * 60_000;
  }
  return utc - offset;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const TOKEN = /\[([^\]]*)\]|YYYY|MMM|MM|DD|ddd|HH|mm|ss|SSS/g;
/** The greatest instant a JavaScript date holds (±100,000,000 days). */
const MAX_TIME = 8.64e15;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** An instant written by a pattern's tokens, in UTC. */
export function formatTime(ms: number, pattern: string): string {
  const d = new Date(ms);
  return pattern.replace(TOKEN, (token, literal: string | undefined) => {
    if (literal !== undefined) return literal;
    switch (token) {
      case "YYYY":
        return pad(d.getUTCFullYear(), 4);
      case "MMM":
        return MONTHS[d.getUTCMonth()];
      case "MM":
        return pad(d.getUTCMonth() + 1);
      case "DD":
        return pad(d.getUTCDate());
      case "ddd":
        return WEEKDAYS[d.getUTCDay()];
      case "HH":
        return pad(d.getUTCHours());
      case "mm":
        return pad(d.getUTCMinutes());
      case "ss":
        return pad(d.getUTCSeconds());
      default:
        return pad(d.getUTCMilliseconds(), 3);
    }
  });
}

function timeArg(rt: Runtime, v: Parameters<typeof intArg>[2], span: Span): number {
  const ms = intArg(rt, "format_time", v, span, "a time in ms (an int)");
  return Math.abs(ms) <= MAX_TIME ? ms : badValue(rt, `format_time() cannot write ${ms}: out of the range of dates`, span);
}

export const TIME_BUILTINS = {
  now_ms: { run: (_args, rt) => (rt.host.now ? rt.host.now() : new Date()).getTime() },
  parse_time: {
    run([s], rt, span) {
      const text = stringArg(rt, "parse_time", s, span);
      const ms = parseIsoTime(text);
      if (ms === undefined) return badValue(rt, `parse_time() cannot read ${quoted(text)} as an ISO-8601 time (like 2025-01-31T12:00:00Z)`, span);
      return ms;
    },
  },
  format_time: {
    run([ms, pattern], rt, span) {
      const time = timeArg(rt, ms, span);
      if (pattern === undefined || pattern === null) return new Date(time).toISOString();
      return formatTime(time, stringArg(rt, "format_time", pattern, span));
    },
  },
} satisfies BuiltinTable;
