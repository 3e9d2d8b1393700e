/**
 * JSON with object keys in sorted order, so `{a:1,b:2}` and `{b:2,a:1}` give one text:
 * the cache key and the idempotency fingerprint of a validated input. Like JSON.stringify,
 * it drops undefined object members and writes undefined array items as null.
 */
export const canonicalJson = (v: unknown): string => {
  if (v === null || typeof v !== "object") return v === undefined ? "null" : JSON.stringify(v);
  if (Array.isArray(v)) {
    let s = "[";
    for (let i = 0; i < v.length; i++) s += (i ? "," : "") + canonicalJson(v[i]);
    return s + "]";
  }
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  let s = "{";
  let first = true;
  for (const k of keys) {
    const item = obj[k];
    if (item === undefined || typeof item === "function") continue;
    s += (first ? "" : ",") + JSON.stringify(k) + ":" + canonicalJson(item);
    first = false;
  }
  return s + "}";
};
