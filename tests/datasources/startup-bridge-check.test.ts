import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";
import { runProgram } from "./run-luma-program";

const inTemp = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), "luma-ds-start-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};

describe("§12 startup: every datasource has a bridge before anything runs", () => {
  test("no bridge → exit 2 before any statement, *exact* `datasource 'Warehouse' has no registered bridge.`", () => {
    const dir = inTemp({
      "main.luma": `print("side effect")\ndatasource Warehouse {}\nschema R { id: int }\nquery q() -> R[] { source: Warehouse  sql: "SELECT 1" }\n`,
    });
    const r = runLuma([join(dir, "main.luma")]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("Error: datasource 'Warehouse' has no registered bridge.\n  = code E0603 (luma explain E0603)\n");
  });

  test("url_env naming an unset variable stops the program at startup, naming the variable", async () => {
    const r = await runProgram(`print("x")\ndatasource Db { url_env: "LUMA_TEST_NO_SUCH_URL" }`);
    expect(r.out).toEqual([]);
    expect(r.error?.phase).toBe("startup");
    expect(r.error?.message).toBe("datasource 'Db': environment variable LUMA_TEST_NO_SUCH_URL is not set.");
  });

  test("a url_env value that no built-in bridge speaks is a startup error that never prints the URL", async () => {
    const r = await runProgram(`datasource Db { url_env: "DB_URL" }`, { env: { DB_URL: "mysql://root:s3cr3tpw@db/x" } });
    expect(r.error?.phase).toBe("startup");
    expect(r.error?.message).toBe(`datasource 'Db': the value of DB_URL is not a "sqlite:PATH" or "postgres://…" URL.`);
    expect(r.error?.message).not.toContain("s3cr3tpw");
  });

  test("a module bridge wins over a url", async () => {
    const r = await runProgram(
      `datasource Warehouse { url: "sqlite:./missing-dir/none.db?mode=ro" }
schema R { n: int }
query q() -> R[] { source: Warehouse  sql: "SELECT 7 AS n" }
print(query q({})[0].n)`,
      { files: { "bridge.ts": `export const datasources = { Warehouse: () => [{ n: 42 }] };` }, modules: ["bridge.ts"] },
    );
    expect(r.error).toBeUndefined();
    expect(r.out).toEqual(["42"]);
  });

  test("several datasources without a bridge are all reported, one per line", async () => {
    const r = await runProgram(`datasource A {}\ndatasource B {}`);
    expect(r.error?.message).toBe("datasource 'A' has no registered bridge.\ndatasource 'B' has no registered bridge.");
  });
});

describe("§12 check rules (extension keys)", () => {
  test("url and url_env together, or a url no built-in bridge speaks, are check errors", () => {
    const dir = inTemp({
      "main.luma": `datasource A { url: "sqlite:a.db"  url_env: "X" }\ndatasource B { url: "mysql://u:pw@h/db" }\n`,
    });
    const r = runLuma(["check", join(dir, "main.luma")]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Datasource 'A' sets both url and url_env; keep one.");
    expect(r.stderr).toContain(`Datasource 'B' url must start with "sqlite:" or "postgres://"`);
  });

  test("a query may carry a `description` (for the model); other keys are rejected", () => {
    const dir = inTemp({
      "main.luma": `datasource A { url: "sqlite::memory:" }\nschema R { n: int }\nquery q() -> R[] { source: A  sql: "SELECT 1 AS n"  description: "One row" }\nquery p() -> R[] { source: A  sql: "x"  retries: 2 }\n`,
    });
    const r = runLuma(["check", join(dir, "main.luma")]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("Unknown key 'retries' in query 'p'");
    expect(r.stderr).not.toContain("description");
  });
});
