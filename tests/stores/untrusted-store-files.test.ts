/**
 * Spec §11 through `luma` itself, as an attacker who can write the store's file or its
 * directory: a file or sqlite store that cannot be trusted — tampered, truncated, empty, a
 * symbolic link to /dev/zero, a FIFO, larger than the file store reads, not a database —
 * stops the program at start-up (exit 2, E0609, naming the file, what is wrong and how to
 * reset it), promptly, with the file left as it is and no handler run. Before, a corrupt
 * file store was moved aside and an empty one started (exit 0: every recorded call ran
 * again), /dev/zero was read until memory ran out and a FIFO blocked start-up for ever.
 * Resetting is the deliberate `luma store reset --yes`.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_ENVELOPE_BYTES } from "../../src/runtime/stores/file/read-envelope-file";
import { ensureBinary } from "../support/luma-binary";
import { DEFAULT_REDIS_PREFIX } from "../../src/runtime/stores/redis/redis-idempotency-store";
import { isolatedUrl } from "./backends/support/isolated-store-url";
import { serviceUrl } from "./conformance/service-urls";
import { makeStoreProject, PASSPHRASE, type RunResult, type StoreProject } from "./support/store-project";

const RESET_HINT =
  "; the file was left unchanged and nothing ran. An empty store would run again every call this one records: to start over deliberately, run `luma store reset` in the project directory, or move the file aside by hand.\n  = code E0609 (luma explain E0609)\n";

/** A generous deadline: a start-up that has not ended by then is blocked (a FIFO), not slow. */
const STUCK_MS = 20_000;

/**
 * Runs the program; a run still going after STUCK_MS is sent SIGTERM (and SIGKILL 5 s later)
 * and reported as `stuck`, so a blocked start-up fails the test instead of hanging it.
 */
const runGuarded = async (project: StoreProject, keys: string[], env?: Record<string, string>): Promise<RunResult & { stuck: boolean }> => {
  const run = project.start(keys, env);
  let stuck = false;
  const term = setTimeout(() => {
    stuck = true;
    process.kill(run.pid, "SIGTERM");
  }, STUCK_MS);
  const kill = setTimeout(() => run.kill9(), STUCK_MS + 5_000);
  try {
    return { ...(await run.done), stuck };
  } finally {
    clearTimeout(term);
    clearTimeout(kill);
  }
};

/** What stands at `path` now, to compare before and after: a link's target, a file's bytes, else its kind. */
const entryAt = (path: string): string => {
  const s = lstatSync(path);
  if (s.isSymbolicLink()) return `link -> ${readlinkSync(path)}`;
  if (s.isFIFO()) return "fifo";
  return s.size > 1 << 20 ? `file of ${s.size} bytes` : `file ${readFileSync(path).toString("base64")}`;
};

/**
 * Records req-1 (one handler run), damages the store with `damage`, runs req-1 again and
 * checks the refusal: exit 2, nothing on stdout, the message, no handler run, the entry at
 * the path unchanged, nothing moved aside.
 */
const expectRefused = async (project: StoreProject, damage: (path: string) => void, problem: string, env?: Record<string, string>) => {
  expect((await project.run(["req-1"])).stdout).toBe("done\n");
  const path = project.storePath!;
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
  damage(path);
  const before = entryAt(path);
  const r = await runGuarded(project, ["req-1", "req-2"], env);
  expect(r.stuck).toBe(false);
  expect(r.exitCode).toBe(2);
  expect(r.stdout).toBe("");
  const shown = path.slice(project.dir.length + 1);
  expect(r.stderr).toBe(`Error: Idempotency store ${shown} ${problem}${RESET_HINT}`);
  expect(Object.fromEntries(project.effects())).toEqual({ "req-1": 1 }); // no handler ran
  expect(entryAt(path)).toBe(before);
  expect(readdirSync(join(project.dir, "state")).filter((n) => n.includes(".corrupt-") || n.includes(".reset-"))).toEqual([]);
};

const editJson = (path: string, f: (doc: Record<string, unknown>) => void) => {
  const doc = JSON.parse(readFileSync(path, "utf8"));
  f(doc);
  writeFileSync(path, JSON.stringify(doc));
};

/** Changes one base64 character, keeping the field valid base64 of the same length. */
const flip = (b64: string): string => b64.slice(0, 4) + (b64[4] === "A" ? "B" : "A") + b64.slice(5);

const replaceWith = (make: (path: string) => void) => (path: string) => {
  rmSync(path);
  make(path);
};
const toDevZero = replaceWith((p) => symlinkSync("/dev/zero", p));
const toFifo = replaceWith((p) => expect(Bun.spawnSync(["mkfifo", p]).exitCode).toBe(0));
const toEmpty = (p: string) => writeFileSync(p, "");

describe("§11 file store: a store file that cannot be trusted stops the program, never starts an empty store", () => {
  test("a tampered header (format field): exit 2 naming the file, nothing run, nothing moved aside", async () => {
    const project = await makeStoreProject("file");
    await expectRefused(project, (p) => editJson(p, (d) => (d.format = "not-luma")), "is corrupt (it is not a Luma idempotency envelope (truncated or overwritten?))");
  });

  test("a tampered GCM tag of a sealed store", async () => {
    const project = await makeStoreProject("file", { encrypted: true });
    await expectRefused(project, (p) => editJson(p, (d) => (d.tag = flip(d.tag as string))), "is corrupt (its authentication tag does not verify (the data was altered))");
  });

  test("tampered sealed data", async () => {
    const project = await makeStoreProject("file", { encrypted: true });
    await expectRefused(project, (p) => editJson(p, (d) => (d.data = flip(d.data as string))), "is corrupt (its authentication tag does not verify (the data was altered))");
  });

  test("a truncated file", async () => {
    const project = await makeStoreProject("file");
    await expectRefused(project, (p) => truncateSync(p, Math.floor(readFileSync(p).length / 2)), "is corrupt (it is not a Luma idempotency envelope (truncated or overwritten?))");
  });

  test("an empty (0-byte) file counts as corrupt", async () => {
    const project = await makeStoreProject("file");
    await expectRefused(project, toEmpty, "is corrupt (the file is empty)");
  });

  test("a symbolic link to /dev/zero is refused without reading it", async () => {
    const project = await makeStoreProject("file");
    await expectRefused(project, toDevZero, "is a symbolic link, which the store does not follow");
  });

  test("a FIFO is refused at once: start-up does not block on it", async () => {
    const project = await makeStoreProject("file");
    await expectRefused(project, toFifo, "is a FIFO, not a regular file");
  });

  test("a file larger than the cap is refused from its size, without reading it", async () => {
    const project = await makeStoreProject("file");
    await expectRefused(project, (p) => truncateSync(p, MAX_ENVELOPE_BYTES + 1), `is ${MAX_ENVELOPE_BYTES + 1} bytes, more than a file store reads (${MAX_ENVELOPE_BYTES} bytes)`);
  });

  test("the store's path configured as /dev/zero itself (no link): refused as a device", async () => {
    const project = await makeStoreProject("file", { storePath: "/dev/zero" });
    const r = await runGuarded(project, ["req-1"]);
    expect(r).toMatchObject({ stuck: false, exitCode: 2, stdout: "" });
    expect(r.stderr).toBe(`Error: Idempotency store /dev/zero is a device, not a regular file${RESET_HINT}`);
    expect(project.effects().size).toBe(0);
  });
});

describe("§11 sqlite store: a database file that cannot be trusted stops the program", () => {
  test("a file that is not a database (overwritten with other bytes)", async () => {
    const project = await makeStoreProject("sqlite");
    await expectRefused(project, (p) => writeFileSync(p, Buffer.alloc(readFileSync(p).length, "luma")), "is not a readable SQLite database (file is not a database)");
  });

  test("a truncated database", async () => {
    const project = await makeStoreProject("sqlite");
    await expectRefused(project, (p) => truncateSync(p, 100), "is not a readable SQLite database (database disk image is malformed)");
  });

  test("an empty (0-byte) file, which SQLite itself would take for a new database", async () => {
    const project = await makeStoreProject("sqlite");
    await expectRefused(project, toEmpty, "is empty (0 bytes: Luma never leaves its store file empty)");
  });

  test("a symbolic link to /dev/zero", async () => {
    const project = await makeStoreProject("sqlite");
    await expectRefused(project, toDevZero, "is a symbolic link, which the store does not follow");
  });

  test("a FIFO: refused at once, start-up does not block on it", async () => {
    const project = await makeStoreProject("sqlite");
    await expectRefused(project, toFifo, "is a FIFO, not a regular file");
  });

  test("records whose header row was deleted (a fresh header would not read them)", async () => {
    const project = await makeStoreProject("sqlite", { encrypted: true });
    const dropHeader = (p: string) => {
      const db = new Database(p);
      db.exec("DELETE FROM luma_idempotency_meta");
      db.close();
    };
    await expectRefused(project, dropHeader, "holds records but no header", { LUMA_IDEMPOTENCY_KEY: PASSPHRASE });
  });

  test("a new store is never left empty at its path, and many first starts at once all run", async () => {
    const project = await makeStoreProject("sqlite");
    mkdirSync(join(project.dir, "state"));
    const runs = await Promise.all(["a", "b", "c", "d"].map((k) => runGuarded(project, [`req-${k}`])));
    for (const r of runs) expect(r).toMatchObject({ stuck: false, exitCode: 0, stdout: "done\n", stderr: "" });
    expect(lstatSync(project.storePath!).size).toBeGreaterThan(0);
    expect(readdirSync(join(project.dir, "state")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});

/** Deletes the store's header on the server at `url`. */
const DROP_HEADER = {
  postgres: async (url: string) => {
    const sql = new Bun.SQL({ url, max: 1 });
    await sql.unsafe("DELETE FROM luma_idempotency_meta");
    await sql.close();
  },
  redis: async (url: string) => {
    const r = new Bun.RedisClient(url);
    await r.send("DEL", [`${DEFAULT_REDIS_PREFIX}header`]);
    r.close();
  },
};

describe("§11 postgres and redis: live records whose header was deleted are refused, not re-headed", () => {
  for (const backend of ["postgres", "redis"] as const) {
    const available = serviceUrl(backend === "postgres" ? "LUMA_TEST_PG_URL" : "LUMA_TEST_REDIS_URL") !== undefined;
    (available ? test : test.skip)(`${backend}: exit 2 naming the store, nothing run; a new header would have missed the sealed records`, async () => {
      const project = await makeStoreProject(backend, { encrypted: true });
      const { url, cleanup } = await isolatedUrl(backend);
      const env = { LUMA_STORE_URL: url! };
      try {
        expect((await project.run(["req-1"], env)).stdout).toBe("done\n");
        await DROP_HEADER[backend](url!);
        const r = await runGuarded(project, ["req-1"], env);
        expect(r).toMatchObject({ stuck: false, exitCode: 2, stdout: "" });
        expect(r.stderr).toMatch(
          /^Error: Idempotency store (postgres|redis):\/\/\S+ holds records but no header; the store was left unchanged and nothing ran\. A new header would not read them \(every call they record could run again\): restore the header, or delete the records deliberately to start over\.\n {2}= code E0609/,
        );
        expect(project.effects().get("req-1")).toBe(1);
      } finally {
        await cleanup();
        await project.cleanup();
      }
    });
  }
});

describe("luma store reset: the deliberate way to start over", () => {
  const reset = (project: StoreProject, args: string[]) => {
    const p = Bun.spawnSync([ensureBinary(), "store", "reset", ...args], {
      cwd: project.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
    });
    return { exitCode: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
  };

  for (const backend of ["file", "sqlite"] as const) {
    test(`${backend}: without --yes it only says what it would do; with --yes it moves the file aside, and the next run starts empty`, async () => {
      const project = await makeStoreProject(backend);
      await expectRefused(project, toEmpty, backend === "file" ? "is corrupt (the file is empty)" : "is empty (0 bytes: Luma never leaves its store file empty)");
      const shown = `state/idem.${backend === "file" ? "json" : "sqlite"}`;

      const asked = reset(project, []);
      expect(asked.exitCode).toBe(1);
      expect(asked.stdout).toStartWith(`luma store reset would move idempotency store ${shown} aside to ${project.storePath}.reset-`);
      expect(asked.stdout).toContain("every call it records would run again");
      expect(lstatSync(project.storePath!).size).toBe(0); // not moved

      const done = reset(project, ["--yes"]);
      expect(done.exitCode).toBe(0);
      expect(done.stdout).toMatch(new RegExp(`^Moved idempotency store ${shown} aside to .*\\.reset-[0-9TZ-]+; the next run starts an empty store\\.\\n$`));
      expect(readdirSync(join(project.dir, "state")).filter((n) => n.includes(".reset-")).length).toBe(1);

      // The reset's cost, as its message says: the recorded call runs again.
      expect(await project.run(["req-1"])).toMatchObject({ exitCode: 0, stdout: "done\n", stderr: "" });
      expect(project.effects().get("req-1")).toBe(2);
    });
  }

  test("a network store is not reset here: exit 2 saying so", async () => {
    const project = await makeStoreProject("file");
    writeFileSync(join(project.dir, "luma.config.json"), JSON.stringify({ idempotency_store: { backend: "redis", url_env: "X" } }));
    const r = reset(project, ["--yes"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toStartWith("Error: luma store reset moves a file or sqlite store aside; the redis store of luma.config.json is reset with redis's own tools");
  });
});
