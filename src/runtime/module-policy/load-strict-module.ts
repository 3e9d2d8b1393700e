/**
 * Loading one tool module under `sandbox: "strict"` (spec §10), after integrity passed:
 *
 * 1. the static checks over the module and the project files it loads — lint, builtin
 *    allowlist, project confinement, `dependencies` — every violation in one startup error;
 * 2. CommonJS and TypeScript run in a fresh VM context with an explicit global list, their
 *    `require`/`import` judged again when they run — packages included, which Luma reads and
 *    runs in the same context; an ES module (`.mjs`, `type: module`) loads in-process with
 *    Bun's loader and sees the real globals (its whole graph, packages too, was checked in 1).
 */
import type { DependencyRules } from "../module-loading/dependency-rules";
import type { ModuleKind } from "../module-loading/module-kind";
import type { PreparedSource } from "../module-loading/prepare-source";
import { checkModuleGraph, type CheckedFiles, type GraphCheck } from "./module-graph-check";
import type { ModulePolicy } from "./module-policy";
import { refusedModule } from "./policy-violation";
import { createStrictContext } from "./strict-context";
import { runCommonJsInContext } from "./strict-commonjs-loader";
import { loadEsmInContext } from "./strict-esm-loader";
import type { StrictScope } from "./strict-scope";

export interface StrictModuleInput {
  policy: ModulePolicy;
  rules?: DependencyRules;
  shownPath: string;
  realPath: string;
  kind: ModuleKind;
  raw: string;
  prepared: PreparedSource;
  /** Bun's in-process ES module loader (module-loading/esm-loader.ts), for `.mjs` / type:module. */
  loadInProcess: () => Promise<unknown>;
}

/** Whether Bun's loader runs the module (real globals) rather than the VM context. */
export const runsInProcess = (kind: ModuleKind): boolean => kind === "esm";

export async function loadStrictModule(input: StrictModuleInput): Promise<unknown> {
  const { checked } = checkStrictModule(input);
  if (runsInProcess(input.kind)) return input.loadInProcess();
  return runInStrictContext(input, checked);
}

/**
 * Step 1 alone: every static check, every violation in one startup error. `"process"` runs
 * it in luma before its child loads the module, and reads from it which files the child sees.
 */
export function checkStrictModule(input: Omit<StrictModuleInput, "loadInProcess">): GraphCheck {
  const scope = { policy: input.policy, rules: input.rules };
  const check = checkModuleGraph(scope, {
    file: input.realPath,
    raw: input.raw,
    transpiled: input.prepared.transpiled,
    inProcess: runsInProcess(input.kind),
  });
  if (check.violations.length > 0) throw refusedModule(input.shownPath, check.violations);
  return check;
}

/** What running a module in the strict VM context needs once its static checks passed. */
export type StrictRunInput = Pick<StrictModuleInput, "policy" | "rules" | "shownPath" | "realPath"> & {
  prepared: Pick<PreparedSource, "code" | "runAs">;
};

/**
 * Step 2 alone: also the entry for a built agent's embedded modules, whose static checks ran
 * at build time (`checked` empty: the bundled text loads no project file or package).
 */
export async function runInStrictContext(input: StrictRunInput, checked: CheckedFiles = new Map()): Promise<unknown> {
  const scope = { policy: input.policy, rules: input.rules };
  const strict: StrictScope = {
    ...scope,
    shownPath: input.shownPath,
    realm: createStrictContext(input.policy, `luma tool module ${input.shownPath}`),
    phase: "load",
    commonJs: new Map(),
    esModules: new Map(),
    checked,
    packageCode: new Set([...checked].filter(([, asPackage]) => asPackage).map(([file]) => file)),
  };
  try {
    return input.prepared.runAs === "cjs"
      ? runCommonJsInContext(strict, input.realPath, input.prepared.code)
      : await loadEsmInContext(strict, input.realPath, input.prepared.code);
  } finally {
    strict.phase = "call";
  }
}
