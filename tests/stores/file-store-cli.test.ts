/**
 * Spec §11 through `luma` itself: the file store is opened at startup, so its errors stop
 * the program before its first statement (exit 2), its warnings go to stderr, and a
 * relative `path` lives in the project directory whatever the working directory.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../support/luma-binary";
import { makeStoreProject, PASSPHRASE } from "./support/store-project";

describe("§11 file store from luma.config.json", () => {
  test("encryption without LUMA_IDEMPOTENCY_KEY: startup error naming it, exit 2, nothing run", async () => {
    const project = await makeStoreProject("file", { encrypted: true });
    const r = await project.run(["req-1"], { LUMA_IDEMPOTENCY_KEY: "" });
    expect(r).toMatchObject({
      exitCode: 2,
      stdout: "",
      stderr: 'Error: idempotency_store encryption "aes-256-gcm" needs the passphrase in LUMA_IDEMPOTENCY_KEY, which is not set.\n  = code E0607 (luma explain E0607)\n',
    });
    expect(project.effects().size).toBe(0);
  });

  test("a wrong LUMA_IDEMPOTENCY_KEY: startup error, exit 2, the store untouched and still readable with the right key", async () => {
    const project = await makeStoreProject("file", { encrypted: true });
    expect((await project.run(["req-1"])).exitCode).toBe(0);
    const r = await project.run(["req-1"], { LUMA_IDEMPOTENCY_KEY: "not the key" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      "Error: LUMA_IDEMPOTENCY_KEY does not match the key idempotency store state/idem.json was encrypted with; the file was left unchanged.\n  = code E0609 (luma explain E0609)\n",
    );
    expect((await project.run(["req-1"], { LUMA_IDEMPOTENCY_KEY: PASSPHRASE })).stdout).toBe("done\n");
    expect(project.effects().get("req-1")).toBe(1);
  });

  test("a corrupt store file: startup error naming it and how to reset it, exit 2, nothing run, the file left as it is", async () => {
    const project = await makeStoreProject("file");
    mkdirSync(join(project.dir, "state"));
    writeFileSync(project.storePath!, "{ not json");
    const r = await project.run(["req-1"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "Error: Idempotency store state/idem.json is corrupt (it is not a Luma idempotency envelope (truncated or overwritten?)); the file was left unchanged and nothing ran. An empty store would run again every call this one records: to start over deliberately, run `luma store reset` in the project directory, or move the file aside by hand.\n  = code E0609 (luma explain E0609)\n",
    );
    expect(readFileSync(project.storePath!, "utf8")).toBe("{ not json");
    expect(readdirSync(join(project.dir, "state")).some((n) => n.includes(".corrupt-"))).toBe(false);
    expect(project.effects().size).toBe(0);
  });

  test("a store directory that cannot be created: a startup error naming the path, exit 2, no stack trace, nothing run", async () => {
    const project = await makeStoreProject("file", { storePath: "blocker/idem.json" });
    writeFileSync(join(project.dir, "blocker"), "a file where the store's directory should be");
    const r = await project.run(["req-1"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^Error: Idempotency store blocker\/idem\.json: cannot create its directory: .*blocker.*\n {2}= code E0608 \(luma explain E0608\)\n$/);
    expect(project.effects().size).toBe(0);
  });

  test("a relative path is resolved against the project directory, not the working directory", async () => {
    const project = await makeStoreProject("file");
    const elsewhere = join(project.dir, "elsewhere");
    mkdirSync(elsewhere);
    const proc = Bun.spawnSync([ensureBinary(), join(project.dir, "program.luma"), "req-1"], {
      cwd: elsewhere,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LUMA_NO_CACHE: "1", EFFECTS_LOG: project.effectsLog },
    });
    expect(proc.exitCode).toBe(0);
    expect(existsSync(project.storePath!)).toBe(true);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
