/**
 * Test support: an OTLP/HTTP trace receiver on 127.0.0.1 that decodes what it gets with the
 * decoders generated from the official opentelemetry-proto definitions (the dev dependency
 * @opentelemetry/otlp-transformer ships them, built with protobufjs) — so a field number
 * or wire type wrong in Luma's hand-written encoder fails here. `http/json` bodies are
 * read with the same definitions' JSON mapping (hex ids, as OTLP/JSON specifies).
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const root = require("@opentelemetry/otlp-transformer/build/src/generated/root.js");
const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, unknown>;
  status: number;
}

export interface Receiver {
  url: string;
  spans: ReceivedSpan[];
  /** Every request: its content type, headers and the decoded resource attributes. */
  requests: { contentType: string; headers: Record<string, string>; resource: Record<string, unknown> }[];
  /** Raw bodies (for "no secret in the export" scans). */
  raw: string[];
  stop(): void;
}

const hex = (b: Uint8Array | string | undefined | null): string =>
  b === undefined || b === null || b.length === 0 ? "" : typeof b === "string" ? b : Buffer.from(b).toString("hex");

/** A decoded AnyValue: protobufjs fills the one set field (the `value` oneof says which). */
function value(v: any): unknown {
  const which = v.value ?? Object.keys(v).find((k) => k.endsWith("Value"));
  if (which === "intValue") return Number(v.intValue.toString());
  if (which === "arrayValue") return v.arrayValue.values.map(value);
  return v[which];
}

const attrs = (list: any[]): Record<string, unknown> => Object.fromEntries(list.map((kv) => [kv.key, value(kv.value)]));

const JSON_VALUE = (v: any): unknown =>
  "stringValue" in v ? v.stringValue : "boolValue" in v ? v.boolValue : "intValue" in v ? Number(v.intValue) : "doubleValue" in v ? v.doubleValue : v.arrayValue.values.map(JSON_VALUE);

export function startReceiver(status = 200): Receiver {
  const r: Receiver = { url: "", spans: [], requests: [], raw: [], stop: () => server.stop(true) };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const contentType = req.headers.get("content-type") ?? "";
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => (headers[k] = v));
      const bytes = new Uint8Array(await req.arrayBuffer());
      r.raw.push(Buffer.from(bytes).toString("latin1"));
      if (contentType === "application/json") {
        const body = JSON.parse(new TextDecoder().decode(bytes));
        for (const rs of body.resourceSpans) {
          r.requests.push({ contentType, headers, resource: Object.fromEntries(rs.resource.attributes.map((a: any) => [a.key, JSON_VALUE(a.value)])) });
          for (const ss of rs.scopeSpans)
            for (const s of ss.spans)
              r.spans.push({
                traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? "", name: s.name, kind: s.kind,
                start: BigInt(s.startTimeUnixNano), end: BigInt(s.endTimeUnixNano),
                attributes: Object.fromEntries(s.attributes.map((a: any) => [a.key, JSON_VALUE(a.value)])), status: s.status?.code ?? 0,
              });
        }
      } else {
        const msg = Request.decode(bytes);
        for (const rs of msg.resourceSpans) {
          r.requests.push({ contentType, headers, resource: attrs(rs.resource.attributes) });
          for (const ss of rs.scopeSpans)
            for (const s of ss.spans)
              r.spans.push({
                traceId: hex(s.traceId), spanId: hex(s.spanId), parentSpanId: hex(s.parentSpanId), name: s.name, kind: s.kind,
                start: BigInt(s.startTimeUnixNano.toString()), end: BigInt(s.endTimeUnixNano.toString()),
                attributes: attrs(s.attributes), status: s.status?.code ?? 0,
              });
        }
      }
      return new Response(status === 200 ? "{}" : "no", { status });
    },
  });
  r.url = `http://127.0.0.1:${server.port}`;
  return r;
}
