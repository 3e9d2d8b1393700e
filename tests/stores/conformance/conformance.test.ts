/**
 * Spec §9 (idempotency) and §11 (stores): ONE suite, run against every backend — memory,
 * file, sqlite, postgres, redis — with the same cases, so the backends cannot drift. A case
 * that does not apply to a backend (leases in the process-local memory store, encryption
 * where there is none) says so in its `applies`. Postgres and Redis run against the real
 * servers of .ci/services (LUMA_TEST_PG_URL, LUMA_TEST_REDIS_URL).
 */
import { describe } from "bun:test";
import { registerCase } from "./conformance-harness";
import { ENCRYPTION_CASES } from "./encryption-cases";
import { IN_FLIGHT_CASES } from "./in-flight-cases";
import { RECORD_CASES } from "./record-cases";
import { STORE_BACKENDS } from "./store-backends";

for (const backend of STORE_BACKENDS) {
  describe(`§11 idempotency store conformance: ${backend.name}`, () => {
    for (const c of [...RECORD_CASES, ...IN_FLIGHT_CASES, ...ENCRYPTION_CASES]) registerCase(backend, c);
  });
}
