/**
 * Issue #28 §3: luma:std's tools run through the whole pipeline like any tool — through the
 * real `dist/luma`: an agent's `tool_policy` judges them by their side effects
 * (`deny_write`, `approval` with LUMA_APPROVED_TOOLS), and an agent's `tool_timeout`
 * aborts an HTTP request in flight (TOOL_TIMEOUT).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { attempt, luma, project } from "./std-project";

let slow: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  slow = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Bun.sleep(5_000).then(() => new Response("late")) });
});
afterAll(() => slow.stop(true));

const AGENT = (policy: string) => `import { read_file, write_file } from "luma:std"

agent Keeper {
  tools: [read_file, write_file]
  tool_policy: "${policy}"

  fn run() -> any {
    print(tool read_file({ path: "in.txt" }).text)
${attempt('tool write_file({ path: "out.txt", text: "x", request_id: "1" })')
  .split("\n")
  .map((l) => (l === "" ? l : `    ${l}`))
  .join("\n")}
  }
}

Keeper.run()
`;

test("deny_write: read_file runs, write_file is refused before its handler", async () => {
  const dir = project({ "in.txt": "read ok", "main.luma": AGENT("deny_write") });
  const r = await luma(["main.luma"], dir);
  expect(r.stdout).toBe("read ok\nTOOL_PERMISSION_DENIED: Tool 'write_file' writes, and agent 'Keeper' has tool_policy deny_write.\n");
  expect(existsSync(join(dir, "out.txt"))).toBe(false);
});

test("approval: write_file waits for a person — refused off a terminal, run when listed in LUMA_APPROVED_TOOLS", async () => {
  const dir = project({ "in.txt": "read ok", "main.luma": AGENT("approval") });
  const refused = await luma(["main.luma"], dir);
  expect(refused.stdout).toContain("TOOL_PERMISSION_DENIED: Tool 'write_file' needs approval");
  expect(existsSync(join(dir, "out.txt"))).toBe(false);
  const approved = await luma(["main.luma"], dir, { LUMA_APPROVED_TOOLS: "write_file" });
  expect(approved.stdout).toBe('read ok\n{"path":"out.txt","bytes":1}\n');
  expect(existsSync(join(dir, "out.txt"))).toBe(true);
});

test("an agent's tool_timeout aborts http_get in flight: TOOL_TIMEOUT", async () => {
  const dir = project({
    "luma.config.json": JSON.stringify({ std: { http_hosts: [`127.0.0.1:${slow.port}`] } }),
    "main.luma": `import { http_get } from "luma:std"

agent Fetcher {
  tools: [http_get]
  tool_timeout: 300

  fn run() -> any {
    return tool http_get({ url: "http://127.0.0.1:${slow.port}/" })
  }
}

${attempt("Fetcher.run()")}`,
  });
  const started = performance.now();
  const r = await luma(["main.luma"], dir);
  expect(r.stdout).toStartWith("TOOL_TIMEOUT: ");
  expect(performance.now() - started).toBeLessThan(4_000);
});
