/**
 * Elicitation forwarded when Luma is itself served (`luma mcp`): a served call reaches an MCP
 * server (an `mcp:` tool), that server asks for input (`elicitation/create`), and the request
 * goes on to the client of the served call — on that call's stream, cancelled with it — whose
 * answer goes back unchanged. The server's form is passed as it is: Luma is not the one asked.
 *
 * Which served call a server's request belongs to is told by the calls in flight on that
 * connection (connect-server.ts counts them, each with its call's forwarder): a request while
 * calls of two different served calls are in flight is declined rather than shown to the
 * wrong client.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { JournaledQuestions } from "../runtime/tools/steps/journaled-questions";
import type { Elicitor } from "./call-notices";

type Extra = { signal: AbortSignal; requestId: string | number };

/** How long the client of a served call is given to answer one forwarded request (as the terminal's person). */
const ANSWER_WITHIN_MS = 600_000;

/** The forwarder of one served call: declines when its client did not announce elicitation. */
export const forwardedElicitation =
  (server: Server, call: Extra): Elicitor =>
  async (params) => {
    if (!server.getClientCapabilities()?.elicitation) return { action: "decline" };
    try {
      return (await server.elicitInput(params as never, { signal: call.signal, relatedRequestId: call.requestId, timeout: ANSWER_WITHIN_MS })) as Record<string, unknown>;
    } catch (e) {
      // The client's refusal or silence is the inner server's decline, not Luma's crash.
      if (e instanceof McpError && !call.signal.aborted && e.code !== ErrorCode.ConnectionClosed) return { action: "decline" };
      throw e;
    }
  };

/** The forwarders of the calls in flight on one connection, counted (one served call may make several). */
export class ForwardersInFlight {
  private readonly counts = new Map<Elicitor, number>();

  /** Counts one call under `elicitor` (none: a call from outside a served call); returns its release. */
  enter(elicitor: Elicitor | undefined): () => void {
    if (elicitor === undefined) return () => {};
    this.counts.set(elicitor, (this.counts.get(elicitor) ?? 0) + 1);
    return () => {
      const left = (this.counts.get(elicitor) ?? 1) - 1;
      if (left === 0) this.counts.delete(elicitor);
      else this.counts.set(elicitor, left);
    };
  }

  /** The one served call's forwarder; undefined when none, or when calls of several are in flight. */
  only(): Elicitor | undefined {
    return this.counts.size === 1 ? this.counts.keys().next().value : undefined;
  }

  private readonly journaled = new Set<JournaledQuestions>();

  /** Counts one call of a journaled run whose questions the journal answers (journaled-questions.ts); returns its release. */
  enterJournaled(questions: JournaledQuestions | undefined): () => void {
    if (questions === undefined) return () => {};
    this.journaled.add(questions);
    return () => this.journaled.delete(questions);
  }

  /** The one journaled call in flight; undefined when none, or several (a question is then declined, not misfiled). */
  onlyJournaled(): JournaledQuestions | undefined {
    return this.journaled.size === 1 ? this.journaled.values().next().value : undefined;
  }

  /** Whether any served call has a call in flight here. */
  get any(): boolean {
    return this.counts.size > 0;
  }
}
