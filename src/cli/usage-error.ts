/**
 * A command-line mistake: the wrong option, a missing value, one argument too many. It is
 * data, not a LumaError (nothing was parsed or run yet); main.ts and a built agent turn it
 * into exit 64 and "Run 'luma --help' for usage.". Its own file so the command table, the
 * scanner and every command's parser can throw it without importing one another.
 */
export class UsageError extends Error {}
