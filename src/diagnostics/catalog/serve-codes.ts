/**
 * `luma serve FILE` (issue #26 §4, E0670–E0679): why a program is not served. They are
 * start-up errors (exit 2, nothing listens), joined into startup-codes.ts's list, so the
 * catalog's tests see them with the other E06xx codes.
 */
import type { CatalogEntry } from "./catalog-entry";

export const SERVE_ENTRIES = [
  {
    code: "E0670",
    title: "luma serve --http: not an address to serve at",
    explanation:
      "`--http` takes HOST:PORT or PORT (127.0.0.1 when the host is left out; port 0 picks a free one), and the address must be free to listen on.",
    example: "luma serve app.luma --http 127.0.0.1:99999",
  },
  {
    code: "E0671",
    title: "luma serve off loopback without LUMA_SERVE_TOKEN",
    explanation:
      "A loopback address (127.0.0.0/8, ::1, localhost) is reached only from this machine. Any other address (0.0.0.0, a LAN or public one) would let whoever reaches it call every served agent, so `luma serve` starts there only with a bearer token in LUMA_SERVE_TOKEN (an environment variable: every user of the machine can read a process's arguments). Clients then send `Authorization: Bearer <token>`. An empty token, or one with whitespace, is refused too.",
    example: "luma serve app.luma --http 0.0.0.0:8080   (LUMA_SERVE_TOKEN not set)",
  },
  {
    code: "E0672",
    title: "luma serve --agent: no such agent to serve",
    explanation:
      "`--agent A` (repeatable) limits what is served to those agents; each must be an agent of the program.",
    example: "luma serve app.luma --agent Suport",
  },
  {
    code: "E0673",
    title: "luma serve --cors: not an origin",
    explanation:
      "`--cors ORIGIN` lets pages of that one origin call the server from a browser (`Access-Control-Allow-Origin`). An origin is a scheme, a host and an optional port — `https://app.example.com`, `http://localhost:5173` — with no path; `*` is refused, since the server runs agents with your keys.",
    example: "luma serve app.luma --cors https://app.example.com/chat",
  },
  {
    code: "E0674",
    title: "LUMA_SERVE_DRAIN_MS is not a number of milliseconds",
    explanation:
      "After SIGTERM or SIGINT, `luma serve` lets the requests in flight finish for LUMA_SERVE_DRAIN_MS milliseconds (default 10000) before it aborts them. The variable must be a whole number (0: abort at once).",
    example: "LUMA_SERVE_DRAIN_MS=10s luma serve app.luma",
  },
  {
    code: "E0675",
    title: "LUMA_SERVE_READ_MS is not a number of milliseconds",
    explanation:
      "`luma serve` gives a client LUMA_SERVE_READ_MS milliseconds (default 10000) to send a request's body, and closes a connection that carries no request for as long (rounded up to whole seconds, at most 255): a client trickling its body a byte at a time, or holding sockets open, holds nothing for long. The variable must be a whole number, at least 1.",
    example: "LUMA_SERVE_READ_MS=0 luma serve app.luma",
  },
  {
    code: "E0676",
    title: "luma serve --agent-args: not AGENT=JSON for a served agent",
    explanation:
      "`--agent-args AGENT=JSON` (repeatable, once per agent) fixes the parameters of a served agent declared with them (`agent Support(user: User)`) for the server's life; the JSON is then checked as `luma chat --agent-args` checks it (E0654–E0656). The agent must be one the server serves. Without the flag, each request gives them under `\"$agent\"`.",
    example: "luma serve app.luma --agent-args '{\"user\": {\"id\": 7}}'   (no AGENT=)",
  },
  {
    code: "E0677",
    title: "LUMA_SERVE_RESUME_MS is not a number of milliseconds",
    explanation:
      "A chat turn whose client went away mid-stream (a reload, a dropped connection) keeps running for LUMA_SERVE_RESUME_MS milliseconds (default 10000), so `useChat` with `resume: true` can re-attach to it (`GET /chat/{Agent}/{id}/stream`); past it, nobody having resumed, the turn is aborted and the thread gets nothing. The variable must be a whole number (0: abort at once).",
    example: "LUMA_SERVE_RESUME_MS=ten luma serve app.luma",
  },
  {
    code: "E0678",
    retired: true,
    title: "(retired) luma serve / luma mcp / luma chat with a journal",
    explanation:
      "Retired: no longer reported. Earlier versions refused a journal (luma.config.json `journal`) for `luma serve`, `luma mcp` and `luma chat`, whose calls would have shared one journal run. Each call — a request, a chat turn, a `tools/call`, a chat line — is now a journal run of its own, listed by `luma runs` (docs/durable-runs.md, \"Served programs\").",
  },
  {
    code: "E0679",
    title: "a chat continuation names a turn that does not wait",
    explanation:
      "With a journal, a `luma serve` chat turn that needs its client (an approval, a client tool's output) ends as a pending journal run named by the assistant message's id; the client's answer, sent back in that message, continues the run on whichever process receives it. The journal must hold that run, waiting: an id it does not hold (forged, or from another journal), or a run that has finished or failed, is refused with 400 and nothing runs. Send a new message instead.",
    example: 'POST /chat/Support  { "id": "c1", "messages": [ …, { "id": "r-unknown", "role": "assistant", "parts": [ …answers… ] } ] }',
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode` (through StartupCode). */
export type ServeCode = (typeof SERVE_ENTRIES)[number]["code"];
