/**
 * `luma test --format junit FILE`: the results as JUnit XML, the format CI systems read
 * (one <testsuite> per test file, one <testcase> per test, a <failure> with the failure's
 * text). Texts are the plain renderings (no colour), XML-escaped.
 */
export interface JunitCase {
  file: string;
  name: string;
  durationMs: number;
  /** The rendered failure; absent when the test passed. */
  failure?: string;
}

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!)
    // XML 1.0 cannot carry most control characters, even escaped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** `suites`: the name of the whole report (`luma test`, `luma eval`). */
export function junitXml(cases: readonly JunitCase[], suites = "luma test"): string {
  const byFile = new Map<string, JunitCase[]>();
  for (const c of cases) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  const failures = (cs: readonly JunitCase[]) => cs.filter((c) => c.failure !== undefined).length;
  const total = (cs: readonly JunitCase[]) => seconds(cs.reduce((t, c) => t + c.durationMs, 0));
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${escapeXml(suites)}" tests="${cases.length}" failures="${failures(cases)}" time="${total(cases)}">`];
  for (const [file, cs] of byFile) {
    lines.push(`  <testsuite name="${escapeXml(file)}" tests="${cs.length}" failures="${failures(cs)}" errors="0" time="${total(cs)}">`);
    for (const c of cs) {
      const open = `    <testcase classname="${escapeXml(file)}" name="${escapeXml(c.name)}" time="${seconds(c.durationMs)}"`;
      if (c.failure === undefined) lines.push(`${open}/>`);
      else {
        const first = c.failure.split("\n")[0];
        lines.push(`${open}>`, `      <failure message="${escapeXml(first)}">${escapeXml(c.failure)}</failure>`, "    </testcase>");
      }
    }
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>");
  return lines.join("\n") + "\n";
}
