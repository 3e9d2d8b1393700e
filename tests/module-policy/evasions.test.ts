/**
 * Attempts to get around the strict policy, each pinned to what happens today: refused at
 * load, blocked when it runs, not reachable, or a KNOWN GAP — something strict does not stop,
 * listed in docs/modules.md, "Known gaps". A gap that closes (or a refusal that opens) fails
 * its row, so the table cannot drift from the documentation silently.
 */
import { describe, expect, test } from "bun:test";
import { ATTEMPTS, type Outcome } from "./evasion-attempts";
import { handlerOf, loadModule, project, settle, STRICT } from "./strict-project";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("§10 strict is a contract check, not an isolation boundary: evasion attempts, each pinned", () => {
  test("the table has at least 20 attempts, known gaps included", () => {
    expect(ATTEMPTS.length).toBeGreaterThanOrEqual(20);
    expect(ATTEMPTS.filter((a) => "knownGap" in a.outcome).length).toBeGreaterThan(0);
  });

  for (const attempt of ATTEMPTS) {
    const [kind, expected] = Object.entries(attempt.outcome)[0] as [keyof Outcome & string, unknown];
    test(`${attempt.name} → ${kind}`, async () => {
      const dir = project({ [attempt.file]: attempt.source });
      const policy = attempt.policy ?? STRICT;
      const loaded = await settle(() => loadModule(dir, attempt.file, policy));
      if (kind === "refusedAtLoad") {
        expect(loaded.ok).toBe(false);
        expect(loaded.ok || loaded.error.phase).toBe("startup");
        // "was refused: <line:col> <expected>"; a row may pin the position itself.
        const position = /^\d+:\d+ /.test(expected as string) ? "" : "(?:\\d+:\\d+ )?";
        const line = new RegExp(`^Tool module '${attempt.file}' was refused: ${position}${escape(expected as string)}`, "m");
        expect(loaded.ok || loaded.error.message).toMatch(line);
        return;
      }
      expect(loaded.ok || loaded.error.message).toBe(true);
      const probe = await handlerOf(dir, attempt.file, "probe", policy);
      const ran = await settle(() => probe(attempt.input ?? {}));
      if (kind === "blockedAtRun") {
        expect(ran.ok).toBe(false);
        expect(ran.ok || ran.error.message).toContain(expected as string);
      } else {
        expect(ran.ok || ran.error.message).toBe(true);
        expect(ran.ok && ran.value).toEqual(expected);
      }
    });
  }
});
