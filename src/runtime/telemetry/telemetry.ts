/**
 * What the runtime asks of a telemetry exporter (the OTLP one lives in `otel/` and loads only
 * when configured). Spans are made from the trace events the runtime already emits — one
 * `provider.request` is one `chat` span, one `tool.call`/`query.call`/`command.call` one
 * `execute_tool` span — so the trace and the spans can never disagree. Only the agent method
 * call has no event of its own: the interpreter wraps it in `invokeAgent`, which makes the
 * spans of everything inside it its children; and a model's call of an agent's method (an
 * agent as a tool, issue #27 §1), which skips the tool pipeline, is wrapped in
 * `executeAgentTool`, so that its `invoke_agent` span is the child of an `execute_tool` one.
 *
 * `content` is a thunk beside an event: prompts, arguments and results, read only when the
 * user opted in to exporting them. Events themselves never hold content.
 */
export type ContentThunk = () => Record<string, unknown>;

export interface Telemetry {
  /** A trace event (and, lazily, the content behind it). */
  observe(event: object, content?: ContentThunk): void;
  /** Runs one agent method call inside an `invoke_agent <agent>` span. */
  invokeAgent<T>(agent: string, method: string, run: () => Promise<T>): Promise<T>;
  /** Runs a model's call of an agent tool (`Refunds_handle`) inside an `execute_tool <tool>` span. */
  executeAgentTool<T>(call: { tool: string; callId?: string; agent?: string }, run: () => Promise<T>): Promise<T>;
  /** Runs one request of a long-lived process (`luma mcp`'s `tools/call`) in a trace of its own. */
  newTrace<T>(run: () => Promise<T>): Promise<T>;
  /** Sends every finished span; never throws (an unreachable collector is a warning). */
  flush(): Promise<void>;
}
