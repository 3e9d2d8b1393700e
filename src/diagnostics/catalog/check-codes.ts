/**
 * E02xx: the checker's declaration and code rules (`src/check/rules/*`), one entry per
 * diagnostic, in files by what the rule looks at: declarations
 * (`check-declaration-codes.ts`), code (`check-statement-codes.ts`), agents with
 * parameters (`check-agent-context-codes.ts`), who sees a tool
 * (`check-tool-audience-codes.ts`), many agents (`check-multi-agent-codes.ts`, E11xx: the
 * E02xx range is full) and `parallel` (E12xx, `check-parallel-codes.ts`), and `eval` blocks (E14xx, `eval-codes.ts`). This file joins them:
 * `CHECK_DIAGNOSTICS` by builder name — what `src/check/messages.ts` turns into the
 * `messages.*` and `exact.*` builders — and `checkCodes` by code, for `luma explain` and the
 * diagnostics page. All are errors that reject the program before it runs (exit code 2),
 * except E0245 and E0273, warnings.
 */
import type { CatalogEntry } from "./catalog-entry";
import { CHECK_DECLARATION_DIAGNOSTICS } from "./check-declaration-codes";
import { CHECK_STATEMENT_DIAGNOSTICS } from "./check-statement-codes";
import { CHECK_AGENT_CONTEXT_DIAGNOSTICS } from "./check-agent-context-codes";
import { CHECK_TOOL_AUDIENCE_DIAGNOSTICS } from "./check-tool-audience-codes";
import { CHECK_PARALLEL_DIAGNOSTICS } from "./check-parallel-codes";
import { CHECK_MULTI_AGENT_DIAGNOSTICS } from "./check-multi-agent-codes";
import { CHECK_EVAL_DIAGNOSTICS } from "./eval-codes";

export const CHECK_DIAGNOSTICS = {
  ...CHECK_DECLARATION_DIAGNOSTICS,
  ...CHECK_STATEMENT_DIAGNOSTICS,
  ...CHECK_AGENT_CONTEXT_DIAGNOSTICS,
  ...CHECK_TOOL_AUDIENCE_DIAGNOSTICS,
  ...CHECK_PARALLEL_DIAGNOSTICS,
  ...CHECK_MULTI_AGENT_DIAGNOSTICS,
  ...CHECK_EVAL_DIAGNOSTICS,
};

/** The E02xx codes, literal: part of the catalog's `DiagnosticCode`. */
export type CheckCode = (typeof CHECK_DIAGNOSTICS)[keyof typeof CHECK_DIAGNOSTICS]["code"];

/** The E02xx entries by code, the order `luma explain` has always listed them in. */
export const checkCodes: CatalogEntry<CheckCode>[] = Object.values(CHECK_DIAGNOSTICS).sort((a, b) => a.code.localeCompare(b.code));
