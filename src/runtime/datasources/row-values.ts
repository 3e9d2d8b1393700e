/**
 * Driver values → Luma values, before a row is validated. Drivers return types Luma has no
 * word for; each becomes the plain value a schema can describe:
 *   bigint (Postgres int8, COUNT(*))   → number when it is a safe integer, else its digits
 *   Date (timestamp, date)             → ISO-8601 string
 *   Uint8Array / Buffer (bytea, BLOB)  → base64 string
 *   other typed arrays (int4[])        → arrays
 * `undefined` fields are dropped. Everything else passes through unchanged, so a value of
 * the wrong type still fails validation.
 */
function plainBigint(v: bigint): number | string {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v.toString();
}

export function plainValue(v: unknown): unknown {
  if (typeof v === "bigint") return plainBigint(v);
  if (v === null || typeof v !== "object") return v;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64");
  if (v instanceof ArrayBuffer) return Buffer.from(v).toString("base64");
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<unknown>, plainValue);
  if (Array.isArray(v)) return v.map(plainValue);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = plainValue(x);
  return out;
}
