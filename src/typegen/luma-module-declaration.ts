/**
 * The TypeScript declaration of the `"luma"` module that tool modules import
 * (`import { LumaToolError } from "luma"`). Luma serves that module itself at run time
 * (runtime/module-loading/luma-virtual-module.ts), so no package is installed and `tsc`
 * finds no types for it (TS2307); `luma init` writes this text as the scaffold's `luma.d.ts`,
 * so a scaffolded project passes `tsc --strict` with no manual step.
 *
 * It declares what `src/luma-module.ts` exports to tool modules, and nothing more: the two
 * values of `lumaModuleExports` and the handler types. A test (tests/typegen/
 * luma-module-declaration.test.ts) compiles this text against that file and fails on any
 * difference — a field added to `HandlerContext`, a changed constructor, a new export.
 */

/** The file `luma init` writes beside the tool module. */
export const LUMA_MODULE_DECLARATION_FILE = "luma.d.ts";

export const LUMA_MODULE_DECLARATION = `// Types of the "luma" module that tool modules import (import { LumaToolError } from "luma").
// Written by \`luma init\`; Luma serves the module itself when it loads a tool module, so
// there is no package to install. Do not edit: a newer \`luma init\` writes the current one.
declare module "luma" {
  export interface LumaToolErrorInit {
    code: string;
    message: string;
    retryable?: boolean;
    details?: unknown;
  }

  /**
   * A typed error a tool handler throws on purpose: it reaches the program's \`catch\` unchanged.
   * @example throw new LumaToolError({ code: "DB_TIMEOUT", message: "Database timed out", retryable: true });
   */
  export class LumaToolError extends Error {
    constructor(init: LumaToolErrorInit);
    readonly code: string;
    readonly retryable: boolean;
    readonly details?: unknown;
  }

  /** True for a LumaToolError of any copy of the class (it is branded, not compared by identity). */
  export function isLumaToolError(value: unknown): value is LumaToolError;

  /** A handler's fourth argument: the call's place in the run. */
  export interface HandlerContext {
    /** The run's id (\`--run-id\`, or the one printed as \`run: <id>\`; a per-process id without a journal). */
    runId: string;
    /** The call's deterministic position in the run, e.g. \`main/3\`. */
    stepId: string;
    /** 1 for the first try; each retry and each re-run after a resume adds one. */
    attempt: number;
    /** \`<runId>/<stepId>\`: pass it to a downstream API's idempotency key. */
    idempotencyKey: string;
    /** The approver's note, validated, for a tool declared \`approval: Schema\`; absent otherwise. */
    approval?: unknown;
  }

  /** The handler signature (the generated \`ToolHandler<I, O, N>\` is its typed form). */
  export type ToolHandler = (input: any, signal?: AbortSignal, needs?: Record<string, any>, ctx?: HandlerContext) => any;

  /** A datasource bridge exported under \`datasources\`. */
  export type DatasourceBridge = (sql: string, params: unknown[], signal?: AbortSignal) => any;
}
`;
