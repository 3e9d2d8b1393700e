/**
 * What `import … from "luma"` gives a tool module (spec §9, §10).
 *
 * Tool modules are loaded from anywhere on disk — often with no node_modules at all, and
 * from inside the standalone compiled binary — so "luma" is not a package on disk but a
 * virtual module the loader serves from this file's exports (see
 * `runtime/module-loading/luma-virtual-module.ts`). The legacy path
 * `"./src/tool-registry"` of the original docs resolves to the same exports.
 *
 * `LumaToolError` is a LumaError with phase "runtime", so the call pipeline passes it through
 * unchanged. A handler may still end up with another copy of this class (a bundled copy of
 * the module, a second loader); the `Symbol.for` brand makes `isLumaToolError` and
 * `instanceof LumaToolError` work across copies.
 */
import { LumaError } from "./diagnostics/luma-error";

/** A global-registry symbol: equal across every copy of this module in one process. */
export const LUMA_TOOL_ERROR_BRAND: unique symbol = Symbol.for("luma.LumaToolError") as never;

export interface LumaToolErrorInit {
  code: string;
  message: string;
  retryable?: boolean;
  details?: unknown;
}

/**
 * A typed error a tool handler throws on purpose.
 *
 * @example
 * import { LumaToolError } from "luma";
 * throw new LumaToolError({ code: "DB_TIMEOUT", message: "Database timed out", retryable: true });
 */
export class LumaToolError extends LumaError {
  declare readonly code: string;
  readonly [LUMA_TOOL_ERROR_BRAND] = true;

  constructor(init: LumaToolErrorInit) {
    super({
      code: init.code,
      message: init.message,
      retryable: init.retryable ?? false,
      details: init.details,
      phase: "runtime",
    });
    this.name = "LumaToolError";
  }

  /** `e instanceof LumaToolError` is true for an instance of any copy of this class. */
  static [Symbol.hasInstance](value: unknown): boolean {
    // A subclass keeps the ordinary prototype check; only the base class answers by brand.
    if (this !== LumaToolError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return isLumaToolError(value);
  }
}

export const isLumaToolError = (value: unknown): value is LumaToolError =>
  typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[LUMA_TOOL_ERROR_BRAND] === true;

/**
 * A handler's fourth argument: the call's place in the run. `idempotencyKey` stays the same
 * across retries and resumes of the step: pass it to a downstream API's idempotency key.
 */
export interface HandlerContext {
  /** The run's id (`--run-id`, or the one printed as `run: <id>`; a per-process id without a journal). */
  runId: string;
  /** The call's deterministic position in the run, e.g. `main/3` or `main/Flow.run#2/1`. */
  stepId: string;
  /** 1 for the first try; each retry and each re-run after a resume adds one. */
  attempt: number;
  /** `<runId>/<stepId>`. */
  idempotencyKey: string;
  /**
   * The approver's note, validated, for a tool declared `approval: Schema`; absent otherwise.
   * A tool called directly through `luma mcp` (no step of a run) gets a context holding only this.
   */
  approval?: unknown;
}

/** The handler signature (spec §10). */
export type ToolHandler = (
  input: any,
  signal?: AbortSignal,
  needs?: Record<string, any>,
  ctx?: HandlerContext,
) => any;

/** A datasource bridge exported under `datasources` (spec §12). */
export type DatasourceBridge = (sql: string, params: unknown[], signal?: AbortSignal) => any;
