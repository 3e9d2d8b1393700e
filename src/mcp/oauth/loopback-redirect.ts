/**
 * The redirect end of an authorization code flow: a listener on the loopback address
 * (`http://127.0.0.1:<port>/callback`, a free port picked by the system), as OAuth for
 * native apps (RFC 8252, section 7.3) and the MCP authorization spec ask of a client with no web
 * server of its own. The browser the person opened the printed URL in comes back here with
 * `code` and `state`; a `state` other than the one sent is refused (a forged callback), and
 * an `error` from the authorization server ends the wait with that error.
 *
 * It starts on first use and stops when the connection closes; waiting is bounded
 * (AUTHORIZE_WAIT_MS), so an authorization nobody completes ends the start-up with an error
 * instead of hanging.
 */
export const AUTHORIZE_WAIT_MS = 300_000;

const PAGE = (text: string) =>
  new Response(`<!doctype html><meta charset="utf-8"><title>Luma</title><p>${text}</p>`, { headers: { "content-type": "text/html; charset=utf-8" } });

export interface LoopbackRedirect {
  readonly url: string;
  /** The code of the next callback carrying `state`; rejects on an error or after AUTHORIZE_WAIT_MS. */
  code(state: string): Promise<string>;
  stop(): void;
}

export function startLoopbackRedirect(): LoopbackRedirect {
  let waiting: { state: string; resolve(code: string): void; reject(e: Error): void } | undefined;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname !== "/callback") return new Response("Not found", { status: 404 });
      const q = url.searchParams;
      if (waiting === undefined || q.get("state") !== waiting.state) return PAGE("This authorization was not asked for by this Luma run.");
      const w = waiting;
      waiting = undefined;
      const error = q.get("error");
      if (error !== null) {
        w.reject(new Error(`the authorization server answered ${JSON.stringify(error.slice(0, 100))}${q.get("error_description") ? `: ${q.get("error_description")!.slice(0, 200)}` : ""}`));
        return PAGE("Authorization failed; see the terminal.");
      }
      const code = q.get("code");
      if (code === null || code === "") {
        w.reject(new Error("the authorization server's redirect carried no code"));
        return PAGE("Authorization failed; see the terminal.");
      }
      w.resolve(code);
      return PAGE("Luma is authorized. You can close this tab.");
    },
  });
  server.unref();
  return {
    url: `http://127.0.0.1:${server.port}/callback`,
    code(state) {
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(new Error(`nobody completed the authorization within ${AUTHORIZE_WAIT_MS / 1000} s`));
        }, AUTHORIZE_WAIT_MS);
        timer.unref?.();
        waiting = {
          state,
          resolve: (code) => (clearTimeout(timer), resolve(code)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        };
      });
    },
    stop: () => void server.stop(true),
  };
}
