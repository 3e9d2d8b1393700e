/**
 * The strict lint (spec §10): words a module's text may not contain. It reads the raw text —
 * comments and strings included — so it is a lint, not a barrier: it matches spellings, and
 * anything it does not spell out still runs (see docs/security.md, "The security model").
 *
 * A "whole word" is bounded by characters that cannot continue a JavaScript identifier, so
 * `child_process` does not count as `process`, nor `processor`, nor `https` as `http`.
 *
 * Package code (a file reached through a package import, see static-module-checks.ts) gets
 * only the rules that guard the builtin allowlist and the Bun members: `process.env.NODE_ENV`,
 * a `fetch` polyfill or `Function("return this")` are everyday package text, and in the VM
 * context the package runs with the module's globals anyway (no `process`, no string code).
 */
import type { ModulePolicy } from "./module-policy";
import type { PolicyRule } from "./policy-violation";
import { isBunMember, missingBunMember } from "./strict-bun-api";

/** What the rule is judging: how the file runs, and whether it is package code. */
export interface LintTarget {
  /** Loaded by Bun's own loader (an ES module graph under strict): it sees the real globals. */
  inProcess: boolean;
  asPackage: boolean;
}

export interface LintRule {
  rule: PolicyRule;
  /** Whether the rule is on under this (strict) policy, for this file. */
  applies: (policy: ModulePolicy, target: LintTarget) => boolean;
  pattern: RegExp;
  /** Matched against the code only, comments blanked (comment-blanking.ts); the rest read comments too. */
  codeOnly?: boolean;
  /** The refusal's text, given the match; undefined when this match is allowed after all. */
  explain: (found: RegExpMatchArray, policy: ModulePolicy, target: LintTarget) => string | undefined;
}

const word = (w: string) => `(?<![\\w$])${w}(?![\\w$])`;
const words = (...ws: string[]) => new RegExp(ws.map(word).join("|"), "g");
/** `a.b` with any spacing around the dot, as one match. */
const member = (a: string, b: string) => `${word(a)}\\s*\\??\\.\\s*${b}(?![\\w$])`;

/** `import.meta`, any spacing around the dot. */
const IMPORT_META = `${word("import")}\\s*\\.\\s*meta(?![\\w$])`;

const squash = (found: RegExpMatchArray) => found[0].replace(/\s+/g, "");

/** `{ self: 1 }`, `{ a, self: b } = o`: the match is an object key (after `{` or `,`, before `:`), not a name in scope. */
const isPropertyKey = (found: RegExpMatchArray): boolean => {
  const at = found.index ?? 0;
  const text = found.input ?? "";
  return /[{,]\s*$/.test(text.slice(Math.max(0, at - 80), at)) && /^\s*:/.test(text.slice(at + found[0].length, at + found[0].length + 80));
};

/** Rules every file of the graph gets, package code included. */
const everywhere = () => true;
/** Rules for the module's own files only (see above). */
const moduleCode = (_: ModulePolicy, target: LintTarget) => !target.asPackage;

export const LINT_RULES: readonly LintRule[] = [
  {
    rule: "allow_env",
    applies: (p, target) => !p.allowEnv && moduleCode(p, target),
    // `process` and `globalThis` are the spec's words; `Bun.env` and `import.meta.env` are
    // the same environment under Bun's names.
    pattern: new RegExp([word("process"), word("globalThis"), member("Bun", "env"), `${IMPORT_META}\\s*\\??\\.\\s*env(?![\\w$])`].join("|"), "g"),
    explain: (found) => `mentions '${squash(found)}' ("allow_env" is false)`,
  },
  {
    rule: "allow_env",
    // `import.meta["env"]`, `const { env } = import.meta`, `f(import.meta)`: the environment
    // by a name the words above cannot see. So `import.meta` is only accepted as
    // `import.meta.<member>` (`import.meta?.<member>`) for a member other than `env`. Read on
    // code, so `import/**/.meta` is `import.meta`; the rule above still reads comments.
    applies: (p, target) => !p.allowEnv && moduleCode(p, target),
    codeOnly: true,
    pattern: new RegExp(`${IMPORT_META}(?!\\s*\\??\\.\\s*(?!env(?![\\w$]))[A-Za-z_$])(\\s*\\??\\.\\s*env(?![\\w$]))?`, "g"),
    explain: (found) =>
      found[1] !== undefined
        ? `mentions 'import.meta.env' ("allow_env" is false)`
        : `uses 'import.meta' other than as import.meta.<member> ("allow_env" is false: computed or destructured access reaches import.meta.env)`,
  },
  {
    rule: "allow_env",
    // An in-process ES module has Bun's real globals, where `self` and `global` are two more
    // names for `globalThis` (`self["pro" + "cess"]`). A member or a key named so (`x.self`,
    // `{ self: 1 }`) is not one; read on code, since both are everyday prose.
    applies: (p, target) => !p.allowEnv && moduleCode(p, target) && target.inProcess,
    codeOnly: true,
    pattern: new RegExp(`(?<!\\.\\s*)${word("(?:self|global)")}`, "g"),
    explain: (found) =>
      isPropertyKey(found)
        ? undefined
        : `mentions '${found[0]}' (in an in-process ES module it is the real globalThis; "allow_env" is false)`,
  },
  {
    rule: "worker",
    // A worker runs a script Luma never reads: `new Worker("./w.js")` would run a file (or a
    // `data:`/blob URL) around every check. Package code of an in-process ES module is held
    // to it too (it has the real Worker); in the VM context there is no Worker to call.
    applies: (p, target) => !p.allowBuiltins.has("worker_threads") && (moduleCode(p, target) || target.inProcess),
    pattern: words("Worker", "SharedWorker"),
    explain: (found) => `uses '${found[0]}' (a worker runs a script no strict check reads; allowed only with "worker_threads" in "allow_builtins")`,
  },
  {
    rule: "allow_network",
    applies: (p, target) => !p.allowNetwork && moduleCode(p, target),
    pattern: words("fetch", "http", "net", "tls", "WebSocket"),
    explain: (found) => `mentions '${found[0]}' ("allow_network" is false)`,
  },
  {
    rule: "dynamic_code",
    applies: moduleCode,
    // `eval` in any form — `eval(…)`, `(0, eval)(…)`, `globalThis.eval` — has no other use;
    // `Function` is only refused when called, since TypeScript uses the word as a type.
    pattern: new RegExp(`${word("eval")}|${word("Function")}\\s*\\(`, "g"),
    explain: (found) => `uses '${squash(found)}' (dynamic code is always forbidden under strict)`,
  },
  {
    rule: "allow_builtins",
    applies: everywhere,
    // Ways to reach a builtin without require/import, around the allowlist.
    pattern: new RegExp(`${word("getBuiltinModule")}|\\.\\s*(?:binding|_linkedBinding|dlopen)\\s*\\(`, "g"),
    explain: (found) => `uses '${squash(found).replace(/^\./, "")}' (reaches builtins around "allow_builtins")`,
  },
  {
    rule: "bun_api",
    // In the VM context a missing member is simply absent; saying so at load, with line:col,
    // is kinder than a TypeError at the first call — for the members strict withholds; other
    // names (`Bun.Subprocess` as a TypeScript type) are left to the facade, as is package code.
    // An in-process ES module holds the real Bun: every name off the list is refused there.
    // `Bun.env` is the allow_env rule's. Read on code only, so `Bun/**/.plugin` is `Bun.plugin`.
    applies: (p, target) => moduleCode(p, target) || target.inProcess,
    codeOnly: true,
    pattern: new RegExp(`${word("Bun")}\\s*\\??\\.\\s*([A-Za-z_$][\\w$]*)`, "g"),
    explain: (found, policy, target) => {
      if (found[1] === "env" || (!target.inProcess && !isBunMember(found[1]))) return undefined;
      const why = missingBunMember(policy, found[1]);
      return why && `uses 'Bun.${found[1]}' (${why})`;
    },
  },
  {
    rule: "bun_api",
    // An in-process ES module holds the real Bun: `Bun["plu" + "gin"]`, `const { plugin } = Bun`
    // or `f(Bun)` reach members the lint cannot name, so only `Bun.<member>` is accepted there
    // (and `typeof Bun`). "Bun" is everyday prose, so neither Bun rule reads comments.
    applies: (_, target) => target.inProcess,
    codeOnly: true,
    pattern: new RegExp(`(?<!typeof\\s+)${word("Bun")}(?!\\s*\\??\\.\\s*[A-Za-z_$])`, "g"),
    explain: () => `uses 'Bun' other than as Bun.<member> (an in-process ES module's Bun is the real one; computed or aliased access cannot be checked)`,
  },
];
