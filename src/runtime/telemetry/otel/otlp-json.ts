/**
 * OTLP/HTTP's `http/json` body: the same ExportTraceServiceRequest in the protobuf JSON
 * mapping the OTLP specification prescribes — lowerCamelCase field names, trace and span
 * ids as hex (not base64), enums as numbers, 64-bit integers as decimal strings.
 */
import { hex, presentAttributes, SCOPE, type AttrValue, type Attributes, type Resource, type SpanData } from "./span-model";

function anyValue(v: AttrValue): object {
  if (typeof v === "string") return { stringValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  if (typeof v === "number") return Number.isSafeInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  return { arrayValue: { values: v.map(anyValue) } };
}

const attributes = (a: Attributes) => presentAttributes(a).map(([key, value]) => ({ key, value: anyValue(value) }));

export function encodeTraceRequestJson(resource: Resource, spans: readonly SpanData[], version: string): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: attributes(resource.attributes) },
        scopeSpans: [
          {
            scope: { name: SCOPE.name, version },
            spans: spans.map((s) => ({
              traceId: hex(s.traceId),
              spanId: hex(s.spanId),
              ...(s.parentSpanId ? { parentSpanId: hex(s.parentSpanId) } : {}),
              name: s.name,
              kind: s.kind,
              startTimeUnixNano: String(s.startNs),
              endTimeUnixNano: String(s.endNs),
              attributes: attributes(s.attributes),
              ...(s.status !== 0 ? { status: { code: s.status } } : {}),
              flags: 0x101,
            })),
          },
        ],
      },
    ],
  });
}
