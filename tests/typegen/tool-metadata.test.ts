/**
 * Issue #25 §5: a tool's `metadata` in `luma FILE --generate-tool-types OUT.d.ts` — an
 * interface of literal types, `<Name>Metadata`, right after the tool's handler type, that
 * `tsc --strict` holds a host's value to. A tool without metadata generates what it did.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, runLuma } from "../support/luma-binary";

const dir = mkdtempSync(join(tmpdir(), "luma-typegen-metadata-"));
const file = join(dir, "meta.luma");
writeFileSync(
  file,
  `schema Doc { text: string }
tool fetch_doc(id: string) -> Doc {
  metadata: { owner: "docs-team", tier: 2, pii: false, tags: ["read", "docs"], "x-route": { queue: "docs", retry: null } }
}
tool plain(id: string) -> Doc {}
`,
);

describe("--generate-tool-types: a tool's metadata", () => {
  const out = join(dir, "tools.generated.d.ts");
  const r = runLuma([file, "--generate-tool-types", out]);
  const text = readFileSync(out, "utf8");

  test("<Name>Metadata follows the tool's handler type; a tool without metadata gets none", () => {
    expect(r.exitCode).toBe(0);
    expect(text).toContain(`export type FetchDocHandler = ToolHandler<FetchDocInput, Doc, FetchDocNeeds>;

/** The \`metadata\` of tool 'fetch_doc' (never sent to the model). */
export interface FetchDocMetadata {
  readonly owner: "docs-team";
  readonly tier: 2;
  readonly pii: false;
  readonly tags: readonly ["read", "docs"];
  readonly "x-route": { readonly queue: "docs"; readonly retry: null };
}

export interface PlainInput {`);
    expect(text).not.toContain("PlainMetadata");
  });

  test("tsc --strict accepts the declared value and refuses another", () => {
    writeFileSync(
      join(dir, "host.ts"),
      `import type { FetchDocMetadata } from "./tools.generated";
export const ok: FetchDocMetadata = { owner: "docs-team", tier: 2, pii: false, tags: ["read", "docs"], "x-route": { queue: "docs", retry: null } };
export const wrong: FetchDocMetadata = { owner: "billing", tier: 2, pii: false, tags: ["read", "docs"], "x-route": { queue: "docs", retry: null } };
`,
    );
    const tsc = join(REPO, "node_modules/.bin/tsc");
    const run = Bun.spawnSync([tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--lib", "es2022,dom", "host.ts", "tools.generated.d.ts"], { cwd: dir });
    const lines = (run.stdout.toString() + run.stderr.toString()).split("\n").filter((l) => l.includes("error"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith("host.ts(3,");
    expect(lines[0]).toContain(`Type '"billing"' is not assignable to type '"docs-team"'`);
  }, 60_000);
});
