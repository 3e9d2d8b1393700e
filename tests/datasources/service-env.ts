/**
 * Real services for the datasource tests (started by `.ci/services/*.sh`): a variable comes
 * from the environment or, when absent there, from `.ci/services.env`. Without it the tests
 * are skipped with the reason printed — except under CI=true, where they fail.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../support/luma-binary";

export function serviceVar(name: string): string | undefined {
  if (process.env[name]) return process.env[name];
  const file = join(REPO, ".ci", "services.env");
  if (!existsSync(file)) return undefined;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0 && line.slice(0, eq).trim() === name) return line.slice(eq + 1).trim();
  }
  return undefined;
}

/** The variable's value, or undefined after saying why the tests are skipped (throws under CI). */
export function requireService(name: string, script: string): string | undefined {
  const value = serviceVar(name);
  if (value !== undefined) return value;
  const why = `${name} is not set: run \`bash ${script}\` to start the server.`;
  if (process.env.CI === "true") throw new Error(`CI=true and ${why}`);
  console.warn(`skipping: ${why}`);
  return undefined;
}
