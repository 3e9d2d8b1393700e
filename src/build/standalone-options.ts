/**
 * What a Luma executable reads from where it is started: nothing. Bun's standalone
 * executables load `.env` and `bunfig.toml` from the working directory by default, so a
 * `bunfig.toml` with `preload = ["./evil.js"]` ran code in `luma check`, `luma --version`
 * and every built agent started there, and a `.env` could set `LUMA_APPROVED_TOOLS` or
 * point `LUMA_BASE_URL_*` (and the user's API key) elsewhere. Both `dist/luma` (build.ts)
 * and every `luma build` executable (compile-agent.ts) are compiled with these options:
 * the environment comes from the environment only, code only from the executable and the
 * tool modules the program names.
 *
 * What compile options cannot turn off is listed in docs/security.md: `BUN_OPTIONS` and
 * `BUN_BE_BUN` come from the environment, which Luma trusts as it trusts `LD_PRELOAD`.
 */
export const NO_WORKING_DIRECTORY_AUTOLOADS = {
  autoloadDotenv: false,
  autoloadBunfig: false,
  autoloadTsconfig: false,
  autoloadPackageJson: false,
} as const;
