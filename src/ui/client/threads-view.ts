/**
 * Threads: a stored conversation of the config's `threads` store, message by message (user,
 * assistant with its tool calls, tool results). The store keeps threads under their ids'
 * digests and does not list them, so a thread is opened by its id (`#/threads/<id>`).
 */
import { getJson, type ThreadMessage } from "./api";
import { fmtTime, h, pretty } from "./dom";

export function threadsView(root: HTMLElement, initial: string | undefined, go: (id: string) => void): () => void {
  const input = h("input.thread-id", { type: "search", placeholder: "thread id, e.g. customer-42", "aria-label": "Thread id", value: initial ?? "" });
  const out = h("div.messages");
  const form = h("form.toolbar", { onsubmit: (e: Event) => (e.preventDefault(), go(input.value.trim())) }, input, h("button", { type: "submit" }, "Open"));
  root.replaceChildren(h("section.threads", {}, form, out));
  if (initial !== undefined && initial !== "") {
    getJson<{ store: string; messages: ThreadMessage[] }>(`/api/thread?id=${encodeURIComponent(initial)}`).then(
      (t) => {
        out.replaceChildren(
          h("p.meta", {}, `${t.messages.length} messages · ${t.store}`),
          ...t.messages.map((m) =>
            h(`div.msg.m-${m.role}` as "div", { "data-role": m.role },
              h("b", {}, m.role, m.agent ? ` (${m.agent})` : ""), h("span.meta", {}, " ", fmtTime(Date.parse(m.time))),
              h("pre", {}, m.text),
              m.tool_calls?.length ? h("pre", {}, pretty(m.tool_calls)) : null,
            ),
          ),
        );
        document.body.setAttribute("data-thread-loaded", String(t.messages.length));
      },
      (e) => out.replaceChildren(h("p.error", {}, String((e as Error).message))),
    );
  }
  return () => {};
}
