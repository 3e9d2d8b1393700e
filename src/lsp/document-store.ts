/**
 * The open documents: their text, version and latest analysis. Edits are applied as the
 * client sends them (whole text or ranges, LSP's incremental sync); analysis waits
 * DEBOUNCE_MS after the last edit, so a burst of keystrokes is checked once. A request
 * arriving before the wait is over analyses at once — an answer is never computed on
 * stale text.
 */
import { analyze, lspDiagnostics, type Analysis, type LspDiagnostic } from "./analyze-document";
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
  }

  close(uri: string, clear = true): void {
    const doc = this.docs.get(uri);
    if (!doc) return;
    clearTimeout(doc.timer);
    this.docs.delete(uri);
    if (clear) this.publish(uri, doc.version, []);
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
    doc.analysis = analyze(uri, doc.version, doc.text, doc.pieces);
    this.publish(uri, doc.version, lspDiagnostics(doc.analysis));
  }
}
