/**
 * A `useChat` front end without the browser: the `ai` package's own `DefaultChatTransport`
 * (the request `useChat` sends, the SSE parser and part schemas it reads with) and
 * `readUIMessageStream` (how `useChat` builds the assistant message from the parts). Nothing
 * here parses the protocol by hand: a part Luma got wrong fails the SDK's own validation.
 */
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";

export interface ChatTurn {
  /** The assistant message as useChat holds it once the stream ended. */
  message: UIMessage;
  /** Errors the stream reported (`error` parts), as useChat's `error`. */
  errors: string[];
}

export function chatClient(url: string, headers: Record<string, string> = {}) {
  let n = 0;
  const user = (text: string): UIMessage => ({ id: `u${++n}`, role: "user", parts: [{ type: "text", text }] });
  return {
    user,
    /**
     * Sends `messages` (the last one the new user message, or the assistant's with answers) as
     * chat `chatId`; the assistant's reply as useChat sees it — `continuing` that message when given.
     */
    async send(agent: string, chatId: string, messages: UIMessage[], continuing?: UIMessage): Promise<ChatTurn> {
      const transport = new DefaultChatTransport<UIMessage>({ api: `${url}/chat/${agent}`, headers });
      const stream = await transport.sendMessages({ trigger: "submit-message", chatId, messageId: undefined, messages, abortSignal: undefined });
      const errors: string[] = [];
      let message: UIMessage | undefined;
      for await (const m of readUIMessageStream<UIMessage>({ message: continuing && structuredClone(continuing), stream, onError: (e) => errors.push(e instanceof Error ? e.message : String(e)) })) message = m;
      return { message: message ?? { id: "", role: "assistant", parts: [] }, errors };
    },
  };
}

/** The text of a message's text parts, joined. */
export const textOf = (m: UIMessage): string => m.parts.filter((p) => p.type === "text").map((p) => (p as { text: string }).text).join("");

/** What useChat's addToolApprovalResponse does to the message: every approval asked for is answered `approved`. */
export const respond = (m: UIMessage, approved: boolean): UIMessage => ({
  ...m,
  parts: m.parts.map((p: any) => (p.state === "approval-requested" ? { ...p, state: "approval-responded", approval: { id: p.approval.id, approved } } : p)),
});

/** What useChat's addToolOutput does to the message. */
export const withOutput = (m: UIMessage, toolCallId: string, output: unknown): UIMessage => ({
  ...m,
  parts: m.parts.map((p: any) => (p.toolCallId === toolCallId ? { ...p, state: "output-available", output } : p)),
});
