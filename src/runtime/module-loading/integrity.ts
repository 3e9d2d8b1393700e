/**
 * Manifest integrity (spec §10): `sha256-<base64>` of the file's bytes, checked before the
 * module is loaded, so a tampered file never runs.
 */
import { startupError } from "../../diagnostics/luma-error";

export const integrityOf = (bytes: Uint8Array): string => `sha256-${new Bun.CryptoHasher("sha256").update(bytes).digest("base64")}`;

export function checkIntegrity(shownPath: string, bytes: Uint8Array, expected: string): void {
  const actual = integrityOf(bytes);
  if (actual !== expected) {
    throw startupError(
      `Tool module '${shownPath}' was refused: integrity mismatch (expected ${expected}, actual ${actual}).`,
      { catalogCode: "E0503" },
    );
  }
}
