/**
 * Checks a value against a plain JSON Schema of the subset `toJsonSchema` writes (type,
 * properties, required, additionalProperties, items, enum, const, anyOf/oneOf, $ref into
 * $defs, the numeric, length, pattern and item-count bounds). It is what judges a person's
 * answer where the program is not at hand: `luma runs answer` and `luma approve --json`
 * read the schema the waiting call recorded in the journal, and refuse a value it does not
 * fit before anything is recorded. The run validates the value again with the program's
 * own validator when it resumes (soft rules, formats and tagged unions included), so this
 * check only has to be faithful, not complete.
 *
 * The answer is the first problem found, worded like the validator's issues:
 * `Confirmed.score must be <= 10.`, or undefined when the value fits.
 */
type JsonSchema = Record<string, unknown>;

const typeOf = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v;

const fitsType = (t: string, v: unknown): boolean => {
  const actual = typeOf(v);
  return t === actual || (t === "number" && actual === "integer");
};

const MAX_DEPTH = 64;

export function jsonSchemaProblem(schema: JsonSchema, value: unknown, root: string): string | undefined {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  return check(schema, value, root, defs, 0);
}

function check(s: JsonSchema, v: unknown, path: string, defs: Record<string, JsonSchema>, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return `${path} is nested too deeply.`;
  if (typeof s.$ref === "string") {
    const target = defs[s.$ref.replace(/^#\/\$defs\//, "")];
    return target === undefined ? undefined : check(target, v, path, defs, depth + 1);
  }
  const variants = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants) && s.type === undefined) {
    const problems = variants.map((m) => check(m, v, path, defs, depth + 1));
    return problems.some((p) => p === undefined) ? undefined : problems.length === 1 ? problems[0] : `${path} matches none of the allowed forms (${problems[0]})`;
  }
  if (s.const !== undefined && JSON.stringify(s.const) !== JSON.stringify(v)) return `${path} must be ${JSON.stringify(s.const)}.`;
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  if (types.length > 0 && !types.some((t) => fitsType(t, v))) return `${path} must be ${types.join(" or ")}, got ${typeOf(v)}.`;
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) return `${path} must be one of ${s.enum.map((e) => JSON.stringify(e)).join(", ")}.`;
  if (typeof v === "number") return numberProblem(s, v, path);
  if (typeof v === "string") return stringProblem(s, v, path);
  if (Array.isArray(v)) {
    if (typeof s.minItems === "number" && v.length < s.minItems) return `${path} must have at least ${s.minItems} items.`;
    if (typeof s.maxItems === "number" && v.length > s.maxItems) return `${path} must have at most ${s.maxItems} items.`;
    const items = s.items as JsonSchema | undefined;
    if (items !== undefined) for (let i = 0; i < v.length; i++) {
      const p = check(items, v[i], `${path}[${i}]`, defs, depth + 1);
      if (p !== undefined) return p;
    }
    return undefined;
  }
  if (v !== null && typeof v === "object") return objectProblem(s, v as Record<string, unknown>, path, defs, depth);
  return undefined;
}

function numberProblem(s: JsonSchema, v: number, path: string): string | undefined {
  if (typeof s.minimum === "number" && v < s.minimum) return `${path} must be >= ${s.minimum}.`;
  if (typeof s.maximum === "number" && v > s.maximum) return `${path} must be <= ${s.maximum}.`;
  if (typeof s.exclusiveMinimum === "number" && v <= s.exclusiveMinimum) return `${path} must be > ${s.exclusiveMinimum}.`;
  if (typeof s.exclusiveMaximum === "number" && v >= s.exclusiveMaximum) return `${path} must be < ${s.exclusiveMaximum}.`;
  return undefined;
}

function stringProblem(s: JsonSchema, v: string, path: string): string | undefined {
  const length = [...v].length;
  if (typeof s.minLength === "number" && length < s.minLength) return `${path} must be at least ${s.minLength} characters.`;
  if (typeof s.maxLength === "number" && length > s.maxLength) return `${path} must be at most ${s.maxLength} characters.`;
  if (typeof s.pattern === "string") {
    let re: RegExp | undefined;
    try {
      re = new RegExp(s.pattern, "u");
    } catch {
      re = undefined; // a pattern this engine cannot read is left to the run's own validator
    }
    if (re !== undefined && !re.test(v)) return `${path} must match ${s.pattern}.`;
  }
  return undefined;
}

function objectProblem(s: JsonSchema, v: Record<string, unknown>, path: string, defs: Record<string, JsonSchema>, depth: number): string | undefined {
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of (s.required ?? []) as string[]) if (!Object.hasOwn(v, name)) return `${path}.${name} is required.`;
  for (const [name, value] of Object.entries(v)) {
    const field = Object.hasOwn(props, name) ? props[name] : undefined;
    if (field === undefined) {
      if (s.additionalProperties === false) return `${path}.${name} is not a field of this schema.`;
      continue;
    }
    const p = check(field, value, `${path}.${name}`, defs, depth + 1);
    if (p !== undefined) return p;
  }
  return undefined;
}
