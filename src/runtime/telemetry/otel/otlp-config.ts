/**
 * The exporter's settings from the standard OpenTelemetry environment variables (the OTLP
 * exporter specification): the traces endpoint is `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as
 * given, or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`; protocol, headers and timeout have
 * a general and a traces-only variable (the traces one wins). `OTEL_SERVICE_NAME` and
 * `OTEL_RESOURCE_ATTRIBUTES` describe the resource; `OTEL_BSP_SCHEDULE_DELAY` (ms) how long a
 * finished span may wait for its batch (Luma's default is 1000, not the SDKs' 5000: a server's
 * spans should show up while one looks). Only `http/protobuf` (the default) and
 * `http/json` are spoken; `grpc` falls back to `http/protobuf` with a warning.
 *
 * Header values (often a token) are never printed: a warning names the endpoint without
 * its credentials and nothing else.
 */
export type OtlpProtocol = "http/protobuf" | "http/json";

export interface OtlpConfig {
  url: string;
  /** The endpoint as messages may show it: no user, password or query. */
  label: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  timeoutMs: number;
  /** OTEL_BSP_SCHEDULE_DELAY: the longest a finished span waits before its batch is sent. */
  scheduleDelayMs: number;
  serviceName: string;
  resource: Record<string, string>;
  /** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true: prompts, arguments and results go into spans. */
  captureContent: boolean;
}

type Env = Record<string, string | undefined>;

const pick = (env: Env, name: string): string | undefined =>
  env[`OTEL_EXPORTER_OTLP_TRACES_${name}`] || env[`OTEL_EXPORTER_OTLP_${name}`] || undefined;

/** `k1=v1,k2=v2`, values percent-decoded (the W3C baggage-like form the spec uses). */
function keyValues(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? "").split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // Not percent-encoded after all: keep it as written.
    }
    if (key !== "") out[key] = value;
  }
  return out;
}

function tracesUrl(env: Env): string {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (traces) return traces;
  return env.OTEL_EXPORTER_OTLP_ENDPOINT!.replace(/\/+$/, "") + "/v1/traces";
}

function labelOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "the OTLP endpoint";
  }
}

export function readOtlpConfig(env: Env, warn: (line: string) => void): OtlpConfig {
  const url = tracesUrl(env);
  const asked = pick(env, "PROTOCOL") ?? "http/protobuf";
  let protocol: OtlpProtocol = "http/protobuf";
  if (asked === "http/json") protocol = "http/json";
  else if (asked !== "http/protobuf") warn(`warning: OTLP protocol '${asked}' is not supported; spans are sent as http/protobuf`);
  const timeout = Number(pick(env, "TIMEOUT"));
  const resource = keyValues(env.OTEL_RESOURCE_ATTRIBUTES);
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  return {
    url,
    label: labelOf(url),
    protocol,
    headers: { ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS), ...keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) },
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 10_000,
    scheduleDelayMs: env.OTEL_BSP_SCHEDULE_DELAY && Number.isFinite(delay) && delay >= 0 ? delay : 1_000,
    serviceName: env.OTEL_SERVICE_NAME || resource["service.name"] || "luma",
    resource,
    captureContent: (env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT ?? "").toLowerCase() === "true",
  };
}
