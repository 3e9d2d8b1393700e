/**
 * The strict lint (spec §10): words a module's text may not contain. It reads the raw text —
 * comments and strings included — so it is a lint, not a barrier: it matches spellings, and
 * anything it does not spell out still runs (see the README's "Security model").
 *
 * A "whole word" is bounded by characters that cannot continue a JavaScript identifier, so
 * `child_process` does not count as `process`, nor `processor`, nor `https` as `http`.
 */
import type { ModulePolicy } from "./module-policy";
import type { PolicyRule } from "./policy-violation";

export interface LintRule {
  rule: PolicyRule;
  /** Whether the rule is on under this (strict) policy. */
  applies: (policy: ModulePolicy) => boolean;
  pattern: RegExp;
  /** The refusal's text, given the matched spelling. */
  explain: (found: string) => string;
}

const word = (w: string) => `(?<![\\w$])${w}(?![\\w$])`;
const words = (...ws: string[]) => new RegExp(ws.map(word).join("|"), "g");
/** `a.b` with any spacing around the dot, as one match. */
const member = (a: string, b: string) => `${word(a)}\\s*\\??\\.\\s*${b}(?![\\w$])`;

const squash = (found: string) => found.replace(/\s+/g, "");

export const LINT_RULES: readonly LintRule[] = [
  {
    rule: "allow_env",
    applies: (p) => !p.allowEnv,
    // `process` and `globalThis` are the spec's words; `Bun.env` and `import.meta.env` are
    // the same environment under Bun's names.
    pattern: new RegExp([word("process"), word("globalThis"), member("Bun", "env"), `${word("import")}\\s*\\.\\s*meta\\s*\\.\\s*env(?![\\w$])`].join("|"), "g"),
    explain: (found) => `mentions '${squash(found)}' ("allow_env" is false)`,
  },
  {
    rule: "allow_network",
    applies: (p) => !p.allowNetwork,
    pattern: words("fetch", "http", "net", "tls", "WebSocket"),
    explain: (found) => `mentions '${found}' ("allow_network" is false)`,
  },
  {
    rule: "dynamic_code",
    applies: () => true,
    // `eval` in any form — `eval(…)`, `(0, eval)(…)`, `globalThis.eval` — has no other use;
    // `Function` is only refused when called, since TypeScript uses the word as a type.
    pattern: new RegExp(`${word("eval")}|${word("Function")}\\s*\\(`, "g"),
    explain: (found) => `uses '${squash(found)}' (dynamic code is always forbidden under strict)`,
  },
  {
    rule: "allow_builtins",
    applies: () => true,
    // Ways to reach a builtin without require/import, around the allowlist.
    pattern: new RegExp(`${word("getBuiltinModule")}|\\.\\s*(?:binding|_linkedBinding|dlopen)\\s*\\(`, "g"),
    explain: (found) => `uses '${squash(found).replace(/^\./, "")}' (reaches builtins around "allow_builtins")`,
  },
];
