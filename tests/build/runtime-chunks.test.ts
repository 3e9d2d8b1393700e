/**
 * Start-up (ROADMAP U7): `dist/luma` and every built agent are split into chunks at the
 * runtime's dynamic imports, so a start loads only what `src/cli/main.ts` imports
 * statically and the stages a command reaches. This holds the shape that makes the start
 * fast (the speed itself is measured by `bun run bench`, never here): the runtime bundle
 * `luma build` embeds (dist/luma-runtime.json, bundled as dist/luma is) is split, and what its
 * entry imports statically is small and holds none of the heavy stages.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../support/luma-binary";

interface RuntimeBundle {
  entry: string;
  files: Record<string, string>;
}

const bundle = (): RuntimeBundle => {
  ensureBinary(); // builds dist/ when it is missing
  return JSON.parse(readFileSync(join(import.meta.dir, "../../dist/luma-runtime.json"), "utf8"));
};

/** The chunks the entry loads before it runs: its static imports, and theirs. */
function staticClosure(b: RuntimeBundle): string[] {
  const seen = new Set<string>();
  const stack = [b.entry];
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const m of b.files[name].matchAll(/(?:from|import)\s*"\.\/([^"]+)"/g)) stack.push(m[1]);
  }
  return [...seen];
}

/** Text only each stage's code holds (a protocol string, a header, a module name). */
const STAGES: Record<string, string> = {
  "the MCP SDK": "notifications/cancelled",
  "the Anthropic adapter": "anthropic-version",
  "the Gemini adapter": "generateContent",
  "the SQLite stores": "bun:sqlite",
  "TypeBox": "TypeBox",
};

describe("start-up: the runtime is split at its dynamic imports", () => {
  test("the runtime bundle is chunks, and every chunk the entry names is in it", () => {
    const b = bundle();
    expect(Object.keys(b.files).length).toBeGreaterThan(20);
    for (const name of staticClosure(b)) expect(b.files[name]).toBeString();
  });

  test("what the entry imports statically is under 64 KiB of the bundle's ~1 MiB", () => {
    const b = bundle();
    const closure = staticClosure(b).reduce((n, name) => n + b.files[name].length, 0);
    const whole = Object.values(b.files).reduce((n, text) => n + text.length, 0);
    expect(closure).toBeLessThan(64 * 1024);
    expect(whole).toBeGreaterThan(10 * closure);
  });

  for (const [stage, marker] of Object.entries(STAGES)) {
    test(`${stage}: in the bundle, and in none of the chunks every start loads`, () => {
      const b = bundle();
      expect(Object.values(b.files).some((text) => text.includes(marker))).toBe(true);
      expect(staticClosure(b).filter((name) => b.files[name].includes(marker))).toEqual([]);
    });
  }
});
