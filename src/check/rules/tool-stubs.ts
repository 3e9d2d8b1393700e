/**
 * E0323: `mock tool name [answers]` in a test (issue #28 §4) names a declared tool that has
 * a handler to stand in for — not an unknown name, not a `handler: "client"` tool. The
 * answers' shape is checked when the test starts (runtime/testing/tool-stubs.ts).
 */
import { entryOf } from "../../language/keys/key-spec";
import { TOOL_KEYS } from "../../language/keys/tool-keys";
import type { CheckContext } from "../context";
import { typeMessages } from "../types/type-messages";

export function toolStubs(ctx: CheckContext): void {
  const m = typeMessages.toolStubTarget;
  for (const test of ctx.program.tests ?? []) {
    for (const stub of test.stubs ?? []) {
      const tool = ctx.symbols.tools.get(stub.tool);
      const handler = tool && entryOf(TOOL_KEYS, tool.options, "handler")?.value;
      const reason = !tool
        ? "no tool is declared with that name"
        : handler?.kind === "Lit" && handler.value === "client"
          ? `tool '${stub.tool}' is answered by the client (handler: "client")`
          : undefined;
      if (reason) ctx.report(m.text(stub.tool, reason), stub.toolSpan, { code: m.code });
    }
  }
}
