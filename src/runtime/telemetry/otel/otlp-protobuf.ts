/**
 * OTLP/HTTP's `http/protobuf` body, hand-written (no runtime dependency): an
 * ExportTraceServiceRequest encoded with the field numbers of opentelemetry-proto's
 * `collector/trace/v1/trace_service.proto`, `trace/v1/trace.proto`, `common/v1/common.proto`
 * and `resource/v1/resource.proto`. Only the fields Luma fills are written; a field at its
 * default is left out, as proto3 does.
 *
 * Tests decode the output with decoders generated from the official .proto files.
 */
import { presentAttributes, SCOPE, type AttrValue, type Attributes, type Resource, type SpanData } from "./span-model";

const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;

/** A growable byte buffer with the four protobuf wire types Luma needs. */
class Writer {
  private buf = new Uint8Array(256);
  len = 0;
  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  byte(b: number): void {
    this.room(1);
    this.buf[this.len++] = b;
  }
  varint(v: number | bigint): void {
    let n = BigInt.asUintN(64, BigInt(v));
    while (n > 0x7fn) {
      this.byte(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    this.byte(Number(n));
  }
  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }
  bytes(field: number, b: Uint8Array): void {
    this.tag(field, LEN);
    this.varint(b.length);
    this.room(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
  string(field: number, s: string): void {
    if (s !== "") this.bytes(field, new TextEncoder().encode(s));
  }
  fixed64(field: number, v: bigint): void {
    this.tag(field, I64);
    this.room(8);
    new DataView(this.buf.buffer).setBigUint64(this.len, v, true);
    this.len += 8;
  }
  double(field: number, v: number): void {
    this.tag(field, I64);
    this.room(8);
    new DataView(this.buf.buffer).setFloat64(this.len, v, true);
    this.len += 8;
  }
  fixed32(field: number, v: number): void {
    this.tag(field, I32);
    this.room(4);
    new DataView(this.buf.buffer).setUint32(this.len, v, true);
    this.len += 4;
  }
  message(field: number, write: (w: Writer) => void): void {
    const inner = new Writer();
    write(inner);
    this.bytes(field, inner.finish());
  }
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

/** common.proto AnyValue: string_value 1, bool_value 2, int_value 3, double_value 4, array_value 5. */
function anyValue(w: Writer, v: AttrValue): void {
  if (typeof v === "string") w.bytes(1, new TextEncoder().encode(v));
  else if (typeof v === "boolean") {
    w.tag(2, VARINT);
    w.varint(v ? 1 : 0);
  } else if (typeof v === "number") {
    if (Number.isSafeInteger(v)) {
      w.tag(3, VARINT);
      w.varint(BigInt(v));
    } else w.double(4, v);
  } else w.message(5, (a) => v.forEach((s) => a.message(1, (x) => anyValue(x, s)))); // ArrayValue.values 1
}

/** common.proto KeyValue: key 1, value 2. */
function attributes(w: Writer, field: number, attrs: Attributes): void {
  for (const [key, value] of presentAttributes(attrs)) {
    w.message(field, (kv) => {
      kv.string(1, key);
      kv.message(2, (av) => anyValue(av, value));
    });
  }
}

/** trace.proto Span. */
function span(w: Writer, s: SpanData): void {
  w.bytes(1, s.traceId);
  w.bytes(2, s.spanId);
  if (s.parentSpanId) w.bytes(4, s.parentSpanId);
  w.string(5, s.name);
  w.tag(6, VARINT);
  w.varint(s.kind);
  w.fixed64(7, s.startNs);
  w.fixed64(8, s.endNs);
  attributes(w, 9, s.attributes);
  // Status: code 3 (message 2 is left out: error texts stay out of spans).
  if (s.status !== 0) w.message(15, (st) => (st.tag(3, VARINT), st.varint(s.status)));
  // flags 16: the low byte is the W3C trace flags (sampled).
  w.fixed32(16, 0x101);
}

/** ExportTraceServiceRequest { resource_spans 1: ResourceSpans { resource 1, scope_spans 2: ScopeSpans { scope 1, spans 2 } } }. */
export function encodeTraceRequest(resource: Resource, spans: readonly SpanData[], version: string): Uint8Array {
  const w = new Writer();
  w.message(1, (rs) => {
    rs.message(1, (r) => attributes(r, 1, resource.attributes));
    rs.message(2, (ss) => {
      ss.message(1, (sc) => {
        sc.string(1, SCOPE.name);
        sc.string(2, version);
      });
      for (const s of spans) ss.message(2, (x) => span(x, s));
    });
  });
  return w.finish();
}
