/**
 * Golden fixtures: a `.luma` file that ends with a comment block holding the diagnostics
 * the tool must print for it. `LUMA_UPDATE=1` rewrites the blocks (review the diff).
 * Shared by the check fixtures and the parse fixtures.
 */
export const MARKER = "// === expected diagnostics ===";
const NONE = "(none)";

/** The fixture's source (without its expected block) and the expected text. */
export function splitFixture(text: string): { source: string; expected: string | undefined } {
  const at = text.indexOf(`\n${MARKER}\n`);
  if (at === -1) return { source: text.replace(/\n*$/, "\n\n"), expected: undefined };
  const block = text.slice(at + MARKER.length + 2).replace(/\n$/, "");
  const expected = block
    .split("\n")
    .map((line) => line.replace(/^\/\/ ?/, ""))
    .join("\n");
  return { source: text.slice(0, at + 1), expected: expected === NONE ? "" : expected };
}

/** The comment block that records `rendered` as a fixture's expected diagnostics. */
export function renderBlock(rendered: string): string {
  const body = rendered === "" ? NONE : rendered;
  return `${MARKER}\n${body
    .split("\n")
    .map((line) => (line === "" ? "//" : `// ${line}`))
    .join("\n")}\n`;
}
