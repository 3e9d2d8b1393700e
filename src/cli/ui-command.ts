/**
 * `luma ui`: checks where it may listen (loopback, or LUMA_UI_TOKEN set: E1501), reads what
 * it will show (ui/ui-sources.ts), serves the page (ui/ui-server.ts) and prints its address;
 * it runs until SIGINT or SIGTERM. The token itself is never printed.
 */
import { startupError } from "../diagnostics/luma-error";
import { isLoopback } from "../ui/ui-guard";
import { serveUi } from "../ui/ui-server";
import { openSources } from "../ui/ui-sources";
import { DEFAULT_UI_ADDRESS, parseHttpAddress, type UiCommand } from "./ui-argv";

export async function runUiCommand(cmd: UiCommand, host: { out: (t: string) => void; cwd: string; env: Record<string, string | undefined> }): Promise<number> {
  const at = cmd.http === undefined ? DEFAULT_UI_ADDRESS : parseHttpAddress(cmd.http);
  const token = host.env.LUMA_UI_TOKEN === undefined || host.env.LUMA_UI_TOKEN === "" ? undefined : host.env.LUMA_UI_TOKEN;
  if (!isLoopback(at.host) && token === undefined) {
    throw startupError(`luma ui listens on ${at.host}, which is not a loopback address: set LUMA_UI_TOKEN (every request must then carry it), or listen on 127.0.0.1.`, { catalogCode: "E1501" });
  }
  const sources = await openSources({ journals: cmd.journals, traces: cmd.traces, config: cmd.config, cwd: host.cwd, env: host.env });
  const server = serveUi(sources, { ...at, token });
  host.out(`luma ui: ${server.url}${token === undefined ? "" : " (open it once with ?token=<LUMA_UI_TOKEN>)"}`);
  await new Promise<void>((done) => {
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await server.stop();
  return 0;
}
