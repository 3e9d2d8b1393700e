/**
 * A PostgreSQL schema of one test file's own, made before its tests and dropped after, so
 * files running at once on the shared server never see each other's tables.
 */
import { afterAll, beforeAll } from "bun:test";

export interface PgSchema {
  /** The schema's name, to write as `name.table`. */
  readonly name: string;
  /** The admin connection (open between beforeAll and afterAll). */
  admin(): InstanceType<typeof Bun.SQL>;
}

/** `setup` statements may write `S.` for the schema. */
export function pgSchema(url: string | undefined, prefix: string, setup: string[]): PgSchema {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  let admin: InstanceType<typeof Bun.SQL> | undefined;
  beforeAll(async () => {
    if (!url) return;
    admin = new Bun.SQL(url);
    await admin.unsafe(`CREATE SCHEMA ${name}`);
    for (const sql of setup) await admin.unsafe(sql.replaceAll("S.", `${name}.`));
  });
  afterAll(async () => {
    if (!admin) return;
    await admin.unsafe(`DROP SCHEMA ${name} CASCADE`);
    await admin.close();
  });
  return { name, admin: () => admin! };
}
