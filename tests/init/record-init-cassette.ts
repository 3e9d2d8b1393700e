/**
 * Records the cassette `luma init` ships (src/init/templates/cassette.jsonl.txt): the
 * scaffolded main.luma runs once with `--record` against the fake provider, the model
 * scripted with the advice it answers. Re-run it after changing the main.luma template
 * (a changed prompt or schema changes the request hash):
 *
 *   bun tests/init/record-init-cassette.ts && bun run build
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runFile } from "../../src/index";
import { initProject } from "../../src/init/init-project";
import { startFakeProvider } from "../support/fake-provider/fake-provider";

const TEMPLATE = resolve(import.meta.dir, "../../src/init/templates/cassette.jsonl.txt");

const dir = mkdtempSync(join(tmpdir(), "luma-init-record-"));
const fake = await startFakeProvider();
try {
  initProject(dir, dir);
  // Record with the real tool module but without the config's "replay" (which would answer instead).
  writeFileSync(join(dir, "record.config.json"), JSON.stringify({ tool_modules: [{ path: "./tools.ts", version: "1.0.0" }] }));
  fake.script([{ json: { wear: "light clothes and sunglasses", umbrella: false } }]);
  const out: string[] = [];
  await runFile({
    file: join(dir, "main.luma"),
    args: [],
    toolModules: [],
    configPath: join(dir, "record.config.json"),
    cwd: dir,
    env: { PATH: process.env.PATH, LUMA_NO_CACHE: "1", OPENAI_API_KEY: "recorded-against-the-fake-provider", LUMA_BASE_URL_ASSISTANT: fake.baseUrl("openai") },
    stdout: (l) => void out.push(l),
    stderr: (l) => void out.push(l),
    interactive: false,
    record: join(dir, "recorded.jsonl"),
  });
  if (fake.pending !== 0) throw new Error(`${fake.pending} scripted turn(s) were not used`);
  // The URL is not part of the match (cassette.ts); the provider's own reads better than the fake's port.
  const lines = readFileSync(join(dir, "recorded.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  for (const entry of lines) entry.request.url = "https://api.openai.com/v1/chat/completions";
  writeFileSync(TEMPLATE, lines.map((e) => JSON.stringify(e)).join("\n") + "\n");
  console.log(`recorded ${TEMPLATE} (${fake.requests.length} exchange)\n  ${out.join("\n  ")}`);
} finally {
  fake.stop();
  rmSync(dir, { recursive: true, force: true });
}
