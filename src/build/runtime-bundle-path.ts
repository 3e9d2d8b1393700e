/**
 * Where the Luma runtime bundle is: the JavaScript a built agent runs (`src/cli/main.ts`
 * bundled, no bytecode, split into chunks). `bun run build` writes it first, packed as
 * `dist/luma-runtime.json` (`{ entry, files }`: each chunk's name and text), and embeds it
 * in `dist/luma` as a file; `luma build` compiles it again with the agent's payload, using
 * the running executable as the Bun runtime — no Bun on PATH, no network, no sources.
 *
 * Inside that runtime bundle itself this import is a stub ("": build.ts), so a bundle never
 * contains a copy of itself.
 */
// @ts-ignore: the file exists once `bun run build` has run (see build.ts)
import bundlePath from "../../dist/luma-runtime.json" with { type: "file" };

// `type: "file"` makes the import the embedded file's path; TypeScript reads a .json import as its data.
export const RUNTIME_BUNDLE_PATH: string = bundlePath as unknown as string;
