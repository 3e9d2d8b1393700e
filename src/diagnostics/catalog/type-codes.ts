/**
 * E03xx: the static type rules (`src/check/rules/types-*.ts`). One entry per diagnostic:
 * its code, title, the text builder the rule reports with (types quoted as `typeText`
 * prints them), the hints that go with it, the explanation and the example `luma explain
 * CODE` prints. Keyed by name: `typeMessages.unknownField` in the checker is this table's
 * entry. Each is reported by `luma check` and before every run; all are errors except
 * E0303, a warning.
 *
 * Where the checker may be right about the types and still wrong about the program, a hint
 * says how to state intent.
 */
import type { CatalogEntry, WordedEntry } from "./catalog-entry";

const q = (text: string) => `'${text}'`;

export const TYPE_DIAGNOSTICS = {
  unknownField: {
    code: "E0301",
    title: "unknown field",
    text: (field: string, type: string) => `Type ${q(type)} has no field ${q(field)}.`,
    hints: {
      /** Where no declared field is close: how to say the value carries more than its type. */
      intent: "if the value really has more fields than its type says, give it the type `any` (`x: any = …`)",
    },
    explanation:
      "The value's type declares no field of this name. At run time a missing field reads as null, so the typo would pass silently (\"hi null\"). The hint names the closest declared field. If the value really carries more than its type says, give it the type `any`.",
    example: 'schema User { name: string }\nfn greet(u: User) -> string { "hi " + u.nmae }',
  },
  fieldOfNonObject: {
    code: "E0302",
    title: "field read on a value that is not an object",
    text: (field: string, type: string) => `Cannot read field ${q(field)} of a value of type ${q(type)}: it is not an object.`,
    hints: {
      /** The value is `null` on every path here: a name read before its first assignment reads as null. */
      alwaysNull: (what: string) => `${what === "the value" ? what : `\`${what}\``} is null wherever this line runs: assign it an object first`,
    },
    explanation:
      "A field is read from a string, a number, a bool or an array, or from a value that is null on every path to the read (`x = null` then `x.a`; a name read before its first assignment). The runtime fails with RUNTIME_ERROR. A value that is only sometimes null is E0303, a warning.",
    example: 'name = "Ada"\nprint(name.length)',
  },
  fieldOfNullable: {
    code: "E0303",
    title: "field read on a value that may be null (warning)",
    text: (field: string, type: string) => `Field ${q(field)} is read from a value that may be null (type ${q(type)}).`,
    hints: {
      checkFirst: (what: string) =>
        `check it first: \`if ${what} != null { … }\`; or, if it is always there, a typed assignment (\`x: T = …\`) says so and validates it`,
    },
    explanation:
      "The value may be null here: an optional field, a single-row query with no row, a variable not assigned on every path. Reading a field of null fails at run time. Check it first (`if x != null { … }` narrows it), or, if it is always there, assign it with a type (`x: T = …`), which validates it.",
    example:
      'datasource Db { url: "sqlite::memory:" }\nschema Customer { name: string }\nquery one(id: int) -> Customer { source: Db  sql: "SELECT name FROM c WHERE id = $1" }\nc = query one({ id: 1 })\nprint(c.name)',
  },
  assignMismatch: {
    code: "E0304",
    title: "typed assignment of a value that can never fit",
    text: (name: string, type: string, value: string) => `Cannot assign a value of type ${q(value)} to ${q(name)} of type ${q(type)}.`,
    explanation:
      "`x: T = v` validates v against T at run time (VALUE_INVALID). Fitting is structural, like the runtime: an object fits a schema when its fields fit, with no unknown field and no required field missing; a tool result re-validated against another schema is fine whenever the two shapes can match. This error means they never can.",
    example: 'count: int = "seven"',
  },
  reassignMismatch: {
    code: "E0305",
    title: "typed variable assigned a value of another type",
    text: (name: string, type: string, value: string) =>
      `${q(name)} was declared as ${q(type)} and cannot be assigned a value of type ${q(value)}.`,
    hints: {
      newName: (name: string) => `use a new name, or declare ${q(name)} with a type that allows both`,
    },
    explanation:
      "A variable declared with a type (`x: T = …`) was later assigned, without a type, a value that can never be a T. Use a new name, or declare the variable with a type that allows both.",
    example: 'count: int = 0\ncount = "seven"',
  },
  argumentMismatch: {
    code: "E0306",
    title: "fn or method argument of the wrong type",
    text: (index: number, param: string, callee: string, type: string, value: string) =>
      `Argument ${index} (${q(param)}) of ${callee} must be ${q(type)}, not ${q(value)}.`,
    explanation: "An argument can never fit the declared type of its parameter; the runtime would reject the call (VALUE_INVALID).",
    example: 'fn double(n: int) -> int { n * 2 }\nprint(double("two"))',
  },
  returnMismatch: {
    code: "E0307",
    title: "fn or method returns a value of the wrong type",
    text: (callee: string, type: string, value: string) => `${callee} must return ${q(type)}, not ${q(value)}.`,
    explanation:
      "A `return` value, or an expression statement the body ends with, can never fit the declared return type (VALUE_INVALID at run time).",
    example: 'fn answer() -> int { "forty-two" }',
  },
  missingParameter: {
    code: "E0308",
    title: "missing required parameter",
    text: (owner: string, param: string) => `Missing required parameter ${q(param)} in the call of ${owner}.`,
    explanation:
      "A tool, query or command is called with an object literal that leaves out a parameter with no `?` and no `@default` (TOOL_INPUT_INVALID at run time).",
    example: 'x = tool calculate({ a: 2, operation: "add" })',
  },
  unknownParameter: {
    code: "E0309",
    title: "unknown parameter",
    text: (owner: string, param: string) => `Unknown parameter ${q(param)} in the call of ${owner}.`,
    explanation: "The input object names a parameter the tool, query or command does not declare; inputs reject unknown properties. The hint names the closest declared one.",
    example: 'x = tool calculate({ a: 2, b: 3, operation: "add", precision: 2 })',
  },
  parameterMismatch: {
    code: "E0310",
    title: "parameter of the wrong type",
    text: (owner: string, param: string, type: string, value: string) =>
      `Parameter ${q(param)} of ${owner} must be ${q(type)}, not ${q(value)}.`,
    variants: {
      enumValues: (owner: string, param: string, values: string, value: string) =>
        `Parameter ${q(param)} of ${owner} must be ${values}, not ${value}.`,
    },
    explanation: "A parameter's value can never fit its declared type — an enum literal not in the enum included (TOOL_INPUT_INVALID at run time).",
    example: 'x = tool calculate({ a: "two", b: 3, operation: "divide" })',
  },
  literalRule: {
    code: "E0311",
    title: "literal breaks a parameter's value rule",
    text: (what: string, value: string, rule: string) => `${what} is ${value}, which breaks ${rule}.`,
    explanation:
      "A literal written into a tool, query or command input breaks the parameter's @range, @min, @max, @length or @items. On an input every rule is hard, `@severity(\"soft\")` included, so the call could only fail. Values that are not literals are checked at run time.",
    example: 'x = tool calculate({ a: 2000000, b: 1, operation: "add" })',
  },
  conditionNotBool: {
    code: "E0312",
    title: "if or while condition is not a bool",
    text: (type: string, keyword: "if" | "while" = "if") => `The condition of '${keyword}' must be a bool, not ${q(type)}.`,
    hints: {
      compare: "compare explicitly, e.g. `x != \"\"` or `len(xs) > 0`",
    },
    explanation:
      "The condition of an `if` or a `while` is surely a string, a number, an array or an object. Its truthiness (`\"\"` and `0` are false) is rarely what was meant: compare explicitly. A value that may be null is accepted as a presence test.",
    example: 'name = "Ada"\nif name { print(name) }',
  },
  assertNotBool: {
    code: "E0318",
    title: "assert condition that is not a bool",
    text: (type: string) => `The condition of 'assert' must be a bool, not ${q(type)}.`,
    hints: {
      compare: "assert a comparison, e.g. `assert x == 3` or `assert len(xs) > 0`",
    },
    explanation:
      "The condition of `assert` (in a `test` block, or anywhere in code) must be a bool: an assertion states a fact, so a string or a number whose truthiness decides it is rejected. A value that may be null is accepted as a presence test.",
    example: 'test "t" {\n  assert "yes"\n}',
  },
  forNotArray: {
    code: "E0313",
    title: "for over a value that is not an array",
    text: (type: string) => `'for' needs an array, not ${q(type)}.`,
    hints: {
      keys: "iterate over `keys(obj)` to visit an object's fields",
    },
    explanation: "`for x in v` needs an array; the runtime fails on anything else. To visit an object's fields, iterate over `keys(obj)`.",
    example: 'for c in "abc" { print(c) }',
  },
  operatorMismatch: {
    code: "E0314",
    title: "operator on values it does not apply to",
    text: (op: string, left: string, right?: string) =>
      right === undefined
        ? `Operator '${op}' cannot be applied to ${q(left)}.`
        : `Operator '${op}' cannot be applied to ${q(left)} and ${q(right)}.`,
    hints: {
      plus: "`+` adds numbers, concatenates arrays, or concatenates with a string on either side (`\"{x}\"` interpolates anything)",
    },
    explanation:
      "`- * / %` and unary `-` need numbers; `+` needs two numbers, two arrays, or a string on either side (which concatenates anything). The runtime fails with RUNTIME_ERROR.",
    example: 'total = "3" - 1',
  },
  builtinArgument: {
    code: "E0315",
    title: "builtin called with an argument of the wrong kind",
    text: (name: string, expected: string, value: string) => `Builtin '${name}' expects ${expected}, not ${q(value)}.`,
    explanation:
      "Each builtin takes arguments of set kinds (the builtins table of docs/language/functions.md): `len` a string, an array or an object; `keys` an object; `trim`, `split`, `replace` strings; `round`, `fixed` a number; `join` an array. An argument the checker can see is of another kind is rejected here; one it cannot see (`any`) fails at run time with RUNTIME_ERROR naming the builtin.",
    example: "print(len(42))",
  },
  intoMismatch: {
    code: "E0317",
    title: "a field or item assigned a value of the wrong type",
    text: (target: string, type: string, value: string) => `Cannot assign a value of type ${q(value)} to ${target} of type ${q(type)}.`,
    explanation:
      "`obj.f = v`, `obj[\"f\"] = v` and `xs[i] = v` write into a value whose type is known: the value must be able to fit the field's (or item's) type, so a typed value stays valid. A value that only may fit (`any`, a union) is validated at run time against the declared type and the field's rules: VALUE_INVALID naming the field (`order.status`), and nothing is written. Give the variable the type `any` to hold anything.",
    example: 'schema Order { status: string }\no: Order = { status: "new" }\no.status = 1',
  },
  inputMismatch: {
    code: "E0316",
    title: "tool input that can never fit the parameters",
    text: (owner: string, value: string, reason: string) => `The input of ${owner} (type ${q(value)}) can never fit its parameters: ${reason}.`,
    explanation:
      "A tool, query or command is called with a value (not an object literal) whose type can never fit the declared parameters: a non-object, or an object with an unknown or a missing required field.",
    example: 'x = tool calculate("2 + 3")',
  },
  lambdaPlacement: {
    code: "E0319",
    title: "a lambda where no builtin takes one",
    text: (callee: string, shadowsBuiltin = false) =>
      `A lambda cannot be an argument of '${callee}'${shadowsBuiltin ? " (a user function, which shadows the builtin)" : ""}: only map, filter, find, any, all, sort_by and group_by take one, as their second argument.`,
    explanation:
      "A lambda `(x) => e` is written only as the second argument of a builtin that applies it to a list's items: `map`, `filter`, `find`, `any`, `all`, `sort_by`, `group_by`. It is no value: it cannot be stored, returned or passed to a `fn` (a user function of one of those names shadows the builtin, so it takes no lambda either). Write the loop with `for`, or call the builtin.",
    example: 'fn apply(xs: int[], f: any) -> any {\n  return xs\n}\nprint(apply([1], (x) => x + 1))',
  },
  lambdaExpected: {
    code: "E0321",
    title: "a builtin that takes a lambda called without one",
    text: (name: string) => `'${name}' takes a lambda as its second argument: ${name}(xs, (x) => …).`,
    explanation:
      "`map`, `filter`, `find`, `any`, `all`, `sort_by` and `group_by` apply a lambda to each item of a list, written in the call: `map(orders, (o) => o.id)`. A function's name, a variable or any other value in its place is not a lambda (Luma has no function values).",
    example: "fn twice(x: int) -> int {\n  return x * 2\n}\nprint(map([1, 2], twice))",
  },
  lambdaResult: {
    code: "E0322",
    title: "a lambda whose value is of the wrong kind",
    text: (name: string, expected: string, type: string) => `The lambda of '${name}' must give ${expected}, not ${q(type)}.`,
    explanation:
      "The lambda of `filter`, `find`, `any` and `all` is a test: it must give a bool (a value that may be null is accepted as a presence test, as in `if`). The lambda of `sort_by` gives the key to order by: a number or a string. A lambda whose value is surely of another kind is rejected; one the checker cannot type is checked at run time.",
    example: 'print(filter(["a", ""], (s) => len(s)))',
  },
  toolStubTarget: {
    code: "E0323",
    title: "a tool stub of something that is no stubbable tool",
    text: (tool: string, reason: string) => `'mock tool ${tool}' stubs no tool: ${reason}.`,
    explanation:
      "`mock tool name [answers]` in a `test` answers the calls of a declared tool in place of its handler. The name must be a tool the program declares, and not one answered by the client (`handler: \"client\"`), which has no handler to stand in for.",
    example: 'test "t" {\n  mock tool lookup [{ output: {} }]\n}',
  },
  badRegexPattern: {
    code: "E0320",
    title: "a constant regular expression that does not compile",
    text: (name: string, pattern: string, reason: string) => `${q(pattern)} is not a regular expression for '${name}': ${reason}.`,
    explanation:
      "`regex_match`, `regex_find_all` and `regex_replace` take JavaScript's regular-expression syntax with the `u` (Unicode) flag. A pattern written as a constant string is compiled when the program is checked, so a typo is found before it runs; a pattern computed at run time that does not compile is a RUNTIME_ERROR naming it. In a Luma string a backslash is written twice: `\\\\d+` is the pattern `\\d+`.",
    example: 'm = regex_match("a-1", "a-(\\\\d+")',
  },
} as const satisfies Record<string, WordedEntry>;

/** The E03xx codes, literal: part of the catalog's `DiagnosticCode`. */
export type TypeCode = (typeof TYPE_DIAGNOSTICS)[keyof typeof TYPE_DIAGNOSTICS]["code"];

/** The E03xx entries in the catalog's order. */
export const typeCodes: CatalogEntry<TypeCode>[] = Object.values(TYPE_DIAGNOSTICS);
