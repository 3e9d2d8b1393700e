/**
 * The OpenTelemetry exporter: loaded by open-program.ts only when an OTLP endpoint is set.
 *
 * - One trace per run: every span shares the run's trace id; spans of work inside an agent
 *   method call are children of its `invoke_agent` span (AsyncLocalStorage carries the
 *   current span across awaits, so parallel tool calls and nested agent calls nest right).
 *   A long-lived process gives each request a trace of its own (`newTrace`: `luma mcp` wraps
 *   each `tools/call` in one).
 * - Spans are batched as the OpenTelemetry batch span processor does: a batch is sent when
 *   512 spans wait, or `OTEL_BSP_SCHEDULE_DELAY` ms (default 1000) after the first of them
 *   ended — so a server's spans leave within about a second, not at exit. The timer never
 *   keeps the process alive; `flush` — awaited by the run's end, also when the run failed —
 *   sends the rest and waits for every send.
 * - A collector that is down, slow or answers an error costs a warning line, never the run:
 *   each send has the OTLP timeout (default 10 s) and a failure is reported once per outage
 *   (by the timed send that met it, or by `flush`), not once per batch.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { VERSION } from "../../../version";
import type { ContentThunk, Telemetry } from "../telemetry";
import { spanOfEvent, type GenAiProviderName, type ToolDescription } from "./genai-spans";
import { encodeTraceRequestJson } from "./otlp-json";
import { encodeTraceRequest } from "./otlp-protobuf";
import { readOtlpConfig, type OtlpConfig } from "./otlp-config";
import { nowNs, randomId, SPAN_KIND, STATUS, type Resource, type SpanData } from "./span-model";

const BATCH = 512;

interface SpanContext {
  traceId: Uint8Array;
  /** Absent at the root of a request's own trace (newTrace). */
  spanId?: Uint8Array;
}

/**
 * `genAiProviderName`: each provider family's `gen_ai.provider.name` (providers/families.ts
 * `telemetryNameOf`); `toolDescription`: a tool's `description` (runtime/tool-descriptions.ts).
 */
export function createOtelTelemetry(
  env: Record<string, string | undefined>,
  warn: (line: string) => void,
  genAiProviderName: GenAiProviderName,
  toolDescription: ToolDescription = () => undefined,
): Telemetry {
  const config = readOtlpConfig(env, warn);
  const spanMakers = spanOfEvent(genAiProviderName, toolDescription);
  const traceId = randomId(16);
  const current = new AsyncLocalStorage<SpanContext>();
  const resource: Resource = {
    attributes: { ...config.resource, "service.name": config.serviceName, "telemetry.sdk.name": "luma", "telemetry.sdk.version": VERSION },
  };
  let pending: SpanData[] = [];
  const sends = new Set<Promise<void>>();
  let failure: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** A failure reported by a timed send (nobody awaits it): warned at once, once per outage. */
  let warnedOutage = false;

  const send = (spans: SpanData[]) => {
    const p = post(config, resource, spans).then(
      (problem) => void (problem && (failure ??= problem)),
      (e) => void (failure ??= (e as Error).message),
    );
    sends.add(p);
    void p.finally(() => sends.delete(p));
  };
  const sendPending = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.length > 0) send(pending);
    pending = [];
  };
  const finish = (span: SpanData) => {
    pending.push(span);
    if (pending.length >= BATCH) sendPending();
    else if (timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        sendPending();
        // Between flushes (a server), a failed send is warned now rather than at exit.
        void Promise.all([...sends]).then(() => {
          if (failure !== undefined && !warnedOutage) warn(`warning: could not export spans to ${config.label}: ${failure}`);
          warnedOutage = failure !== undefined;
          failure = undefined;
        });
      }, config.scheduleDelayMs);
      timer.unref?.();
    }
  };

  /** A span around `run`, the parent of every span made inside it (across awaits). */
  const within = async <T>(name: string, attributes: Record<string, string | undefined>, run: () => Promise<T>): Promise<T> => {
    const parent = current.getStore();
    const spanId = randomId(8);
    const ctx: SpanContext = { traceId: parent?.traceId ?? traceId, spanId };
    const start = nowNs();
    const span = (error?: unknown) =>
      finish({
        traceId: ctx.traceId,
        spanId,
        parentSpanId: parent?.spanId,
        name,
        kind: SPAN_KIND.internal,
        startNs: start,
        endNs: nowNs(),
        attributes: { ...attributes, "error.type": error === undefined ? null : ((error as { code?: string }).code ?? "RUNTIME_ERROR") },
        status: error === undefined ? STATUS.unset : STATUS.error,
      });
    try {
      const value = await current.run(ctx, run);
      span();
      return value;
    } catch (e) {
      span(e);
      throw e;
    }
  };

  return {
    observe(event: object, content?: ContentThunk) {
      const e = event as { event?: string; duration_ms?: number };
      const shape = e.event === undefined ? undefined : spanMakers[e.event]?.(e, config.captureContent ? content : undefined);
      if (!shape) return;
      const end = nowNs();
      const parent = current.getStore();
      finish({
        traceId: parent?.traceId ?? traceId,
        spanId: randomId(8),
        parentSpanId: parent?.spanId,
        name: shape.name,
        kind: shape.kind,
        startNs: end - BigInt(Math.round(shape.durationMs * 1e6)),
        endNs: end,
        attributes: shape.attributes,
        status: shape.status,
      });
    },

    invokeAgent<T>(agent: string, method: string, run: () => Promise<T>): Promise<T> {
      return within(`invoke_agent ${agent}`, { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": agent, "luma.method": method }, run);
    },

    executeAgentTool<T>(call: { tool: string; callId?: string; agent?: string }, run: () => Promise<T>): Promise<T> {
      const attributes = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": call.tool,
        "gen_ai.tool.type": "function",
        "gen_ai.tool.call.id": call.callId,
        "gen_ai.agent.name": call.agent,
        "luma.tool.mode": "native",
      };
      return within(`execute_tool ${call.tool}`, attributes, run);
    },

    newTrace<T>(run: () => Promise<T>): Promise<T> {
      return current.run({ traceId: randomId(16) }, run);
    },

    async flush() {
      sendPending();
      await Promise.all([...sends]);
      if (failure !== undefined && !warnedOutage) warn(`warning: could not export spans to ${config.label}: ${failure}`);
      warnedOutage = failure !== undefined;
      failure = undefined;
    },
  };
}

/** One OTLP/HTTP export; resolves to what went wrong, if anything (never rejects on HTTP errors). */
async function post(config: OtlpConfig, resource: Resource, spans: SpanData[]): Promise<string | undefined> {
  const json = config.protocol === "http/json";
  const body = json ? encodeTraceRequestJson(resource, spans, VERSION) : encodeTraceRequest(resource, spans, VERSION);
  try {
    const res = await fetch(config.url, {
      method: "POST",
      headers: { ...config.headers, "content-type": json ? "application/json" : "application/x-protobuf" },
      body,
      signal: AbortSignal.timeout(config.timeoutMs),
      redirect: "error",
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.ok ? undefined : `HTTP ${res.status}`;
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.name === "TimeoutError") return `no answer within ${config.timeoutMs} ms`;
    return err.code ?? err.name ?? "connection failed";
  }
}
