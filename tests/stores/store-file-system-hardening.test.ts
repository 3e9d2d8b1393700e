/**
 * Spec §11 through `luma` itself, as an attacker who can write the store's directory or
 * file: a store that cannot be written stops the program at start-up (exit 2, before any
 * handler runs), planted symbolic links are never written through, and KDF parameters read
 * from a store are bounded. The tests run as root in CI, and root ignores permission bits:
 * "cannot be written" is made with `chattr +i` (immutable, which binds root too) where the
 * file system has it, else with mode bits for a non-root user.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeStoreProject, PASSPHRASE, type ProjectBackend, type StoreProject } from "./support/store-project";
import { freshDir } from "./support/store-fixture";

const isRoot = process.getuid?.() === 0;

/** Whether `chattr +i` works here (and binds root): probed once on a scratch directory. */
const chattrWorks = (() => {
  const dir = freshDir();
  if (Bun.spawnSync(["chattr", "+i", dir], { stderr: "pipe" }).exitCode !== 0) return false;
  let bound = false;
  try {
    writeFileSync(join(dir, "probe"), "x");
  } catch {
    bound = true;
  }
  Bun.spawnSync(["chattr", "-i", dir]);
  return bound;
})();
const canMakeReadOnly = chattrWorks || !isRoot;

/** Makes `path` unwritable for this process while `body` runs, then writable again. */
const readOnlyWhile = async <T,>(path: string, body: () => Promise<T>): Promise<T> => {
  if (chattrWorks) Bun.spawnSync(["chattr", "+i", path]);
  else chmodSync(path, 0o500);
  try {
    return await body();
  } finally {
    if (chattrWorks) Bun.spawnSync(["chattr", "-i", path]);
    else chmodSync(path, 0o700);
  }
};

const roTest = canMakeReadOnly ? test : test.skip;

const expectStopped = (r: { exitCode: number | null; stdout: string; stderr: string }, project: StoreProject, before: number) => {
  expect(r.exitCode).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).not.toContain("    at ");
  expect([...project.effects().values()].reduce((a, b) => a + b, 0)).toBe(before); // no handler ran
};

describe("§11 a store that cannot be written stops the program at start-up, before any handler runs", () => {
  for (const backend of ["file", "sqlite"] as ProjectBackend[]) {
    roTest(`${backend}: the store's directory made read-only after a first run: exit 2 naming the store; writable again, the key runs once`, async () => {
      const project = await makeStoreProject(backend);
      expect((await project.run(["req-1"])).stdout).toBe("done\n");
      const r = await readOnlyWhile(join(project.dir, "state"), () => project.run(["req-2"]));
      expectStopped(r, project, 1);
      expect(r.stderr).toStartWith(`Error: Idempotency store state/idem.${backend === "file" ? "json" : "sqlite"}`);
      expect((await project.run(["req-2", "req-2"])).stdout).toBe("done\n");
      expect(project.effects().get("req-2")).toBe(1);
    });

    roTest(`${backend}: the store file itself read-only: exit 2, the file unchanged`, async () => {
      const project = await makeStoreProject(backend);
      expect((await project.run(["req-1"])).stdout).toBe("done\n");
      const before = readFileSync(project.storePath!);
      const r = await readOnlyWhile(project.storePath!, () => project.run(["req-2"]));
      expectStopped(r, project, 1);
      expect(readFileSync(project.storePath!).equals(before)).toBe(true);
    });
  }

  roTest("file: the message says why, and no temp file is left in the directory", async () => {
    const project = await makeStoreProject("file");
    expect((await project.run(["req-1"])).stdout).toBe("done\n");
    const r = await readOnlyWhile(join(project.dir, "state"), () => project.run(["req-2"]));
    expect(r.stderr).toMatch(
      /^Error: Idempotency store state\/idem\.json cannot be written \((EPERM|EACCES|EROFS): .*\); a completed call could not be recorded, so nothing was run\.\n  = code E0608 \(luma explain E0608\)\n$/,
    );
    const r2 = await readOnlyWhile(project.storePath!, () => project.run(["req-2"]));
    expect(r2.stderr).toMatch(/^Error: Idempotency store state\/idem\.json cannot be written \((EPERM|EACCES|EROFS): .*access.*\)/);
    expect(readdirSync(join(project.dir, "state")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  test("a directory that exists and even root cannot write (/sys/fs): exit 2, nothing run", async () => {
    for (const backend of ["file", "sqlite"] as ProjectBackend[]) {
      const project = await makeStoreProject(backend, { storePath: `/sys/fs/luma-idem.${backend}` });
      const r = await project.run(["req-1"]);
      expectStopped(r, project, 0);
      expect(r.stderr).toStartWith(`Error: Idempotency store /sys/fs/luma-idem.${backend}`);
    }
  });
});

describe("§11 planted symbolic links are never written through", () => {
  for (const suffix of [".claims", ".lock"]) {
    test(`file: state/idem.json${suffix} planted as a symlink to another file: exit 2 naming it, the target unchanged`, async () => {
      const project = await makeStoreProject("file");
      mkdirSync(join(project.dir, "state"));
      const victim = join(project.dir, "victim.txt");
      writeFileSync(victim, "precious\n");
      symlinkSync(victim, `${project.storePath}${suffix}`);
      const r = await project.run(["req-1"]);
      expectStopped(r, project, 0);
      expect(r.stderr).toBe(
        `Error: Idempotency store state/idem.json: cannot open it: ${project.storePath}${suffix} is a symbolic link, which the store does not open (left as it is)\n  = code E0608 (luma explain E0608)\n`,
      );
      expect(readFileSync(victim, "utf8")).toBe("precious\n");
    });
  }

  test("file: a FIFO planted as the claim table is refused, not opened for writing (and never blocks)", async () => {
    const project = await makeStoreProject("file");
    mkdirSync(join(project.dir, "state"));
    expect(Bun.spawnSync(["mkfifo", `${project.storePath}.claims`]).exitCode).toBe(0);
    const r = await project.run(["req-1"]);
    expectStopped(r, project, 0);
    expect(r.stderr).toContain("idem.json.claims is not a regular file");
  });

  test("file: a symlinked store file is refused (never followed, never replaced), its target never written", async () => {
    const project = await makeStoreProject("file");
    mkdirSync(join(project.dir, "state"));
    const victim = join(project.dir, "victim.json");
    writeFileSync(victim, "precious\n");
    symlinkSync(victim, project.storePath!);
    const r = await project.run(["req-1"]);
    expectStopped(r, project, 0);
    expect(r.stderr).toStartWith("Error: Idempotency store state/idem.json is a symbolic link, which the store does not follow;");
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
  });

  test("sqlite: -wal and -shm planted as symlinks: the targets unchanged (SQLite opens them with O_NOFOLLOW)", async () => {
    const project = await makeStoreProject("sqlite");
    mkdirSync(join(project.dir, "state"));
    const victim = join(project.dir, "victim.txt");
    writeFileSync(victim, "precious\n");
    symlinkSync(victim, `${project.storePath}-wal`);
    symlinkSync(join(project.dir, "victim-shm.txt"), `${project.storePath}-shm`);
    const r = await project.run(["req-1"]);
    expect(r.stderr).not.toContain("    at ");
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(existsSync(join(project.dir, "victim-shm.txt"))).toBe(false);
  });
});

/** KDF parameters far beyond Luma's own (2^20 · 8 · 16: about 1000× its work and 1 GiB). */
const COSTLY = { n: 1 << 20, r: 8, p: 16 };

describe("§11 KDF parameters read from a store are bounded", () => {
  test("file: an envelope asking for a costly scrypt is treated as a malformed header (refused, left as it is), never derived", async () => {
    const project = await makeStoreProject("file", { encrypted: true });
    expect((await project.run(["req-1"])).stdout).toBe("done\n");
    const env = JSON.parse(readFileSync(project.storePath!, "utf8"));
    env.kdf = { ...env.kdf, ...COSTLY };
    writeFileSync(project.storePath!, JSON.stringify(env));
    const r = await project.run(["req-2"]);
    expectStopped(r, project, 1);
    expect(r.stderr).toStartWith("Error: Idempotency store state/idem.json is corrupt (its encryption header is malformed); the file was left unchanged");
    expect(JSON.parse(readFileSync(project.storePath!, "utf8")).kdf.n).toBe(COSTLY.n);
  });

  test("sqlite: a header asking for a costly scrypt is a startup error, the store left unchanged", async () => {
    const project = await makeStoreProject("sqlite", { encrypted: true });
    expect((await project.run(["req-1"])).stdout).toBe("done\n");
    const db = new Database(project.storePath!);
    const header = JSON.parse(db.query<{ value: string }, []>("SELECT value FROM luma_idempotency_meta WHERE name = 'header'").get()!.value);
    header.kdf = { ...header.kdf, ...COSTLY };
    db.query("UPDATE luma_idempotency_meta SET value = ? WHERE name = 'header'").run(JSON.stringify(header));
    db.close();
    const r = await project.run(["req-2"], { LUMA_IDEMPOTENCY_KEY: PASSPHRASE });
    expectStopped(r, project, 1);
    expect(r.stderr).toBe("Error: Idempotency store state/idem.sqlite has a malformed encryption header; the store was left unchanged.\n  = code E0609 (luma explain E0609)\n");
  });

  test("parameters Luma writes itself still open (the bound is not below them)", async () => {
    const project = await makeStoreProject("file", { encrypted: true });
    expect((await project.run(["req-1"])).stdout).toBe("done\n");
    expect(await project.run(["req-1"])).toMatchObject({ exitCode: 0, stdout: "done\n", stderr: "" });
    expect(project.effects().get("req-1")).toBe(1);
  });
});
