/**
 * Stored threads in one JSON file (`"threads": { "backend": "file" }`, issue #26 §1), for one
 * machine's processes: `{ header, threads: { <id digest>: { version, messages, id } } }`, the
 * messages of each thread one value and its id kept for listing (both sealed when encrypted,
 * thread-keys.ts; a row written before ids were kept has none).
 *
 * Every read and append holds the file's lock (`<path>.lock`, flock as the file idempotency
 * store takes it) and reads the file afresh; an append checks the thread's version and
 * rewrites the file durably (temp file, fsync, rename) — so a second process's exchange is
 * refused rather than interleaved.
 */
import { closeSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { startupError } from "../../../diagnostics/luma-error";
import { writeFileDurably } from "../file/durable-write";
import { FileLock } from "../file/file-lock";
import { EnvelopeRefused, readEnvelopeFile } from "../file/read-envelope-file";
import type { RecordCodec } from "../record-codec";
import { decideThreadKeys } from "./thread-keys";
import { idBinding, listed, type ListedThread, type StoredThread, type ThreadMessage, type ThreadStore } from "./thread-message";

interface ThreadsFile {
  header: string;
  threads: Record<string, { version: number; messages: string; id?: string }>;
}

export class FileThreadStore implements ThreadStore {
  private constructor(
    private readonly path: string,
    private readonly lock: FileLock,
    private readonly codec: RecordCodec,
    readonly shown: string,
  ) {}

  static open(opts: { path: string; displayPath: string; encryption?: "aes-256-gcm"; passphrase?: string }): FileThreadStore {
    const shown = `file ${opts.displayPath}`;
    mkdirSync(dirname(opts.path), { recursive: true });
    const lock = new FileLock(`${opts.path}.lock`);
    try {
      const codec = lock.with(() => {
        const doc = readDoc(opts.path, shown);
        const decided = decideThreadKeys(doc?.header, { ...opts, shown });
        if (decided.write) closeSync(writeFileDurably(opts.path, JSON.stringify({ header: decided.write, threads: {} })));
        return decided.codec;
      });
      return new FileThreadStore(opts.path, lock, codec, shown);
    } catch (e) {
      lock.close();
      throw e;
    }
  }

  async load(id: string): Promise<StoredThread> {
    const kd = this.codec.idOf(id);
    const row = this.lock.with(() => readDoc(this.path, this.shown)?.threads[kd]);
    return row ? { version: row.version, messages: this.codec.decodeValue(kd, row.messages) as ThreadMessage[] } : { version: 0, messages: [] };
  }

  async append(id: string, version: number, messages: readonly ThreadMessage[]): Promise<boolean> {
    const kd = this.codec.idOf(id);
    return this.lock.with(() => {
      const doc = readDoc(this.path, this.shown)!;
      const row = doc.threads[kd];
      if ((row?.version ?? 0) !== version) return false;
      const all = [...(row ? (this.codec.decodeValue(kd, row.messages) as ThreadMessage[]) : []), ...messages];
      doc.threads[kd] = { version: version + 1, messages: this.codec.encodeValue(kd, all), id: this.codec.encodeValue(idBinding(kd), id) };
      closeSync(writeFileDurably(this.path, JSON.stringify(doc)));
      return true;
    });
  }

  async list(): Promise<ListedThread[]> {
    const rows = Object.entries(this.lock.with(() => readDoc(this.path, this.shown)?.threads ?? {}));
    return listed(this.codec, rows.map(([kd, r]) => ({ kd, version: r.version, id: r.id ?? null })));
  }

  async close(): Promise<void> {
    this.lock.close();
  }
}

function readDoc(path: string, shown: string): ThreadsFile | undefined {
  let read: { fd: number; text: string } | undefined;
  try {
    read = readEnvelopeFile(path);
  } catch (e) {
    if (e instanceof EnvelopeRefused) throw startupError(`threads store ${shown} ${e.problem}; the file was left unchanged.`, { catalogCode: "E0661" });
    throw e;
  }
  if (!read) return undefined;
  closeSync(read.fd);
  try {
    const doc = JSON.parse(read.text) as ThreadsFile;
    if (typeof doc?.header === "string" && typeof doc.threads === "object" && doc.threads !== null) return doc;
  } catch {
    // reported below
  }
  throw startupError(`threads store ${shown} is not a Luma threads file; the file was left unchanged.`, { catalogCode: "E0661" });
}
