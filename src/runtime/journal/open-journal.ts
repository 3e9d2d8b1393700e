/**
 * Opens the journal a run asks for — `--journal PATH` (a SQLite file) or luma.config.json
 * `"journal"` — at startup, before the first statement, so its errors (an unreadable file,
 * a wrong key, an unreachable server) stop the program with nothing run (exit 2). Backends
 * load only when configured: a run without a journal pays nothing.
 *
 * Encryption: `"encryption": "aes-256-gcm"` in `journal`, or inherited from
 * `idempotency_store`, with the passphrase in LUMA_IDEMPOTENCY_KEY; the header is the
 * idempotency stores' (store-header.ts). A plain journal that already holds steps is not
 * sealed in place: it stops, naming the reason.
 */
import { resolve } from "node:path";
import { startupError } from "../../diagnostics/luma-error";
import type { JournalConfig, LumaConfig } from "../../config/config-types";
import { RecordCodec } from "../stores/record-codec";
import { decideHeader, requirePassphrase } from "../stores/store-header";
import type { JournalBackend } from "./journal-backend";
import { JournalCodec } from "./journal-codec";

export const DEFAULT_JOURNAL_PATH = ".luma-journal.sqlite";

export interface OpenJournalContext {
  /** `--journal PATH`, resolved against the working directory by the caller. */
  cliPath?: { path: string; shown: string };
  projectDir: string;
  env: Record<string, string | undefined>;
  /**
   * `luma runs` / `approve` / `deny`: open the journal as it was written — encrypted when
   * its header says so (with LUMA_IDEMPOTENCY_KEY), whatever the config says — and write no
   * header: a reader never creates or seals a journal.
   */
  reader?: boolean;
}

export interface OpenedJournal {
  backend: JournalBackend;
  codec: JournalCodec;
}

const openBackend = async (config: JournalConfig | undefined, ctx: OpenJournalContext): Promise<JournalBackend> => {
  if (ctx.cliPath !== undefined || config === undefined || config.backend === "sqlite") {
    const { SqliteJournal } = await import("./sqlite-journal");
    if (ctx.cliPath !== undefined) return SqliteJournal.open(ctx.cliPath.path, ctx.cliPath.shown);
    const shown = config?.path ?? DEFAULT_JOURNAL_PATH;
    return SqliteJournal.open(resolve(ctx.projectDir, shown), shown);
  }
  const [{ PostgresJournal, JOURNAL_ROLE }, { connectionOf }] = await Promise.all([import("./postgres-journal"), import("../stores/store-connection")]);
  return PostgresJournal.open(connectionOf("postgres", config, ctx.env, JOURNAL_ROLE), config.table);
};

/** Whether a stored header says the journal is encrypted (a header that does not parse is decideHeader's to refuse). */
const sealedHeader = (stored: string | undefined): boolean => {
  try {
    const doc = stored === undefined ? undefined : JSON.parse(stored);
    return typeof doc === "object" && doc !== null && doc.encryption !== undefined && doc.encryption !== "none";
  } catch {
    return false;
  }
};

/** The journal when one is asked for, else undefined. */
export async function openJournal(config: LumaConfig, ctx: OpenJournalContext): Promise<OpenedJournal | undefined> {
  const jc = config.journal;
  if (jc === undefined && ctx.cliPath === undefined) return undefined;
  const passphrase = ctx.env.LUMA_IDEMPOTENCY_KEY;
  let encryption = jc?.encryption ?? config.idempotency_store?.encryption;
  if (!ctx.reader) requirePassphrase({ encryption, passphrase });
  const backend = await openBackend(jc, ctx);
  try {
    const shown = `journal ${backend.shown}`;
    const stored = await backend.readHeader();
    if (ctx.reader) {
      encryption = sealedHeader(stored) ? "aes-256-gcm" : undefined;
      if (encryption !== undefined && !passphrase) {
        throw startupError(`Journal ${backend.shown} is encrypted: set LUMA_IDEMPOTENCY_KEY to the passphrase its runs were written with; it was left unchanged.`, { catalogCode: "E0607" });
      }
      if (stored === undefined) return { backend, codec: new JournalCodec(new RecordCodec(undefined, shown), backend.shown) };
    }
    const decision = decideHeader(stored, { encryption, passphrase, shown });
    if (decision.kind === "seal" && !(await backend.isEmpty())) {
      throw startupError(`Journal ${backend.shown} is not encrypted and already holds runs; encryption applies to a new journal only. The journal was left unchanged.`, { catalogCode: "E0904" });
    }
    if (decision.write !== undefined) await backend.writeHeader(decision.write);
    return { backend, codec: new JournalCodec(new RecordCodec(decision.keys, shown), backend.shown) };
  } catch (e) {
    await backend.close();
    throw e;
  }
}
