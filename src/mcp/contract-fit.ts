/**
 * Whether a Luma tool contract fits the `inputSchema` an MCP server lists for its tool,
 * checked at start-up so that a mismatch stops the program before any call (exit 2)
 * instead of failing on the server mid-run. One problem per line, each naming the tool,
 * the field and the server:
 * - a field the server requires that the contract lacks (or makes optional);
 * - a field whose JSON type differs (an `int` fits a server's `number`, not the reverse);
 * - a field the contract has that the server does not take (`additionalProperties: false`).
 *
 * Only the top level and the JSON `type` are compared: the contract's own rules (ranges,
 * patterns) are stricter by design, and the server validates the rest itself.
 */
type JsonSchema = Record<string, unknown>;

const typesOf = (schema: JsonSchema | undefined): string[] | undefined => {
  const t = schema?.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string");
  if (Array.isArray(schema?.enum)) return [...new Set(schema.enum.map((v) => (v === null ? "null" : typeof v)))];
  return undefined;
};

/** Every value of type `ours` is accepted by `theirs`. */
const fits = (ours: string, theirs: readonly string[]) => theirs.includes(ours) || (ours === "integer" && theirs.includes("number"));

export function contractProblems(
  tool: string,
  server: string,
  contract: JsonSchema,
  remote: JsonSchema,
): string[] {
  const say = (what: string) => `Tool '${tool}' does not fit MCP server '${server}': ${what}.`;
  const ours = (contract.properties ?? {}) as Record<string, JsonSchema>;
  const ourRequired = new Set((contract.required ?? []) as string[]);
  const theirs = (remote.properties ?? {}) as Record<string, JsonSchema>;
  const problems: string[] = [];
  for (const field of (remote.required ?? []) as string[]) {
    if (!Object.hasOwn(ours, field)) problems.push(say(`the server requires field '${field}', which the contract lacks`));
    else if (!ourRequired.has(field)) problems.push(say(`the server requires field '${field}', which the contract makes optional`));
  }
  for (const [field, schema] of Object.entries(ours)) {
    if (!Object.hasOwn(theirs, field)) {
      if (remote.additionalProperties === false) problems.push(say(`the server does not take field '${field}'`));
      continue;
    }
    const mine = typesOf(schema);
    const other = typesOf(theirs[field]);
    if (mine === undefined || other === undefined) continue;
    const bad = mine.filter((t) => t !== "null" && !fits(t, other));
    if (bad.length > 0) problems.push(say(`field '${field}' is ${mine.join(" | ")} in the contract but ${other.join(" | ")} on the server`));
  }
  return problems;
}
