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
 */
import { existsSync, readFileSync } from "node:fs";
import { testedFileOf } from "../syntax/test-file-pair";
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

  constructor(private publish: (uri: string, version: number, diagnostics: LspDiagnostic[]) => void) {}

  open(uri: string, version: number, text: string): void {
    this.close(uri, false);
    this.docs.set(uri, { text, version, pieces: new Map() });
    this.schedule(uri);
    this.rescheduleTestsOf(uri);
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
    for (const [other, doc] of this.docs) if (fileOfUri(other) === file) return { file, text: doc.text };
    try {
      return existsSync(file) ? { file, text: readFileSync(file, "utf8") } : undefined;
    } catch {
      // Unreadable (a folder, no permission): the test document is analysed on its own.
      return undefined;
    }
  }

  close(uri: string, clear = true): void {
    const doc = this.docs.get(uri);
    if (!doc) return;
    clearTimeout(doc.timer);
    this.docs.delete(uri);
    if (clear) this.publish(uri, doc.version, []);
    // Its tests now see the file on disk again.
    if (clear) this.rescheduleTestsOf(uri);
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
    doc.analysis = analyze(uri, doc.version, doc.text, doc.pieces, this.testedSourceOf(uri));
    this.publish(uri, doc.version, lspDiagnostics(doc.analysis));
  }
}
