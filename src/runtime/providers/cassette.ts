/**
 * Record/replay (extension): `luma FILE --record cassette.jsonl` saves every provider
 * exchange; `luma FILE --replay cassette.jsonl` answers from it offline.
 *
 * A cassette is JSON Lines, one exchange per line, in the order they happened:
 *
 *   {"hash":"…","provider":"openai","model":"gpt-5.4-mini",
 *    "request":{"method":"POST","url":"…","headers":{…},"body":{…}},
 *    "response":{"status":200,"headers":{…},"body":{…}}}
 *
 * Secrets never reach it: headers that carry a key are left out, the key's value is
 * scrubbed from everything else (providers echo keys in error texts), and so is the
 * `user:password@` of any URL (a `LUMA_BASE_URL_…` proxy with credentials).
 *
 * Matching: a request is found by a stable hash — SHA-256 of the canonical JSON (sorted keys)
 * of provider, model and request body. The URL is left out, so a cassette recorded against
 * one host (a proxy, the test server, `LUMA_BASE_URL_…`) replays anywhere. Identical requests
 * (a retry after a 429) get their recorded answers in order; past the last, the last repeats.
 * A request with no recorded answer fails clearly (PROVIDER_ERROR, not retried).
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { canonicalJson } from "../base/canonical-json";
import { providerErrors, redact } from "./provider-errors";
import { safeJsonParse, tryParseJson } from "./safe-json";
import type { ExchangeInfo, Transport, WireRequest, WireResponse } from "./transport";

export interface CassetteEntry {
  hash: string;
  provider: string;
  model: string;
  request: { method: "POST"; url: string; headers: Record<string, string>; body: unknown };
  response: { status: number; headers: Record<string, string>; body?: unknown; text?: string };
}

export function requestHash(info: Pick<ExchangeInfo, "provider" | "model" | "body">): string {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(canonicalJson({ provider: info.provider, model: info.model, body: info.body }));
  return hasher.digest("hex");
}

/** Truncates (creates) the file now, so an unwritable path is a startup error. */
export function recordingTransport(inner: Transport, path: string, label: string = path): Transport {
  try {
    writeFileSync(path, "");
  } catch (e) {
    throw providerErrors.cassetteUnwritable(label, (e as Error).message);
  }
  return async (req, info) => {
    const res = await inner(req, info);
    appendFileSync(path, JSON.stringify(entryOf(req, res, info)) + "\n");
    return res;
  };
}

function entryOf(req: WireRequest, res: WireResponse, info: ExchangeInfo): CassetteEntry {
  const scrub = (s: string) => redact(s, info.secrets);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (!info.secretHeaders.includes(k.toLowerCase())) headers[k] = scrub(v);
  // Round-trip through text so a secret inside the body is scrubbed too.
  const body = safeJsonParse(scrub(req.body));
  const text = scrub(res.text);
  const parsed = tryParseJson(text);
  return {
    hash: requestHash(info),
    provider: info.provider,
    model: info.model,
    request: { method: "POST", url: scrub(req.url), headers, body },
    response: parsed.ok ? { status: res.status, headers: res.headers, body: parsed.value } : { status: res.status, headers: res.headers, text },
  };
}

/**
 * Where a cassette comes from. A message that cannot read it names what named it and where
 * it was looked for: `--replay` resolves against the working directory, the config's
 * `replay` against the config's directory, a test file's `replay "…"` against that file's
 * directory, and a built agent carries its config's cassette in itself (`text`: nothing is
 * read, wherever it is started).
 */
export interface CassetteSource {
  /** The absolute path read (unless `text` is given). */
  path: string;
  /** The path as the user wrote it: messages name the cassette so. */
  label: string;
  /** What named it: `--replay`, `"replay" in luma.config.json`, `replay "…" in app.test.luma`. */
  namedBy?: string;
  /** The cassette's text, embedded by `luma build`. */
  text?: string;
}

/** "named by …; looked at …" for a message about `source` (the path only when it adds something). */
export function cassetteOrigin(source: CassetteSource): string | undefined {
  if (source.text !== undefined) return source.namedBy && `named by ${source.namedBy}, embedded by luma build`;
  const lookedAt = source.path === source.label ? undefined : `looked at ${source.path}`;
  return [source.namedBy && `named by ${source.namedBy}`, lookedAt].filter(Boolean).join("; ") || undefined;
}

export function loadCassette(source: CassetteSource): CassetteEntry[] {
  const { label } = source;
  let text = source.text;
  if (text === undefined) {
    try {
      text = readFileSync(source.path, "utf8");
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message;
      throw providerErrors.cassetteUnreadable(label, why, cassetteOrigin(source));
    }
  }
  const entries: CassetteEntry[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    const parsed = tryParseJson(lines[i]);
    const e = parsed.ok ? (parsed.value as CassetteEntry) : undefined;
    if (!e || typeof e.hash !== "string" || typeof e.response?.status !== "number") {
      throw providerErrors.cassetteUnreadable(label, `line ${i + 1} is not a cassette entry`, cassetteOrigin(source));
    }
    entries.push(e);
  }
  return entries;
}

/** A transport that never touches the network. */
export function replayTransport(entries: readonly CassetteEntry[], label: string): Transport {
  const byHash = new Map<string, { answers: CassetteEntry["response"][]; next: number }>();
  for (const e of entries) {
    let slot = byHash.get(e.hash);
    if (!slot) byHash.set(e.hash, (slot = { answers: [], next: 0 }));
    slot.answers.push(e.response);
  }
  return async (_req, info) => {
    const hash = requestHash(info);
    const slot = byHash.get(hash);
    if (!slot) throw providerErrors.replayMiss(label, info.decl, info.provider, hash);
    const answer = slot.answers[Math.min(slot.next, slot.answers.length - 1)];
    slot.next++;
    return {
      status: answer.status,
      headers: answer.headers ?? {},
      text: answer.text ?? JSON.stringify(answer.body),
    };
  };
}
