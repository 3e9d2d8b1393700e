import type { CatalogEntry } from "./catalog-entry";

/** Durable runs (E09xx): the journal, run ids and leases. */
const JOURNAL_ENTRIES = [
  {
    code: "E0901",
    title: "no journal to read",
    explanation: "`luma runs`, `luma approve` and `luma deny` read a journal: pass `--journal PATH` (a SQLite file that exists) or set `journal` in luma.config.json.",
    example: "luma runs --journal missing.db",
  },
  {
    code: "E0902",
    title: "the run is in progress elsewhere",
    explanation:
      "Another process holds this run id's lease (it names the owner, host:pid). Two processes never run one run id at once; try again once it has stopped, or after its lease expires if it died.",
    example: "luma app.luma --run-id nightly-1   (while another process runs nightly-1)",
  },
  {
    code: "E0903",
    title: "a run id that cannot be used",
    explanation: "`--run-id` takes 1 to 100 letters, digits, '.', '_', ':' or '-', and only means something with a journal (`--journal PATH` or `journal` in luma.config.json).",
    example: "luma app.luma --run-id 'a b'",
  },
  {
    code: "E0904",
    title: "encryption asked of a plain journal that holds runs",
    explanation:
      "Encryption (`LUMA_IDEMPOTENCY_KEY` with an encrypted journal) applies to a new journal only: a plain journal with runs in it is left unchanged rather than half sealed.",
    example: '{ "journal": { "backend": "sqlite", "path": "runs.db", "encryption": "aes-256-gcm" } }',
  },
  {
    code: "E0905",
    title: "the journal file cannot be opened",
    explanation: "The journal's path does not hold a SQLite database Luma can open (permissions, another kind of file). The cause follows.",
    example: '{ "journal": { "backend": "sqlite", "path": "/etc/passwd" } }',
  },
  {
    code: "E0906",
    title: "PostgreSQL journal settings incomplete",
    explanation:
      "A `journal` with backend postgres needs `url` or `url_env`; the variable `url_env` names must be set, and the URL must parse. Credentials never appear in the message.",
    example: '{ "journal": { "backend": "postgres", "url_env": "JOURNAL_URL" } }   (JOURNAL_URL not set)',
  },
  {
    code: "E0907",
    title: "the PostgreSQL journal cannot be opened",
    explanation:
      "Luma could not connect to the journal's database or create its tables there (a server that refuses, wrong credentials, missing privileges). The cause follows, with credentials redacted; nothing was run.",
    example: '{ "journal": { "backend": "postgres", "url": "postgres://127.0.0.1:1/app" } }   (nothing listens there)',
  },
  {
    code: "E0908",
    title: "the journal cannot be trusted",
    explanation:
      "The journal holds something Luma did not write, or lost something it did: a journal file that exists but is empty (0 bytes) or is not a Luma journal, a run whose recorded steps have a gap (a receipt deleted), or a record that is malformed. Resuming would run side effects again or answer with altered data, so nothing is run and the journal is left unchanged; restore it, or start a new run id in a new journal.",
    example: "luma flow.luma --journal runs.sqlite --run-id job-17   (runs.sqlite truncated to 0 bytes)",
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type JournalCode = (typeof JOURNAL_ENTRIES)[number]["code"];

export const journalCodes: CatalogEntry[] = [...JOURNAL_ENTRIES];
