/**
 * The checker's rules, in the order they run. Each is `(ctx) => void` in its own file
 * under `rules/`; each reports every problem it finds and never stops the others.
 * Declarations are checked before code, so a rule can rely on earlier ones having
 * reported bad names (and not report them twice).
 */
import type { CheckContext } from "./context";
import { annotations } from "./rules/annotations";
import { agentContext } from "./rules/agent-context";
import { agentHandoffs } from "./rules/agent-handoffs";
import { parallel } from "./rules/parallel";
import { askPlacement } from "./rules/ask-placement";
import { calls } from "./rules/calls";
import { configKeys } from "./rules/config-keys";
import { dbCalls } from "./rules/db-calls";
import { dbDatasourceUrl } from "./rules/db-datasource-url";
import { dbStatementTypes } from "./rules/db-statement-types";
import { directToolCalls } from "./rules/direct-tool-calls";
import { duplicateDeclarations } from "./rules/duplicate-declarations";
import { duplicateMembers } from "./rules/duplicate-members";
import { functionValues } from "./rules/function-values";
import { lazyTools } from "./rules/lazy-tools";
import { modelBaseUrl } from "./rules/model-base-url";
import { modelOptions } from "./rules/model-options";
import { modelToolNames } from "./rules/model-tool-names";
import { names } from "./rules/names";
import { numberLiterals } from "./rules/number-literals";
import { severityWithoutRules } from "./rules/severity-without-rules";
import { returnPlacement } from "./rules/return-placement";
import { loopJumpPlacement } from "./rules/loop-jump-placement";
import { schemaCycles } from "./rules/schema-cycles";
import { toolAudience } from "./rules/tool-audience";
import { toolConsistency } from "./rules/tool-consistency";
import { toolIdempotencyKey } from "./rules/tool-idempotency-key";
import { toolClientHandler } from "./rules/tool-client-handler";
import { toolTypes } from "./rules/tool-types";
import { unionMembers } from "./rules/union-members";
import { unknownTypes } from "./rules/unknown-types";
import { typesUnknownField } from "./rules/types-unknown-field";
import { typesNullableField } from "./rules/types-nullable-field";
import { typesAssignments } from "./rules/types-assignments";
import { typesReassignment } from "./rules/types-reassignment";
import { typesFnArguments } from "./rules/types-fn-arguments";
import { typesFnReturn } from "./rules/types-fn-return";
import { typesToolInput } from "./rules/types-tool-input";
import { typesLiteralRules } from "./rules/types-literal-rules";
import { typesConditions } from "./rules/types-conditions";
import { typesForIterable } from "./rules/types-for-iterable";
import { typesOperators } from "./rules/types-operators";
import { typesBuiltinArguments } from "./rules/types-builtin-arguments";
import { threadTypes } from "./rules/thread-types";
import { regexPatterns } from "./rules/regex-patterns";
import { lambdas } from "./rules/lambdas";
import { toolStubs } from "./rules/tool-stubs";
import { evals } from "./rules/evals";

export type Rule = (ctx: CheckContext) => void;

export const RULES: readonly (readonly [name: string, rule: Rule])[] = [
  // declarations (§2–6, §12)
  ["duplicate-declarations", duplicateDeclarations],
  ["duplicate-members", duplicateMembers],
  ["unknown-types", unknownTypes],
  ["union-members", unionMembers],
  ["schema-cycles", schemaCycles],
  ["annotations", annotations],
  ["severity-without-rules", severityWithoutRules],
  ["number-literals", numberLiterals],
  ["config-keys", configKeys],
  ["model-base-url", modelBaseUrl],
  ["model-options", modelOptions],
  ["tool-types", toolTypes],
  ["tool-consistency", toolConsistency],
  ["lazy-tools", lazyTools],
  ["tool-idempotency-key", toolIdempotencyKey],
  ["tool-client-handler", toolClientHandler],
  ["db-statement-types", dbStatementTypes],
  ["db-datasource-url", dbDatasourceUrl],
  // code (§7)
  ["return-placement", returnPlacement],
  ["loop-jump-placement", loopJumpPlacement],
  ["names", names],
  ["calls", calls],
  ["function-values", functionValues],
  ["direct-tool-calls", directToolCalls],
  ["ask-placement", askPlacement],
  ["tool-audience", toolAudience],
  ["model-tool-names", modelToolNames],
  ["db-calls", dbCalls],
  ["agent-context", agentContext],
  ["agent-handoffs", agentHandoffs],
  ["parallel", parallel],
  // static types (§2–4, §7, §12): one typing pass (types/), read by each rule
  ["types-unknown-field", typesUnknownField],
  ["types-nullable-field", typesNullableField],
  ["types-assignments", typesAssignments],
  ["types-reassignment", typesReassignment],
  ["types-fn-arguments", typesFnArguments],
  ["types-fn-return", typesFnReturn],
  ["types-tool-input", typesToolInput],
  ["types-literal-rules", typesLiteralRules],
  ["types-conditions", typesConditions],
  ["thread-types", threadTypes],
  ["types-for-iterable", typesForIterable],
  ["types-operators", typesOperators],
  ["types-builtin-arguments", typesBuiltinArguments],
  ["regex-patterns", regexPatterns],
  ["lambdas", lambdas],
  ["tool-stubs", toolStubs],
  // luma eval (issue #31 §2): eval blocks and their scores
  ["evals", evals],
];
