/**
 * The SQL of the PostgreSQL idempotency store, for one table name (checked by the store
 * against a plain identifier pattern before it is spliced in; values are always bound).
 */
export interface PgStatements {
  lock: string;
  create: string[];
  readHeader: string;
  anyLive: string;
  writeHeader: string;
  claim: string;
  complete: string;
  release: string;
  renew: string;
  held: string;
  sweep: string;
  allRows: string;
  deleteAll: string;
  insert: string;
}

export const postgresStatements = (t: string): PgStatements => ({
  // An advisory lock keyed by the table name, held to the end of the open transaction.
  lock: `SELECT pg_advisory_xact_lock(hashtext('luma idempotency store ${t}'))`,
  create: [
    `CREATE TABLE IF NOT EXISTS ${t}_meta (name text PRIMARY KEY, value text NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${t} (
       kd text PRIMARY KEY, fp text NOT NULL, done boolean NOT NULL, token text NOT NULL,
       live_until bigint NOT NULL, value text)`,
    `CREATE INDEX IF NOT EXISTS ${t}_live_until ON ${t} (live_until)`,
  ],
  readHeader: `SELECT value FROM ${t}_meta WHERE name = 'header'`,
  anyLive: `SELECT 1 FROM ${t} WHERE live_until > $1 LIMIT 1`,
  writeHeader: `INSERT INTO ${t}_meta (name, value) VALUES ('header', $1) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
  // $1 kd, $2 fp, $3 token, $4 lease end, $5 now, $6 the token of a running claim found past
  // its lease whose owner is not running here (claim-owner.ts), or NULL. The first half takes
  // the key when it is free, done and expired, or still held by that very token $6 (a
  // running claim is never taken over blind: its owner may be blocked, not dead); otherwise the second half returns the live row as the statement began
  // (empty if it appeared after that: the store tries again).
  claim: `
    WITH taken AS (
      INSERT INTO ${t} AS r (kd, fp, done, token, live_until, value) VALUES ($1, $2, false, $3, $4, NULL)
      ON CONFLICT (kd) DO UPDATE SET fp = EXCLUDED.fp, done = false, token = EXCLUDED.token,
        live_until = EXCLUDED.live_until, value = NULL
      WHERE r.live_until <= $5 AND (r.done OR r.token = $6)
      RETURNING true AS claimed)
    SELECT claimed, NULL AS fp, NULL AS done, NULL AS token, NULL AS live_until, NULL AS value FROM taken
    UNION ALL
    SELECT false, fp, done, token, live_until, value FROM ${t} WHERE kd = $1 AND NOT EXISTS (SELECT 1 FROM taken)`,
  // Fenced: stores when the key is ours or free; a row of another claim (taken over) wins.
  complete: `
    INSERT INTO ${t} AS r (kd, fp, done, token, live_until, value) VALUES ($1, $2, true, $3, $4, $5)
    ON CONFLICT (kd) DO UPDATE SET done = true, live_until = EXCLUDED.live_until, value = EXCLUDED.value
    WHERE r.token = EXCLUDED.token AND NOT r.done`,
  release: `DELETE FROM ${t} WHERE kd = $1 AND token = $2 AND NOT done`,
  // $1 kd, $2 token, $3 new lease end, $4 now: only a running claim whose lease holds.
  renew: `UPDATE ${t} SET live_until = $3 WHERE kd = $1 AND token = $2 AND NOT done AND live_until > $4 RETURNING 1`,
  held: `SELECT live_until FROM ${t} WHERE kd = $1 AND token = $2 AND NOT done`,
  // $1 now, $2 now - RUNNING_RECORD_GRACE_MS: running rows stay long past their lease (record-row.ts).
  sweep: `DELETE FROM ${t} WHERE live_until <= $1 AND (done OR live_until <= $2)`,
  allRows: `SELECT kd, fp, done, token, live_until, value FROM ${t}`,
  deleteAll: `DELETE FROM ${t}`,
  insert: `INSERT INTO ${t} (kd, fp, done, token, live_until, value) VALUES ($1, $2, $3, $4, $5, $6)`,
});
