/**
 * Dotted paths for issues: `calculate.input.a`, `Answer.tags[2]`. Keys that are not
 * identifiers (only possible for unknown fields) are quoted: `x["two words"]`.
 * Paths are built only on the failure path, so the happy path allocates no strings.
 */
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function childPath(parent: string, key: string): string {
  if (!IDENT.test(key)) return `${parent}[${JSON.stringify(key)}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

export const indexPath = (parent: string, index: number): string => `${parent}[${index}]`;

/** What a message says when the root itself is the subject and the caller gave no root. */
export const subject = (path: string): string => (path === "" ? "value" : path);
