/**
 * The corpus the fast parser is held to: every `.luma` file of the repository (examples,
 * test fixtures), every ```luma block of its Markdown documents, and the benchmark's
 * generated programs. Shared by the differential and the mutation tests.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Glob } from "bun";
import { generateProgramOfSize } from "../../bench/generate-program";
import { REPO } from "../support/luma-binary";

export interface CorpusFile {
  name: string;
  source: string;
}

const LUMA_BLOCK = /```luma\n([\s\S]*?)```/g;

export function corpus(): CorpusFile[] {
  const files: CorpusFile[] = [];
  for (const root of ["examples", "tests"]) {
    for (const file of new Glob("**/*.luma").scanSync(join(REPO, root))) {
      files.push({ name: `${root}/${file}`, source: readFileSync(join(REPO, root, file), "utf8") });
    }
  }
  for (const doc of new Glob("**/*.md").scanSync(REPO)) {
    if (doc.startsWith("node_modules/") || doc.includes("/node_modules/")) continue;
    const text = readFileSync(join(REPO, doc), "utf8");
    let k = 0;
    for (const m of text.matchAll(LUMA_BLOCK)) files.push({ name: `${doc}#${++k}`, source: m[1] });
  }
  for (const size of [4 * 1024, 64 * 1024]) files.push({ name: `bench program of ${size} chars`, source: generateProgramOfSize(size) });
  return files;
}
