/**
 * The builtins' types (spec §7), one table: what each argument may be and what the call
 * returns. Arity stays in `../builtins.ts` (the calls rule's); this table only types.
 * `accepts` mirrors the runtime's own checks in `runtime/interpreter/builtins.ts`, so a
 * call the checker rejects is one the runtime would fail with RUNTIME_ERROR.
 */
import { ANY, ANY_OBJECT, INT, NULL, STRING, STRING_ARRAY, arrayOf, type Type } from "./type-model";

export interface BuiltinSignature {
  /** The type each argument must be able to have (the last repeats); absent: anything. */
  accepts?: Type;
  /** How a message names what `accepts` allows. */
  acceptsText?: string;
  returns: Type;
}

const LEN_ARG: Type = { kind: "union", members: [STRING, arrayOf(ANY), ANY_OBJECT] };

export const BUILTIN_SIGNATURES: Readonly<Record<string, BuiltinSignature>> = {
  print: { returns: NULL },
  len: { accepts: LEN_ARG, acceptsText: "a string, an array or an object", returns: INT },
  str: { returns: STRING },
  json: { returns: STRING },
  keys: { accepts: ANY_OBJECT, acceptsText: "an object", returns: STRING_ARRAY },
  now: { returns: STRING },
  calls: { accepts: STRING, acceptsText: "a tool name (a string)", returns: INT },
};

export const builtinSignature = (name: string): BuiltinSignature | undefined =>
  Object.hasOwn(BUILTIN_SIGNATURES, name) ? BUILTIN_SIGNATURES[name] : undefined;
