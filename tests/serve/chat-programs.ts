/**
 * The agents the chat tests talk to, written once: a support agent whose refunds need
 * approval (`on_denied: "tell_model"`) and whose address check is a client tool, and a
 * refunds agent whose method another agent lists as a tool; a support agent that looks
 * orders up.
 */
import { modelDecl } from "../ask/ask-harness";

export const SUPPORT_WITH_APPROVALS = `${modelDecl("openai")}
schema Refund { id: int  refunded: bool }
schema Confirmed { ok: bool }
tool issue_refund(id: int) -> Refund { side_effects: "write" }
tool confirm_address(address: string) -> Confirmed { handler: "client" }
agent Support {
  model: M
  tool_policy: "approval"
  on_denied: "tell_model"
  tools: [issue_refund, confirm_address]
}
`;

/** Needs `issue_refund` declared. */
export const REFUNDS_AGENT = `agent Refunds {
  tool_policy: "approval"
  tools: [issue_refund]
  /// Refunds one order.
  fn handle(id: int) -> bool {
    r = tool issue_refund({ id: id })
    return r.refunded
  }
}
`;

/** A support agent that looks orders up, with `methods` (lines of `fn …`) of the test's own. */
export const orderSupport = (methods: string): string => `${modelDecl("openai")}
schema Order { id: int  status: string }
tool lookup_order(id: int) -> Order {}
agent Support {
  model: M
  system: "You help with orders."
  tools: [lookup_order]
${methods}}
`;
