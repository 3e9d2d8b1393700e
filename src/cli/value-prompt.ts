/**
 * The terminal's questions for a value (the run's `askValue`, only when stdin is an
 * interactive terminal): a client tool's answer (`handler: "client"`) and an approval's
 * note (`approval: Schema`). Like the y/N approval prompt (approval-prompt.ts) it talks to
 * /dev/tty, so it is seen when stdout and stderr are redirected, and it shows the call first:
 *
 *   Client tool 'confirm_address' is called with {"address":{"street":"Main St 1"}}
 *   Answer with a Confirmed as JSON on one line (an empty line declines):
 *
 *   Tool 'refund' is called with {"order":"A-7","amount":40}
 *   Approve tool 'refund' with a RefundNote (an empty first answer declines):
 *     reason (string):
 *     ticket (integer, optional):
 *
 * An MCP server's elicitation (`purpose: "elicitation"`) is y/N, then its form field by
 * field, an empty answer taking the field's default:
 *
 *   MCP server 'tickets' asks: Which queue should the ticket go to?
 *   Answer MCP server 'tickets'? [y/N] y
 *     queue ("support" | "billing", default "support"):
 *
 * A note is asked field by field: a string field takes the text as typed, any other field
 * a JSON value (`12`, `true`, `["a"]`); an optional field left empty is left out. The value
 * is checked with the program's validator (`problem`): a value it refuses is named with its
 * problem and asked again, at most three times in all; then the question counts as declined.
 */
import { closeSync, writeSync } from "node:fs";
import type { AskValue, ValueRequest } from "../runtime/tools/tool-invoker-types";
import { openTty, readLine } from "./approval-prompt";

const TRIES = 3;

type JsonSchema = Record<string, unknown>;

interface Terminal {
  say(text: string): void;
  line(): string;
}

const typeLabel = (s: JsonSchema): string =>
  Array.isArray(s.enum) ? s.enum.map((e) => JSON.stringify(e)).join(" | ") : typeof s.type === "string" ? s.type : s.$ref !== undefined || s.anyOf !== undefined ? "JSON" : "value";

/** One field's text as its value: strings as typed, anything else as JSON (unreadable text stays a string, and the check names it). */
const fieldValue = (s: JsonSchema, text: string): unknown => {
  if (s.type === "string") return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** The note, field by field; undefined when the first answer is empty (declined). */
const askFields = (t: Terminal, req: ValueRequest): unknown | undefined => {
  const props = (req.jsonSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((req.jsonSchema.required ?? []) as string[]);
  const value: Record<string, unknown> = {};
  let first = true;
  for (const [name, s] of Object.entries(props)) {
    t.say(`  ${name} (${typeLabel(s)}${required.has(name) ? "" : ", optional"}): `);
    const text = t.line();
    if (first && text.trim() === "") return undefined;
    first = false;
    if (text === "" && !required.has(name)) continue;
    value[name] = fieldValue(s, text);
  }
  return value;
};

/**
 * An MCP server's form (elicitation): y/N first, then each field, where an empty answer
 * takes the field's default (shown) or leaves an optional field out.
 */
const askForm = (t: Terminal, req: ValueRequest): unknown | undefined => {
  t.say(`Answer MCP server '${req.tool}'? [y/N] `);
  if (!["y", "yes"].includes(t.line().trim().toLowerCase())) return undefined;
  const props = (req.jsonSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((req.jsonSchema.required ?? []) as string[]);
  const value: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(props)) {
    const fallback = s.default !== undefined ? `, default ${JSON.stringify(s.default)}` : required.has(name) ? "" : ", optional";
    const about = typeof s.description === "string" ? ` ${s.description}` : "";
    t.say(`  ${name} (${typeLabel(s)}${fallback})${about}: `);
    const text = t.line();
    if (text === "") continue;
    value[name] = fieldValue(s, text);
  }
  return value;
};

const askJson = (t: Terminal): unknown | undefined => {
  const text = t.line().trim();
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    return { notJson: (e as Error).message };
  }
};

const NOT_JSON = (v: unknown): string | undefined =>
  v !== null && typeof v === "object" && "notJson" in v && Object.keys(v).length === 1 ? String((v as { notJson: unknown }).notJson) : undefined;

export const askValueOnTerminal: AskValue = async (req) => {
  const out = openTty("w");
  const input = openTty("r");
  const t: Terminal = { say: (text) => void writeSync(out ?? 2, text), line: () => readLine(input ?? 0) };
  try {
    const asNote = req.purpose === "approval";
    const asForm = req.purpose === "elicitation";
    t.say(asForm ? `MCP server '${req.tool}' asks: ${req.args}\n` : `${asNote ? "Tool" : "Client tool"} '${req.tool}' is called with ${req.args}\n`);
    for (let tries = 1; tries <= TRIES; tries++) {
      let value: unknown;
      if (asForm) {
        value = askForm(t, req);
      } else if (asNote) {
        t.say(`Approve tool '${req.tool}' with a ${req.schemaName} (an empty first answer declines):\n`);
        value = askFields(t, req);
      } else {
        t.say(`Answer with a ${req.schemaName} as JSON on one line (an empty line declines): `);
        value = askJson(t);
      }
      if (value === undefined) return undefined;
      const problem = NOT_JSON(value) !== undefined ? `not JSON (${NOT_JSON(value)})` : req.problem(value);
      if (problem === undefined) return { value };
      t.say(`Not a valid ${req.schemaName}: ${problem}${tries < TRIES ? " Try again." : ` Declined after ${TRIES} tries.`}\n`);
    }
    return undefined;
  } finally {
    if (out !== undefined) closeSync(out);
    if (input !== undefined) closeSync(input);
  }
};
