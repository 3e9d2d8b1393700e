/**
 * The `@format` checks (spec §3), registered in TypeBox's FormatRegistry once, lazily, so
 * compiled validators and the issue walker call the very same function.
 *
 * Deliberately plain: `email` is "something@domain.tld" without spaces (deliverability is
 * not a schema's business); `uri` is an absolute URI with a scheme that `URL` accepts;
 * `uuid` any version in 8-4-4-4-12 hex; `date`/`date-time` are RFC 3339 and the calendar
 * date must exist (no February 30th).
 */
import { FormatRegistry } from "@sinclair/typebox";
import { FORMATS, type FormatName } from "./annotations";

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= (m === 2 && !leap ? 28 : DAYS_IN_MONTH[m - 1]);
}

function isUri(v: string): boolean {
  if (!SCHEME.test(v) || /\s/.test(v)) return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

function isDateTime(v: string): boolean {
  const m = DATE_TIME.exec(v);
  if (!m) return false;
  const [h, min, s] = [Number(m[4]), Number(m[5]), Number(m[6])];
  const offsetOk = m[9] === undefined || (Number(m[9]) < 24 && Number(m[10]) < 60);
  return validDate(Number(m[1]), Number(m[2]), Number(m[3])) && h < 24 && min < 60 && s <= 60 && offsetOk;
}

export const FORMAT_CHECKS: Record<FormatName, (value: string) => boolean> = {
  email: (v) => EMAIL.test(v),
  uri: isUri,
  uuid: (v) => UUID.test(v),
  date: (v) => {
    const m = DATE.exec(v);
    return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
  },
  "date-time": isDateTime,
};

let registered = false;

/** Register Luma's formats with TypeBox (once; a format someone else registered first is kept). */
export function ensureFormatsRegistered(): void {
  if (registered) return;
  for (const name of FORMATS) if (!FormatRegistry.Has(name)) FormatRegistry.Set(name, FORMAT_CHECKS[name]);
  registered = true;
}

/** The check TypeBox will run for `format`, so the issue walker never disagrees with it. */
export function formatCheck(format: string): (value: string) => boolean {
  ensureFormatsRegistered();
  return FormatRegistry.Get(format) ?? (() => false);
}
