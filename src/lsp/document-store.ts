/**
 * The open documents: their text, version and latest analysis. Edits are applied as the
 * client sends them (whole text or ranges, LSP's incremental sync); analysis waits
 * DEBOUNCE_MS after the last edit, so a burst of keystrokes is checked once. A request
 * arriving before the wait is over analyses at once — an answer is never computed on
 * stale text.
 *
 * A test document `NAME.test.luma` is analysed with `NAME.luma` (src/syntax/test-file-pair.ts):
 * its open text when the editor has it open — unsaved edits included — else the file on
 * disk. Opening, editing or closing `NAME.luma` re-analyses the open test documents that see it.
 * Navigation across the pair reads the other file's analysis (`partnerOf`): its open
 * document's, or one made of the text on disk (kept while that text stays the same).
 *
 * A document that imports other files (docs/language/imports.md) reads them as a test
 * document reads its tested file: the open text, else the disk (`readFile`). Opening,
 * editing or closing a file re-analyses the open documents that import it, directly or
 * not. References and rename of a declaration reach every open document that imports its
 * file, and that file itself (`sharing`).
 */
import { existsSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { isBuiltinModulePath } from "../language/std-tools";
import { testedFileOf, testFileOf } from "../syntax/test-file-pair";
import { analyze, fileOfUri, lspDiagnostics, type Analysis, type LspDiagnostic, type TestedSource } from "./analyze-document";
import type { PieceCache } from "./recovering-parse";
import { LineIndex, type Range } from "./line-index";

export const DEBOUNCE_MS = 60;

interface OpenDocument {
  text: string;
  version: number;
  analysis?: Analysis;
  pieces: PieceCache;
  timer?: ReturnType<typeof setTimeout>;
}

export interface TextChange {
  range?: Range;
  text: string;
}

export class DocumentStore {
  private docs = new Map<string, OpenDocument>();
  /** The last partner analysed from text that no open document holds. */
  private offline?: { uri: string; text: string; testedText?: string; analysis: Analysis };

  constructor(private publish: (uri: string, version: number, diagnostics: LspDiagnostic[]) => void) {}

  open(uri: string, version: number, text: string): void {
    this.close(uri, false);
    this.docs.set(uri, { text, version, pieces: new Map() });
    this.schedule(uri);
    this.rescheduleTestsOf(uri);
    this.rescheduleImportersOf(uri);
  }

  change(uri: string, version: number, changes: readonly TextChange[]): void {
    const doc = this.docs.get(uri);
    if (!doc) return;
    for (const c of changes) {
      if (!c.range) doc.text = c.text;
      else {
        const lines = new LineIndex(doc.text);
        doc.text = doc.text.slice(0, lines.offset(c.range.start)) + c.text + doc.text.slice(lines.offset(c.range.end));
      }
    }
    doc.version = version;
    doc.analysis = undefined;
    this.schedule(uri);
    this.rescheduleTestsOf(uri);
    this.rescheduleImportersOf(uri);
  }

  /** The open documents that import `uri`'s file (as last analysed) are stale once it changes. */
  private rescheduleImportersOf(uri: string): void {
    const file = fileOfUri(uri);
    for (const [other, doc] of this.docs) {
      if (other === uri || !doc.analysis?.imported?.has(file)) continue;
      doc.analysis = undefined;
      this.schedule(other);
    }
  }

  /** An imported file's text: its open document's, else the disk's. */
  readonly readFile = (file: string): string | undefined => {
    const open = this.openDocumentOf(file);
    return open ? open[1].text : readIfThere(file);
  };

  /**
   * The analyses that may use the declarations of `file`, but `except`: the open documents
   * importing it, and the file's own (its open document, else one of its text on disk).
   */
  sharing(file: string, except: string): Analysis[] {
    const out: Analysis[] = [];
    let home = false;
    for (const uri of [...this.docs.keys()]) {
      if (uri === except) continue;
      const a = this.current(uri);
      if (!a) continue;
      if (fileOfUri(uri) === file) home = true;
      if (fileOfUri(uri) === file || a.imported?.has(file)) out.push(a);
    }
    if (!home && fileOfUri(except) !== file) {
      const text = readIfThere(file);
      if (text !== undefined) out.push(this.analyzeOffline(pathToFileURL(file).href, text));
    }
    return out;
  }

  /** The open test documents that see `uri`'s declarations are stale once it changes. */
  private rescheduleTestsOf(uri: string): void {
    const file = fileOfUri(uri);
    for (const [other, doc] of this.docs) {
      if (other === uri || testedFileOf(fileOfUri(other)) !== file) continue;
      doc.analysis = undefined;
      this.schedule(other);
    }
  }

  /** What a test document's tests see: the open text of its tested file, else the file on disk. */
  private testedSourceOf(uri: string): TestedSource | undefined {
    const file = testedFileOf(fileOfUri(uri));
    if (file === undefined) return undefined;
    const open = this.openDocumentOf(file);
    if (open) return { file, text: open[1].text };
    const text = readIfThere(file);
    return text === undefined ? undefined : { file, text };
  }

  private openDocumentOf(file: string): [string, OpenDocument] | undefined {
    for (const entry of this.docs) if (fileOfUri(entry[0]) === file) return entry;
    return undefined;
  }

  /**
   * The analysis of the other file of `a`'s pair, on the text `a` was analysed with: for a
   * test document, the file it tests; for `NAME.luma`, its test document (open, else on
   * disk). Undefined when there is none. With `file`, a file `a` imports, when it does.
   */
  partnerOf(a: Analysis, file?: string): Analysis | undefined {
    // A file `a` imports: its open document's analysis, else one of its text as `a` read it.
    const importedText = file === undefined ? undefined : a.imported?.get(file);
    if (file !== undefined && importedText !== undefined) {
      const open = this.openDocumentOf(file);
      if (open && open[1].text === importedText) return this.current(open[0]);
      // luma:std has no file: its analysis is named by the import path itself.
      return this.analyzeOffline(open?.[0] ?? (isBuiltinModulePath(file) ? file : pathToFileURL(file).href), importedText);
    }
    if (a.tested) {
      const open = this.openDocumentOf(a.tested.file);
      if (open && open[1].text === a.tested.text) return this.current(open[0]);
      return this.analyzeOffline(open?.[0] ?? testedFileOf(a.uri) ?? a.tested.file, a.tested.text);
    }
    const testFile = testFileOf(fileOfUri(a.uri));
    if (testFile === undefined) return undefined;
    const open = this.openDocumentOf(testFile);
    if (open) return this.current(open[0]);
    const text = readIfThere(testFile);
    const tested = { file: fileOfUri(a.uri), text: a.text };
    return text === undefined ? undefined : this.analyzeOffline(testFileOf(a.uri) ?? testFile, text, tested);
  }

  private analyzeOffline(uri: string, text: string, tested?: TestedSource): Analysis {
    const o = this.offline;
    if (o?.uri !== uri || o.text !== text || o.testedText !== tested?.text) {
      this.offline = { uri, text, testedText: tested?.text, analysis: analyze(uri, 0, text, new Map(), tested, this.readFile) };
    }
    return (this.offline as { analysis: Analysis }).analysis;
  }

  close(uri: string, clear = true): void {
    const doc = this.docs.get(uri);
    if (!doc) return;
    clearTimeout(doc.timer);
    this.docs.delete(uri);
    if (clear) this.publish(uri, doc.version, []);
    // Its tests and importers now see the file on disk again.
    if (clear) this.rescheduleTestsOf(uri);
    if (clear) this.rescheduleImportersOf(uri);
  }

  /** The analysis of the document's current text, computed now if the debounce has not run yet. */
  current(uri: string): Analysis | undefined {
    const doc = this.docs.get(uri);
    if (!doc) return undefined;
    if (!doc.analysis) this.run(uri, doc);
    return doc.analysis;
  }

  private schedule(uri: string): void {
    const doc = this.docs.get(uri);
    if (!doc) return;
    clearTimeout(doc.timer);
    doc.timer = setTimeout(() => {
      if (this.docs.get(uri) === doc && !doc.analysis) this.run(uri, doc);
    }, DEBOUNCE_MS);
  }

  private run(uri: string, doc: OpenDocument): void {
    clearTimeout(doc.timer);
    doc.timer = undefined;
    doc.analysis = analyze(uri, doc.version, doc.text, doc.pieces, this.testedSourceOf(uri), this.readFile);
    this.publish(uri, doc.version, lspDiagnostics(doc.analysis));
  }
}

/** The file's text; undefined when it is missing or unreadable (a folder, no permission): the document is then analysed alone. */
function readIfThere(file: string): string | undefined {
  try {
    return existsSync(file) ? readFileSync(file, "utf8") : undefined;
  } catch {
    return undefined;
  }
}
