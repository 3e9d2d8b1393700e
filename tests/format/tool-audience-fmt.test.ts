/**
 * `luma fmt` and issue #25's tool keys: `audience`, `instructions`, `max_result_chars` and a
 * multi-line `metadata` object (nested objects and lists, a quoted key) come out in the
 * canonical layout, the result is a fixed point, and it still checks clean — through dist/luma.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const SOURCE = `schema Out { ok: bool }
tool lookup(id: string) -> Out {
    audience:   "model"
  instructions: "Look it up first."
  max_result_chars: 500
  metadata: {
      owner: "team-a",
      "x-route": { queue: "q1", retry: null },
      tags: ["read",   "web"]
  }
}
`;
const CANONICAL = `schema Out {
  ok: bool
}
tool lookup(id: string) -> Out {
  audience: "model"
  instructions: "Look it up first."
  max_result_chars: 500
  metadata: {
    owner: "team-a"
    "x-route": { queue: "q1", retry: null }
    tags: ["read", "web"]
  }
}
`;

test("luma fmt lays the keys out canonically, twice the same, and the result checks clean", () => {
  const dir = mkdtempSync(join(tmpdir(), "luma-fmt-audience-"));
  const file = join(dir, "tools.luma");
  writeFileSync(file, SOURCE);
  expect(runLuma(["fmt", file]).exitCode).toBe(0);
  expect(readFileSync(file, "utf8")).toBe(CANONICAL);
  const again = runLuma(["fmt", "--check", file]);
  expect(again.exitCode).toBe(0);
  const checked = runLuma(["check", file]);
  expect(checked.stdout + checked.stderr).toContain(": ok");
});
