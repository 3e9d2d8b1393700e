/**
 * `luma chat FILE --agent A [--method m] [--thread ID]` (issue #26 §3) in the terminal: each
 * line of stdin is one user message, the reply streams to stdout, tool calls show as one
 * line each on stderr as they end (`· lookup_order ok 12 ms`), and EOF or `/exit` ends the
 * chat. stdin need not be a terminal (scripts and tests pipe lines in); a prompt (`> `) is
 * shown only on one. A message whose reply fails prints the error on stderr and the chat goes
 * on — except a start-up error (exit 2), which ends it before the first line.
 * Approvals ask on the terminal as in a run (only when stdin is one).
 */
import type { ChatCommand } from "./argv";
import { chatFile, type ChatHost } from "../index";
import { reportError, EXIT } from "./report-error";
import { useColor } from "./terminal";

export interface ChatTerminal extends ChatHost {
  /** Raw stdout (no newline added). */
  write: (text: string) => void;
  err: (line: string) => void;
}

export async function runChatCommand(cmd: ChatCommand, term: ChatTerminal): Promise<number> {
  const session = await chatFile({
    ...term,
    file: cmd.file,
    agent: cmd.agent,
    method: cmd.method,
    thread: cmd.thread,
    agentArgs: cmd.agentArgs,
    toolModules: cmd.toolModules,
    configPath: cmd.config,
    trace: cmd.trace,
    record: cmd.record,
    replay: cmd.replay,
    onToolCall: (e) => term.err(`· ${e.tool} ${e.outcome === "ok" ? "ok" : (e.code ?? "error")} ${Math.round(e.duration_ms)} ms`),
  });
  const prompt = () => void (term.interactive && term.write("> "));
  try {
    prompt();
    for await (const line of stdinLines()) {
      const text = line.trim();
      if (text === "/exit") break;
      if (text !== "") {
        try {
          await session.reply(text);
        } catch (e) {
          const report = reportError(e, { color: useColor(process.stderr), sourceOf: (f) => term.sources.get(f), debug: term.env.LUMA_DEBUG === "1" });
          if (report.text !== "") term.err(report.text);
        }
      }
      prompt();
    }
  } finally {
    await session.close();
  }
  return EXIT.ok;
}

/** stdin's lines as they come (a pipe's last line needs no newline). */
async function* stdinLines(): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of process.stdin as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      yield buffered.slice(0, nl).replace(/\r$/, "");
      buffered = buffered.slice(nl + 1);
    }
  }
  buffered += decoder.decode();
  if (buffered !== "") yield buffered;
}
