/**
 * Closing an MCP client transport (stdio or Streamable HTTP) without losing what it is still
 * sending.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { WorkInFlight } from "../runtime/run/work-in-flight";

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
  const notifications = new WorkInFlight();
  const send = transport.send.bind(transport);
  const close = transport.close.bind(transport);
  transport.send = (message, options) => {
    const sending = send(message, options);
    return "id" in message ? sending : notifications.track(sending);
  };
  transport.close = async () => {
    await notifications.settled(graceMs);
    return close();
  };
  return transport;
}
