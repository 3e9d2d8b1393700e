/**
 * JSON with object keys in sorted order, so `{a:1,b:2}` and `{b:2,a:1}` give one text:
 * the cache key and the idempotency fingerprint of a validated input.
 *
 * Objects whose keys are already sorted are used as they are; others are copied with sorted
 * keys; then one native JSON.stringify writes the text (about twice as fast as writing it
 * piece by piece). Integer-like keys are ordered numerically by the engine whatever the
 * insertion order, which is just as deterministic.
 */
/** Insertion sort: for the handful of keys an input object has, cheaper than Array#sort. */
const sortKeys = (keys: string[]): void => {
  if (keys.length > 16) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > k; j--) keys[j + 1] = keys[j];
    keys[j + 1] = k;
  }
};

const sortedCopy = (v: unknown): unknown => {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const item = sortedCopy(v[i]);
      if (item !== v[i]) (out ??= v.slice())[i] = item;
    }
    return out ?? v;
  }
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj);
  let inOrder = true;
  for (let i = 1; i < keys.length && inOrder; i++) inOrder = keys[i - 1] < keys[i];
  if (!inOrder) sortKeys(keys);
  let out: Record<string, unknown> | undefined = inOrder ? undefined : {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const item = sortedCopy(obj[k]);
    if (out === undefined && item !== obj[k]) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]] = obj[keys[j]];
    }
    if (out !== undefined) out[k] = item;
  }
  return out ?? v;
};

export const canonicalJson = (v: unknown): string => JSON.stringify(sortedCopy(v)) ?? "null";
