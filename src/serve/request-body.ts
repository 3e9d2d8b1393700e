/**
 * Request bodies of `luma serve`, bounded: a body larger than MAX_BODY_BYTES is refused
 * (413) as soon as its length is known — from `Content-Length` before reading, else while
 * reading, so a client cannot make the server hold an unbounded body. Then it must be a JSON
 * object (400 otherwise).
 */
import { BodyTooLarge, readCappedBody } from "../runtime/base/read-capped-body";
import { requestInvalid } from "./error-answer";

/** 1 MiB: a chat turn or a method's arguments, with room to spare. */
export const MAX_BODY_BYTES = 1 << 20;

const tooLarge = () => requestInvalid(`The request body is larger than ${MAX_BODY_BYTES} bytes (the limit of luma serve).`, { max_bytes: MAX_BODY_BYTES });

async function boundedText(req: Request): Promise<string> {
  try {
    return await readCappedBody(req, MAX_BODY_BYTES);
  } catch (e) {
    throw e instanceof BodyTooLarge ? tooLarge() : e;
  }
}

/** The body as a JSON object; `what` names what the endpoint expects, for the message. */
export async function readJsonObject(req: Request, what: string): Promise<Record<string, unknown>> {
  const text = await boundedText(req);
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch (e) {
    throw requestInvalid(`The request body is not JSON (${(e as Error).message}); send ${what}.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw requestInvalid(`The request body must be ${what}.`);
  return value as Record<string, unknown>;
}
