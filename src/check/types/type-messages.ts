/**
 * Every message of the static type rules, each with its catalog code (E03xx; the
 * explanations live in `diagnostics/catalog/type-codes.ts`, and a test keeps the two in
 * step). Types are quoted as `typeText` prints them. Where the checker may be right about
 * the types and still wrong about the program, the hint says how to state intent.
 */

import { typeText, type Type } from "./type-model";

const q = (text: string) => `'${text}'`;

/** How a message names the owner of parameters: `tool 'calculate'`, `query 'top'`. */
export const ownerText = (kind: "tool" | "query" | "command", name: string) => `${kind} '${name}'`;

export const INTENT_HINT = "if the value really has more fields than its type says, give it the type `any` (`x: any = …`)";

export const typeMessages = {
  unknownField: { code: "E0301", text: (field: string, type: string) => `Type ${q(type)} has no field ${q(field)}.` },
  fieldOfNonObject: {
    code: "E0302",
    text: (field: string, type: string) => `Cannot read field ${q(field)} of a value of type ${q(type)}: it is not an object.`,
    /** The value is `null` on every path here: a name read before its first assignment reads as null. */
    nullHint: (what: string) => `${what === "the value" ? what : `\`${what}\``} is null wherever this line runs: assign it an object first`,
  },
  fieldOfNullable: {
    code: "E0303",
    text: (field: string, type: string) => `Field ${q(field)} is read from a value that may be null (type ${q(type)}).`,
    hint: (what: string) =>
      `check it first: \`if ${what} != null { … }\`; or, if it is always there, a typed assignment (\`x: T = …\`) says so and validates it`,
  },
  assignMismatch: {
    code: "E0304",
    text: (name: string, type: string, value: string) => `Cannot assign a value of type ${q(value)} to ${q(name)} of type ${q(type)}.`,
  },
  reassignMismatch: {
    code: "E0305",
    text: (name: string, type: string, value: string) =>
      `${q(name)} was declared as ${q(type)} and cannot be assigned a value of type ${q(value)}.`,
    hint: (name: string) => `use a new name, or declare ${q(name)} with a type that allows both`,
  },
  argumentMismatch: {
    code: "E0306",
    text: (index: number, param: string, callee: string, type: string, value: string) =>
      `Argument ${index} (${q(param)}) of ${callee} must be ${q(type)}, not ${q(value)}.`,
  },
  returnMismatch: {
    code: "E0307",
    text: (callee: string, type: string, value: string) => `${callee} must return ${q(type)}, not ${q(value)}.`,
  },
  missingParameter: {
    code: "E0308",
    text: (owner: string, param: string) => `Missing required parameter ${q(param)} in the call of ${owner}.`,
  },
  unknownParameter: {
    code: "E0309",
    text: (owner: string, param: string) => `Unknown parameter ${q(param)} in the call of ${owner}.`,
  },
  parameterMismatch: {
    code: "E0310",
    text: (owner: string, param: string, type: string, value: string) =>
      `Parameter ${q(param)} of ${owner} must be ${q(type)}, not ${q(value)}.`,
    enumText: (owner: string, param: string, values: string, value: string) =>
      `Parameter ${q(param)} of ${owner} must be ${values}, not ${value}.`,
  },
  literalRule: {
    code: "E0311",
    text: (what: string, value: string, rule: string) => `${what} is ${value}, which breaks ${rule}.`,
  },
  conditionNotBool: {
    code: "E0312",
    text: (type: string, keyword: "if" | "while" = "if") => `The condition of '${keyword}' must be a bool, not ${q(type)}.`,
    hint: "compare explicitly, e.g. `x != \"\"` or `len(xs) > 0`",
  },
  assertNotBool: {
    code: "E0318",
    text: (type: string) => `The condition of 'assert' must be a bool, not ${q(type)}.`,
    hint: "assert a comparison, e.g. `assert x == 3` or `assert len(xs) > 0`",
  },
  forNotArray: {
    code: "E0313",
    text: (type: string) => `'for' needs an array, not ${q(type)}.`,
    objectHint: "iterate over `keys(obj)` to visit an object's fields",
  },
  operatorMismatch: {
    code: "E0314",
    text: (op: string, left: string, right?: string) =>
      right === undefined
        ? `Operator '${op}' cannot be applied to ${q(left)}.`
        : `Operator '${op}' cannot be applied to ${q(left)} and ${q(right)}.`,
    plusHint: "`+` adds numbers, concatenates arrays, or concatenates with a string on either side (`\"{x}\"` interpolates anything)",
  },
  builtinArgument: {
    code: "E0315",
    text: (name: string, expected: string, value: string) => `Builtin '${name}' expects ${expected}, not ${q(value)}.`,
  },
  intoMismatch: {
    code: "E0317",
    text: (target: string, type: string, value: string) => `Cannot assign a value of type ${q(value)} to ${target} of type ${q(type)}.`,
  },
  inputMismatch: {
    code: "E0316",
    text: (owner: string, value: string, reason: string) => `The input of ${owner} (type ${q(value)}) can never fit its parameters: ${reason}.`,
  },
} as const;

/** A reason worth a hint: only when it says more than "A is not B" already did. */
export const reasonHint = (reason: string | undefined, value: Type, target: Type): string[] =>
  reason === undefined || reason === `${typeText(value)} is not ${typeText(target)}` ? [] : [reason];
