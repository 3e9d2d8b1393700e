/**
 * Request bodies of `luma serve`, bounded in size and in time, so no client can make the
 * server hold a request open or hold an unbounded body:
 *
 * - a body larger than MAX_BODY_BYTES is refused (413) as soon as its length is known — from
 *   `Content-Length` before reading, else while reading (a chunked body that never ends);
 * - a body not received whole within the read deadline (LUMA_SERVE_READ_MS, serve-limits.ts)
 *   is refused (408): a client trickling a byte at a time (slowloris) holds nothing for long.
 *
 * Then it must be a JSON object (400 otherwise).
 */
import { requestInvalid } from "./error-answer";

/** 1 MiB: a chat turn or a method's arguments, with room to spare. */
export const MAX_BODY_BYTES = 1 << 20;

const tooLarge = () => requestInvalid(`The request body is larger than ${MAX_BODY_BYTES} bytes (the limit of luma serve).`, { max_bytes: MAX_BODY_BYTES });
const tooSlow = (ms: number) => requestInvalid(`The request body did not arrive whole within ${ms} ms (LUMA_SERVE_READ_MS).`, { timeout_ms: ms });

/** What reading a body may take: its time limit, from the moment the request arrived. */
export interface BodyLimits {
  readMs: number;
  /** How long a chat turn whose client went away waits to be resumed (chat-turns.ts). */
  resumeMs: number;
}

async function boundedText(req: Request, limits: BodyLimits): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (req.body === null) return "";
  const reader = req.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(tooSlow(limits.readMs)), limits.readMs)));
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { value, done } = await Promise.race([reader.read(), late]);
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) throw tooLarge();
      chunks.push(value);
    }
  } catch (e) {
    // Stop reading what the client still sends; the refusal answers it.
    void reader.cancel().catch(() => {});
    throw e;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The body as a JSON object; `what` names what the endpoint expects, for the message. */
export async function readJsonObject(req: Request, what: string, limits: BodyLimits): Promise<Record<string, unknown>> {
  const text = await boundedText(req, limits);
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch (e) {
    throw requestInvalid(`The request body is not JSON (${(e as Error).message}); send ${what}.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw requestInvalid(`The request body must be ${what}.`);
  return value as Record<string, unknown>;
}
