/**
 * Models asked for bare JSON sometimes answer in a Markdown code fence anyway
 * (```json … ```), most often compatible servers without a strict response format. The
 * fence is packaging, not content: when the answer is not JSON as sent but is exactly one
 * fenced block — nothing before or after it but whitespace — its inside is what gets parsed.
 * Prose around a fence is still an invalid answer: picking JSON out of text would guess.
 */

/** ```json / ```JSON / bare ```, a newline, the body, then the closing fence at the end. */
const WHOLE_FENCE = /^\s*```(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```\s*$/;

/** The inside of an answer that is one fenced block, or undefined. */
export function unfence(text: string): string | undefined {
  const m = WHOLE_FENCE.exec(text);
  return m ? m[1] : undefined;
}
