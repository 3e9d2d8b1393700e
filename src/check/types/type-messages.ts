/**
 * The static type rules' messages: each is one entry of the diagnostic catalog
 * (`src/diagnostics/catalog/type-codes.ts`: code, title, text builder, hints, explanation,
 * example together), read here under the name the rules use, `typeMessages.unknownField`.
 * Beside them, the checker's own helpers for wording them: how a message names the owner
 * of parameters, and when a reason is worth a hint. Types are quoted as `typeText` prints
 * them.
 */
import { TYPE_DIAGNOSTICS } from "../../diagnostics/catalog/type-codes";
import { typeText, type Type } from "./type-model";

/** How a message names the owner of parameters: `tool 'calculate'`, `query 'top'`. */
export const ownerText = (kind: "tool" | "query" | "command", name: string) => `${kind} '${name}'`;

export const typeMessages = TYPE_DIAGNOSTICS;

/** A reason worth a hint: only when it says more than "A is not B" already did. */
export const reasonHint = (reason: string | undefined, value: Type, target: Type): string[] =>
  reason === undefined || reason === `${typeText(value)} is not ${typeText(target)}` ? [] : [reason];
