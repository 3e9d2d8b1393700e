/**
 * Where `stream ask` writes (issue #26 §2): the answer's text goes to stdout as it arrives,
 * nothing else is printed, and a newline ends it — as `print` ends its line — also when the
 * ask fails after some text went out, so an error never starts mid-line. An embedder that
 * takes whole lines only (no `stdoutText`) gets the streamed text as one line at the end.
 */
import type { InterpreterHost } from "./runtime-context";

export interface StreamOutput {
  write: (delta: string) => void;
  /** After the ask: `ok` it answered; a failed ask ends the line only if it wrote some of it. */
  end: (ok: boolean) => void;
}

export function streamToStdout(host: Pick<InterpreterHost, "stdout" | "stdoutText">): StreamOutput {
  const raw = host.stdoutText;
  let text = "";
  let wrote = false;
  if (raw) {
    return {
      write: (delta) => {
        wrote = true;
        raw(delta);
      },
      end: (ok) => void ((ok || wrote) && raw("\n")),
    };
  }
  return { write: (delta) => void (text += delta), end: (ok) => void ((ok || text !== "") && host.stdout(text)) };
}
