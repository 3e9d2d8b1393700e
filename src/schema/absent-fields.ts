/**
 * "An `undefined` field counts as absent, as in JSON" (docs/pipeline.md): a handler that
 * returns `{ x: 1, extra: undefined }` returned `{ x: 1 }`. TypeBox's compiled checks see
 * the key (`additionalProperties: false` rejects it), so the validator asks this file for the
 * value without such fields — only after a check failed, so the usual value costs nothing.
 *
 * Copy-on-write, like prepare-value.ts: a new object or array only along the path to a field
 * that was dropped; the caller's value is never mutated. A shared object is stripped once
 * (`done`), and a cycle is left as it is (the JSON-data rule or the depth bound reports it).
 */

/** `value` without its `undefined`-valued object fields, at any depth; `value` itself when it has none. */
export function withoutUndefinedFields(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  return strip(value, new Map());
}

function strip(value: unknown, done: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (done.has(value)) return done.get(value);
  done.set(value, value); // a cycle back to here keeps the original
  const result = Array.isArray(value) ? stripItems(value, done) : stripFields(value as Record<string, unknown>, done);
  done.set(value, result);
  return result;
}

function stripItems(items: unknown[], done: Map<object, unknown>): unknown[] {
  let copy: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = strip(items[i], done);
    if (item !== items[i]) (copy ??= items.slice())[i] = item;
  }
  return copy ?? items;
}

function stripFields(fields: Record<string, unknown>, done: Map<object, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    const item = fields[key];
    if (item === undefined) {
      delete (copy ??= { ...fields })[key];
      continue;
    }
    const stripped = strip(item, done);
    if (stripped !== item) (copy ??= { ...fields })[key] = stripped;
  }
  return copy ?? fields;
}
