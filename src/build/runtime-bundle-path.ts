/**
 * Where the Luma runtime bundle is: the JavaScript a built agent runs (`src/cli/main.ts`
 * bundled, no bytecode). `bun run build` writes `dist/luma-runtime.js` first and embeds it
 * in `dist/luma` as a file; `luma build` compiles it again with the agent's payload, using
 * the running executable as the Bun runtime — no Bun on PATH, no network, no sources.
 *
 * Inside that runtime bundle itself this import is a stub ("": build.ts), so a bundle never
 * contains a copy of itself.
 */
// @ts-ignore: the file exists once `bun run build` has run (see build.ts)
import bundlePath from "../../dist/luma-runtime.js" with { type: "file" };

export const RUNTIME_BUNDLE_PATH: string = bundlePath;
