/**
 * Closing an MCP client transport (stdio or Streamable HTTP) without losing what it is still
 * sending.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** Closing waits at most this long for messages still being sent (a cancellation) to arrive. */
const CLOSE_GRACE_MS = 2_000;

/**
 * The SDK sends `notifications/cancelled` without waiting for it, and closing an HTTP
 * transport aborts every request it still has in flight — so a call that timed out just
 * before the program ended lost its cancellation, and the server ran on. The transport keeps
 * the notifications it is sending; closing lets them arrive first (bounded: a server that
 * never answers does not hold the exit up). A request's answer is of no use once closing,
 * so requests are not waited for.
 */
export function deliverBeforeClose(transport: Transport, graceMs = CLOSE_GRACE_MS): Transport {
  const inFlight = new Set<Promise<void>>();
  const send = transport.send.bind(transport);
  const close = transport.close.bind(transport);
  transport.send = (message, options) => {
    const sending = send(message, options);
    if ("id" in message) return sending;
    const settled = sending.then(() => {}, () => {});
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
    return sending;
  };
  transport.close = async () => {
    if (inFlight.size > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((done) => (timer = setTimeout(done, graceMs)));
      await Promise.race([Promise.all([...inFlight]), grace]);
      clearTimeout(timer);
    }
    return close();
  };
  return transport;
}
