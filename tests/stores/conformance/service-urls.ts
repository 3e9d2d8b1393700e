/**
 * The real servers the shared backends are tested against (.ci/services/postgres.sh and
 * redis.sh): their URLs come from the environment or, when absent, from .ci/services.env.
 * Without one, a test is skipped with the reason when CI is not set, and fails under CI=true.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../../support/luma-binary";

const fromServicesEnv = (name: string): string | undefined => {
  const file = join(REPO, ".ci", "services.env");
  if (!existsSync(file)) return undefined;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0 && line.slice(0, eq) === name) return line.slice(eq + 1).trim();
  }
  return undefined;
};

export const serviceUrl = (name: "LUMA_TEST_PG_URL" | "LUMA_TEST_REDIS_URL"): string | undefined =>
  process.env[name] || fromServicesEnv(name) || undefined;

export const SERVICE_SCRIPTS = {
  LUMA_TEST_PG_URL: ".ci/services/postgres.sh",
  LUMA_TEST_REDIS_URL: ".ci/services/redis.sh",
} as const;

/** Why a service test cannot run, or undefined when it can. */
export const missingService = (name: keyof typeof SERVICE_SCRIPTS): string | undefined =>
  serviceUrl(name) ? undefined : `${name} is not set (run ${SERVICE_SCRIPTS[name]})`;

export const underCi = (): boolean => process.env.CI === "true" || process.env.CI === "1";

/** A unique name for this test run's tables / key prefixes, so runs and tests never collide. */
export const uniqueName = (stem: string): string =>
  `${stem}_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;
