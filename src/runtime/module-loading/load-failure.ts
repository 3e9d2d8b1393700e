/**
 * The startup errors a tool module load can end in. Each names the module as the user wrote
 * it and says the cause in one line — never a stack trace (spec §9: bad user input is a
 * LumaError, not a crash).
 */
import { startupError, type LumaError } from "../../diagnostics/luma-error";
import { SUPPORTED_EXTENSIONS } from "./module-kind";

const cannotLoad = (shownPath: string, cause: string): LumaError =>
  startupError(`Tool module '${shownPath}' could not be loaded: ${cause}`, { catalogCode: "E0501" });

export const moduleNotFound = (shownPath: string, absPath: string): LumaError =>
  cannotLoad(shownPath, `file not found (${absPath}).`);

export const unsupportedFileType = (shownPath: string, ext: string): LumaError =>
  cannotLoad(shownPath, `unsupported file type '${ext || "(none)"}' (expected ${SUPPORTED_EXTENSIONS.join(", ")}).`);

/** Bun's parser errors (`BuildMessage`) carry a position; JSC's `SyntaxError` does not. */
interface BunPosition {
  file?: string;
  line: number;
  column: number;
}

const positionOf = (e: unknown): BunPosition | undefined => {
  const position = (e as { position?: BunPosition } | null)?.position;
  return position && typeof position.line === "number" ? position : undefined;
};

const rawMessageOf = (e: unknown): string =>
  e instanceof Error || (typeof e === "object" && e !== null && "message" in e)
    ? String((e as { message: unknown }).message)
    : String(e);

/** Bun's own words, where they do not say what to do. */
const CLEARER: Record<string, string> = {
  "Macros are disabled":
    'Bun macros (imports `with { type: "macro" }`) run code while a module is transpiled, so Luma never runs them',
};

const messageOf = (e: unknown): string => {
  const message = rawMessageOf(e);
  return CLEARER[message] ?? message;
};

/** Whether `e` is the transpiler refusing a macro call (prepare-source.ts turns macros off). */
const parseFailure = (e: unknown): string => (isMacroRefusal(e) ? "macro call" : "syntax error");

export const isMacroRefusal = (e: unknown): boolean => rawMessageOf(e) === "Macros are disabled";

/** A syntax error found by the transpiler in the module's own text. */
export const moduleSyntaxError = (shownPath: string, e: unknown): LumaError => {
  const at = positionOf(e);
  return cannotLoad(shownPath, `${parseFailure(e)}${at ? ` at ${at.line}:${at.column}` : ""}: ${messageOf(e)}`);
};

/** Anything that went wrong while the module's body ran or its imports were resolved. */
export const moduleLoadFailure = (shownPath: string, e: unknown): LumaError => {
  const name = (e as { name?: unknown } | null)?.name;
  if (name === "SyntaxError" || name === "BuildMessage") {
    const at = positionOf(e);
    const where = at ? ` in ${at.file ?? "an imported file"} at ${at.line}:${at.column}` : "";
    return cannotLoad(shownPath, `${parseFailure(e)}${where}: ${messageOf(e)}`);
  }
  if (name === "ResolveMessage") return cannotLoad(shownPath, messageOf(e));
  return cannotLoad(shownPath, `it threw while loading: ${messageOf(e)}`);
};
