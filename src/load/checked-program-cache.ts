/**
 * Cache of checked ASTs, keyed by a hash of (Luma version, file path, source text — with
 * the texts of the files it imports), so an
 * unchanged script starts without loading the grammar or parsing again.
 *
 * Where: `$XDG_CACHE_HOME/luma`, else `~/.cache/luma`. Entries are written to a temp file
 * and renamed into place (readers never see half an entry). An entry that does not parse,
 * or comes from another version, is ignored and rewritten. `LUMA_NO_CACHE=1` bypasses it.
 * The cache is an optimisation only: any failure to read or write it is silent.
 * It is bounded: each write (a cache miss) keeps the newest MAX_ENTRIES entries and drops
 * those older than MAX_AGE_MS, so editing a script many times does not grow it forever.
 *
 * An entry is the AST as `JSON.stringify` writes it, gzipped when large (level 1): the
 * native serialiser and gzip together take a fraction of the parse they save, and gzip
 * already squeezes out what makes a large AST bulky (every span repeats the file name),
 * so the entry stays about twice the source. No key is rewritten on the way in or out:
 * an annotation's constant is the program's data, whatever keys it has (format 4
 * compacted `span` keys everywhere and so changed `@default({ "span": [1, 2] })`).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Program } from "../syntax/ast";
import { VERSION } from "../version";

/**
 * Bump when the AST shape or what the checker accepts changes without a version change
 * (dev builds): an entry means "this program checked clean", so a stricter checker must
 * not trust entries an older one wrote. 2: the static type rules (E03xx). 3: `while`,
 * `break`, `continue` keywords, field/item assignment, the typed builtins of issue #12.
 * 4: compact spans, `test` blocks. 5: plain JSON again (no rewritten keys). 6: a field or
 * item write carries the declared type the run validates it against (`AssignInto.checkAs`).
 * 7: a write whose field is known only at run time validates its whole object (`checkAs.whole`).
 * 8: `import` lines and linked programs (`Program.imports`, `Program.linked`); the key then
 * covers every imported file's text too (`load-program.ts`, `programCacheKey`).
 * 9: a fn's `///` doc comment (`FnDecl.doc`), and `tools: [Agent.method]` (issue #27).
 * 10: an item write into a variable or parameter declared as an array (`xs: int[]`) is checked.
 * 11: `eval … over … { }` blocks (`Program.evals`) and the `score` statement (luma eval).
 * 12: `tools: [Agent(args).method]` (a Path's `args`) and an agent's `handoffs` (issue #27).
 */
const FORMAT = 12;
const MAX_ENTRIES = 256;
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

interface Entry {
  format: number;
  version: string;
  program: Program;
}

/** Entries larger than this are gzipped (level 1: a fraction of the parse it saves). */
const GZIP_ABOVE_CHARS = 256 * 1024;

/** Serialises an entry, gzipped when large. */
export function encodeEntry(entry: Entry): Uint8Array | string {
  const text = JSON.stringify(entry);
  return text.length > GZIP_ABOVE_CHARS ? Bun.gzipSync(text, { level: 1 }) : text;
}

/** The inverse of `encodeEntry`. */
export function decodeEntry(bytes: Uint8Array): Entry {
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return JSON.parse(new TextDecoder().decode(gzipped ? Bun.gunzipSync(bytes as Uint8Array<ArrayBuffer>) : bytes)) as Entry;
}

export interface ProgramCache {
  get(key: string): Program | undefined;
  /**
   * Whether a non-empty entry exists, without reading it: an entry is only ever written
   * for a program that checked clean, under a key naming the source, the version and the
   * format, so its presence alone answers `luma check` (a large entry takes longer to read
   * than everything else a cached check does).
   */
  has(key: string): boolean;
  set(key: string, program: Program): void;
}

export function cacheDir(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return join(base, "luma");
}

export function cacheKey(file: string, source: string): string {
  return new Bun.CryptoHasher("sha256").update(`${VERSION}\0${FORMAT}\0${file}\0${source}`).digest("hex");
}

export function openProgramCache(env: Record<string, string | undefined> = process.env): ProgramCache | undefined {
  if (env.LUMA_NO_CACHE === "1") return undefined;
  const dir = cacheDir(env);
  return {
    get(key) {
      try {
        const entry = decodeEntry(readFileSync(join(dir, `${key}.json`)));
        if (entry.format !== FORMAT || entry.version !== VERSION || entry.program?.kind !== "Program") return undefined;
        return entry.program;
      } catch {
        return undefined;
      }
    },
    has(key) {
      try {
        return statSync(join(dir, `${key}.json`)).size > 0;
      } catch {
        return false;
      }
    },
    set(key, program) {
      try {
        mkdirSync(dir, { recursive: true });
        const tmp = join(dir, `${key}.${process.pid}.${Date.now()}.tmp`);
        const entry: Entry = { format: FORMAT, version: VERSION, program };
        writeFileSync(tmp, encodeEntry(entry));
        renameSync(tmp, join(dir, `${key}.json`));
        prune(dir);
      } catch {
        // A read-only or full cache directory must never stop a program from running.
      }
    },
  };
}

function prune(dir: string): void {
  const now = Date.now();
  const entries = readdirSync(dir)
    .filter((name) => name.endsWith(".json") || name.endsWith(".tmp"))
    .map((name) => {
      try {
        return { path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs };
      } catch {
        return undefined; // removed by another process meanwhile
      }
    })
    .filter((e) => e !== undefined)
    .sort((a, b) => b.mtime - a.mtime);
  entries.forEach((e, i) => {
    if (i >= MAX_ENTRIES || now - e.mtime > MAX_AGE_MS) {
      try {
        unlinkSync(e.path);
      } catch {
        // Already gone.
      }
    }
  });
}
