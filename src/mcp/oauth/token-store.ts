/**
 * Where the OAuth state of an MCP server is kept between runs: its tokens (access and
 * refresh) and the client it registered (dynamic client registration). With the store key
 * (`LUMA_IDEMPOTENCY_KEY`, the passphrase of Luma's encrypted stores) they are sealed into
 * `.luma-mcp-oauth.json` in the project directory with the stores' cipher (scrypt → HKDF →
 * AES-256-GCM, envelope-cipher.ts), each server's record under its own IV with the server's
 * name and URL as additional data (a record moved to another server does not open). Without
 * the key nothing is written: the state lives for the run only, and the next run authorizes
 * again. Tokens are never written in the clear, printed or traced.
 *
 * A file that cannot be read, or opens with another key, is not an error of the run: its
 * records are ignored (the server is authorized again) and the file is rewritten whole on
 * the next save.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deriveKeys, kdfParamsValid, keyMatches, newKdfParams, seal, unseal, type KdfParams, type Sealed, type StoreKeys } from "../../runtime/stores/file/envelope-cipher";
import { writeFileDurably } from "../../runtime/stores/file/durable-write";

export const TOKEN_FILE = ".luma-mcp-oauth.json";

/** What is kept of one server: as the SDK hands it over (tokens and client, with their issuer). */
export interface OAuthRecord {
  tokens?: Record<string, unknown>;
  client?: Record<string, unknown>;
}

export interface TokenStore {
  read(): OAuthRecord;
  write(record: OAuthRecord): void;
  /** Whether records outlive the run (the store key is set). */
  readonly durable: boolean;
}

interface FileDoc {
  version: 1;
  kdf: KdfParams;
  key_check: string;
  servers: Record<string, Sealed>;
}

const parse = (text: string): FileDoc | undefined => {
  try {
    const doc = JSON.parse(text) as FileDoc;
    return doc?.version === 1 && kdfParamsValid(doc.kdf) && typeof doc.servers === "object" && doc.servers !== null ? doc : undefined;
  } catch {
    return undefined;
  }
};

/** One process derives the key once per file (scrypt takes tens of milliseconds). */
const keysByFile = new Map<string, StoreKeys>();

function fileStore(path: string, passphrase: string, id: string): TokenStore {
  const open = (): { doc: FileDoc; keys: StoreKeys } => {
    const found = existsSync(path) ? parse(readFileSync(path, "utf8")) : undefined;
    const cached = keysByFile.get(path);
    if (found !== undefined) {
      const keys = cached !== undefined && cached.kdf.salt === found.kdf.salt ? cached : deriveKeys(passphrase, found.kdf);
      if (keyMatches(keys, found.key_check)) {
        keysByFile.set(path, keys);
        return { doc: found, keys };
      }
    }
    const keys = cached ?? deriveKeys(passphrase, newKdfParams());
    keysByFile.set(path, keys);
    return { doc: { version: 1, kdf: keys.kdf, key_check: keys.keyCheck, servers: {} }, keys };
  };
  // Read once, then kept: the transport asks for the tokens before every request.
  let cached: OAuthRecord | undefined;
  const load = (): OAuthRecord => {
    const { doc, keys } = open();
    const sealed = doc.servers[id];
    const text = sealed === undefined ? undefined : unseal(keys, sealed, id);
    if (text === undefined) return {};
    try {
      return JSON.parse(text) as OAuthRecord;
    } catch {
      return {};
    }
  };
  return {
    durable: true,
    read: () => (cached ??= load()),
    write(record) {
      cached = record;
      const { doc, keys } = open();
      doc.servers[id] = seal(keys, JSON.stringify(record), id);
      writeFileDurably(path, JSON.stringify(doc, null, 2));
    },
  };
}

function memoryStore(): TokenStore {
  let record: OAuthRecord = {};
  return { durable: false, read: () => record, write: (next) => void (record = next) };
}

/** The store of one server (`name` at `url`): sealed in the project's file with the store key, else in memory. */
export function tokenStoreFor(opts: { server: string; url: string; projectDir: string; env: Record<string, string | undefined> }): TokenStore {
  const passphrase = opts.env.LUMA_IDEMPOTENCY_KEY;
  if (passphrase === undefined || passphrase === "") return memoryStore();
  return fileStore(join(opts.projectDir, TOKEN_FILE), passphrase, `mcp-oauth ${opts.server} ${opts.url}`);
}
