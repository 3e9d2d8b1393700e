/**
 * The spans Luma exports, as plain data: what both OTLP encodings (otlp-protobuf.ts,
 * otlp-json.ts) serialise. Attribute values are strings, booleans, numbers (an integer
 * is an OTLP int, anything else a double) or string lists — all the GenAI conventions need.
 */
export type AttrValue = string | number | boolean | readonly string[];
export type Attributes = Record<string, AttrValue | null | undefined>;

/** OTLP SpanKind: INTERNAL for in-process work, CLIENT for a request to a provider. */
export const SPAN_KIND = { internal: 1, client: 3 } as const;
/** OTLP Status.StatusCode. */
export const STATUS = { unset: 0, ok: 1, error: 2 } as const;

export interface SpanData {
  traceId: Uint8Array;
  spanId: Uint8Array;
  parentSpanId?: Uint8Array;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Attributes;
  status: number;
}

export interface Resource {
  attributes: Attributes;
}

/** The instrumentation scope every span is reported under (its version is Luma's). */
export const SCOPE = { name: "luma" };

export const randomId = (bytes: 8 | 16): Uint8Array => crypto.getRandomValues(new Uint8Array(bytes));

/** Wall-clock now in ns, with performance.now()'s sub-ms precision (spans need both). */
export const nowNs = (): bigint => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)) * 1000n;

export const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** Attributes without the absent ones, in insertion order. */
export const presentAttributes = (a: Attributes): [string, AttrValue][] =>
  Object.entries(a).filter((e): e is [string, AttrValue] => e[1] !== undefined && e[1] !== null);
