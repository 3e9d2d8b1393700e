/**
 * Every message the checker prints, in one catalog.
 *
 * Messages the spec marks *exact* are reproduced byte for byte (they are grouped under
 * "exact" so nobody rewords them by accident); the rest follow one style: a short
 * sentence that names the thing, ending with a period.
 *
 * Each builder has a stable diagnostic code, given in one table (`message-codes.ts`);
 * `withCodes` pairs them, so `messages.unknownName("x")` is a `CheckMessage` — text and
 * code — and `ctx.report` takes nothing else. A builder without a code fails the type
 * check (the table is a `Record` over the builders) and, should that be skipped, the
 * first import of this file.
 */
import { oneOfText as oneOf } from "../language/declaration-nouns";
import { EXACT_CODES, MESSAGE_CODES } from "./message-codes";

/** What a check rule reports: the message and its catalog code (`luma explain CODE`). */
export interface CheckMessage {
  code: string;
  text: string;
}

type Builders = Record<string, (...args: never[]) => string>;
type Coded<T extends Builders> = { [K in keyof T]: (...args: Parameters<T[K]>) => CheckMessage };

function withCodes<T extends Builders>(builders: T, codes: Record<keyof T, string>): Coded<T> {
  const out: Record<string, (...args: never[]) => CheckMessage> = {};
  for (const [key, build] of Object.entries(builders)) {
    const code = codes[key as keyof T];
    if (typeof code !== "string") throw new Error(`check message '${key}' has no diagnostic code (src/check/message-codes.ts)`);
    out[key] = (...args) => ({ code, text: build(...args) });
  }
  return out as Coded<T>;
}

/** Message text builders the spec words byte for byte. */
export const exactText = {
  writeToolCache: (tool: string) => `Write tool '${tool}' cannot use cache.`,
  writeToolRetries: (tool: string) =>
    `A write tool '${tool}' must be idempotent and specify an idempotency_key to be retried.`,
  idempotentNeedsKey: (tool: string) => `Idempotent tool '${tool}' must specify an idempotency_key.`,
  toolTimeoutPositive: (tool: string) => `Tool '${tool}' timeout must be greater than zero.`,
  usingToolNotAllowed: (agent: string, tool: string) =>
    `Agent '${agent}' does not allow the tool '${tool}' required by using tool.`,
  directToolNotAllowed: (agent: string, tool: string) =>
    `Agent '${agent}' does not allow tool '${tool}' to be called directly.`,
};

/** Pieces of messages: how one names an owner or a callee. */
export const phrases = {
  /** The owner a member or key message names: `tool 'x'`, `method 'A.run'`. */
  owner: {
    decl: (noun: string, name: string) => `${noun} '${name}'`,
    method: (agent: string, method: string) => `method '${agent}.${method}'`,
  },
  /** The callee as an arity message names it. */
  callee: {
    method: (agent: string, method: string) => `Method '${agent}.${method}'`,
    fn: (name: string) => `Function '${name}'`,
    builtin: (name: string) => `Builtin '${name}'`,
  },
};

/** Message text builders in the house style. */
export const messageText = {
  // declarations and members
  duplicateDecl: (kind: string, name: string) => `Duplicate ${kind} '${name}'.`,
  duplicateName: (name: string, earlierKind: string) =>
    `Duplicate name '${name}': already declared as ${earlierKind}.`,
  duplicateMember: (what: string, name: string, owner: string) => `Duplicate ${what} '${name}' in ${owner}.`,

  // types
  unknownSchema: (name: string) => `Unknown schema '${name}'.`,
  /** `'M' is a model, not a schema.` — `actual` with its article. */
  wrongKind: (name: string, actual: string, wanted: string) => `'${name}' is ${actual}, not a ${wanted}.`,
  unionMemberNotPlain: (member: string, union: string) =>
    `Member '${member}' of schema '${union}' must be a plain schema, not a tagged union.`,
  unionTagClash: (tag: string, union: string, member: string) =>
    `Tag '${tag}' of schema '${union}' clashes with a field of member '${member}'.`,
  /** A cycle of required links (recursion through `?`, `[]` or a finite union member is fine). */
  recursiveSchema: (name: string, cycle: string[]) =>
    `Schema '${name}' is recursive with no finite value: ${cycle.join(" -> ")}. Make a field on the cycle optional (name?: T, without @default) or a list (T[]).`,

  // annotations
  unknownAnnotation: (name: string) => `Unknown annotation '@${name}'.`,
  annotationWrongType: (name: string, type: string) => `Annotation '@${name}' does not apply to type '${type}'.`,
  annotationArity: (name: string, expected: number, got: number) =>
    `Annotation '@${name}' expects ${expected} argument${expected === 1 ? "" : "s"}, got ${got}.`,
  annotationArgType: (name: string, index: number, expected: string) =>
    `Annotation '@${name}' argument ${index} must be ${expected}.`,
  annotationValues: (name: string, values: readonly string[]) =>
    `Annotation '@${name}' must be ${oneOf(values)}.`,
  annotationBounds: (name: string) => `Annotation '@${name}' minimum must not be greater than its maximum.`,
  annotationBadRegex: (name: string) => `Annotation '@${name}' is not a valid ECMAScript regular expression.`,
  defaultMismatch: (type: string) => `Annotation '@default' value does not match type '${type}'.`,
  duplicateAnnotation: (name: string, field: string) => `Duplicate annotation '@${name}' on '${field}'.`,

  // configuration entries (tool options, model/agent/datasource/query keys)
  unknownKey: (key: string, owner: string) => `Unknown key '${key}' in ${owner}.`,
  missingKey: (key: string, owner: string) => `Missing key '${key}' in ${owner}.`,
  keyValue: (key: string, owner: string, expected: string) => `Key '${key}' in ${owner} must be ${expected}.`,
  baseUrlRequired: (model: string) => `Model '${model}' with provider "openai-compatible" must specify a base_url.`,
  responsesApiProvider: (model: string, provider: string) => `Model '${model}': api "responses" is only for provider "openai" (this model's provider is "${provider}").`,

  // tools
  toolReturn: (tool: string, type: string) => `Tool '${tool}' must return a declared schema, not '${type}'.`,
  needsType: (tool: string, needs: string, type: string) =>
    `needs '${needs}' of tool '${tool}' must be a declared schema, not '${type}'.`,
  idempotencyKeyPath: (tool: string, path: string) =>
    `Tool '${tool}' idempotency_key '${path}' does not name a parameter.`,

  // queries and commands
  queryReturn: (name: string, type: string) => `Query '${name}' must return a schema or a schema array, not '${type}'.`,
  commandReturn: (name: string, type: string) => `Command '${name}' must return a schema, not '${type}'.`,
  datasourceUrlTwice: (name: string) => `Datasource '${name}' sets both url and url_env; keep one.`,
  datasourceUrlScheme: (name: string) =>
    `Datasource '${name}' url must start with "sqlite:" or "postgres://" (other databases need a module bridge).`,

  // names, calls and statements
  unknownName: (name: string) => `Unknown name '${name}'.`,
  unknownTool: (name: string) => `Unknown tool '${name}'.`,
  unknownModel: (name: string) => `Unknown model '${name}'.`,
  unknownDatasource: (name: string) => `Unknown datasource '${name}'.`,
  unknownDb: (op: string, name: string) => `Unknown ${op} '${name}'.`,
  unknownFunction: (name: string) => `Unknown function '${name}'.`,
  unknownMethod: (agent: string, method: string) => `Agent '${agent}' has no method '${method}'.`,
  unknownAgent: (name: string) => `Unknown agent '${name}'.`,
  notCallable: () => `Only functions, builtins and agent methods can be called.`,
  /** `what`: "a function", "a builtin function", "an agent", "a method of agent 'A'". */
  functionValue: (name: string, what: string) => `'${name}' is ${what}, not a value.`,
  arity: (what: string, expected: string, got: number) =>
    `${what} expects ${expected} argument${expected === "1" ? "" : "s"}, got ${got}.`,
  returnOutsideFn: () => `A top-level 'return' takes no value: it ends the script (use exit(code) to end with a status).`,
  jumpOutsideLoop: (keyword: string) => `'${keyword}' is only allowed inside a 'for' or 'while' loop.`,
  returnValueOnNextLine: () =>
    `This 'return' returns nothing: its value must start on the same line, and the statement after it never runs.`,
  numberOutOfRange: () => `Number literal is out of range (it must be a finite number).`,
  integerNotExact: () =>
    `Integer literal is beyond ±9007199254740991 (2^53−1) and would read as a different number; write it as a string of digits.`,
  severityWithoutRules: (field: string) => `@severity on '${field}' has no rule to apply to (add @range, @length, @pattern, @format, @items, @min or @max).`,
  askOutsideAgent: () => `'ask' is only allowed inside an agent method.`,
  askWithoutModel: (agent: string) => `Agent '${agent}' uses ask but declares no model.`,
  toolNameTooLong: (agent: string, tool: string, max: number) =>
    `Agent '${agent}' offers tool '${tool}' to its model, but model providers accept tool names of at most ${max} characters.`,
};

export const exact = withCodes(exactText, EXACT_CODES);
export const messages = withCodes(messageText, MESSAGE_CODES);

export { oneOf };
