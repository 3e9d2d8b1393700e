/**
 * `luma fmt [--check] PATH…`: rewrite `.luma` files (a directory: every `.luma` file
 * under it, in name order) in the canonical layout of `src/format/`; `-` formats stdin
 * to stdout. `--check` writes nothing, lists the files that would change on stdout and
 * exits 1 when there are any (for CI).
 *
 * Every file is formatted before any is written, and each is replaced by a rename of a
 * complete temporary file, so an interrupted run never leaves half a file. A file that
 * does not parse is left as it is; its diagnostics are reported together at the end (exit 2).
 */
import { readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic";
import { startupError } from "../diagnostics/luma-error";
import { formatSource } from "../format/format-source";
import { readSource } from "../load/load-program";
import type { FmtCommand } from "./fmt-argv";

/** The files a path names: itself, or the `.luma` files under a directory (hidden ones and node_modules aside). */
function filesOf(path: string): string[] {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return [path]; // readSource reports it
  }
  if (!isDir) return [path];
  return (readdirSync(path, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".luma") && !f.split(/[\\/]/).some((part) => part.startsWith(".") || part === "node_modules"))
    .sort()
    .map((f) => join(path, f));
}

function replaceFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.luma-fmt.tmp`;
  try {
    writeFileSync(temp, text, { mode: statSync(file).mode });
    renameSync(temp, file);
  } catch (e) {
    rmSync(temp, { force: true });
    throw startupError(`cannot write ${file}: ${(e as Error).message}`, { catalogCode: "E0614" });
  }
}

export async function runFmt(
  cmd: FmtCommand, io: { out: (line: string) => void; write: (text: string) => void; sources: Map<string, string> },
): Promise<number> {
  const diagnostics: Diagnostic[] = [];
  const changed: { file: string; text: string }[] = [];
  for (const file of cmd.paths.flatMap(filesOf)) {
    const source = file === "-" ? await Bun.stdin.text() : readSource(file);
    io.sources.set(file, source);
    const result = formatSource(source, file);
    if (result.diagnostics) diagnostics.push(...result.diagnostics);
    else if (file === "-" && !cmd.check) io.write(result.text);
    else if (result.text !== source) changed.push({ file, text: result.text });
  }
  for (const { file, text } of changed) {
    if (!cmd.check) replaceFile(file, text);
    io.out(cmd.check ? file : `formatted ${file}`);
  }
  if (diagnostics.length > 0) throw startupError("luma fmt: files left unformatted", { diagnostics });
  return cmd.check && changed.length > 0 ? 1 : 0;
}
