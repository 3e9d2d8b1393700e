/**
 * What a module specifier is by its spelling alone — the one test every loader and checker
 * uses (the CommonJS require, the `dependencies` check, the strict decision table).
 */
import { isAbsolute } from "node:path";

/** `./x`, `../x`, `.`, `..` or an absolute path: a file, never a package or a builtin. */
export const isPathSpecifier = (specifier: string): boolean => /^\.{1,2}(?:\/|$)/.test(specifier) || isAbsolute(specifier);

/** `node:fs`, `file:///x`, `data:…`, `https://…`: a URL-ish `scheme:` prefix. */
export const hasUrlScheme = (specifier: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(specifier);
