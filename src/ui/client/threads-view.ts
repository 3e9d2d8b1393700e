/**
 * Threads: the threads of the config's `threads` store, listed by id (virtual, searchable),
 * and the one selected message by message (user, assistant with its tool calls, tool
 * results). A thread a store wrote before it kept ids is not listed; it opens by its id
 * (`#/threads/<id>`, or typed in the box and Enter).
 */
import { getJson, type ListedThread, type ThreadMessage } from "./api";
import { fmtTime, h, pretty } from "./dom";
import { virtualList } from "./virtual-list";

export function threadsView(root: HTMLElement, initial: string | undefined, go: (id: string) => void): () => void {
  let all: ListedThread[] = [];
  const input = h("input.thread-id", { type: "search", placeholder: "search or open a thread id, e.g. customer-42", "aria-label": "Thread id", value: initial ?? "" });
  const count = h("span.count");
  const out = h("div.messages");
  const list = virtualList<ListedThread>(28, (t) =>
    h(t.id === initial ? "a.row.thread-row.selected" : "a.row.thread-row", { href: `#/threads/${encodeURIComponent(t.id)}`, "data-thread": t.id }, h("span", {}, t.id), h("span.meta", {}, `${t.version} exchange${t.version === 1 ? "" : "s"}`)),
  );
  const apply = () => {
    const q = input.value.trim().toLowerCase();
    const shown = all.filter((t) => q === "" || t.id.toLowerCase().includes(q));
    count.textContent = `${shown.length} of ${all.length} threads`;
    list.update(shown);
  };
  input.addEventListener("input", apply);
  const form = h("form.toolbar", { onsubmit: (e: Event) => (e.preventDefault(), go(input.value.trim())) }, input, h("button", { type: "submit" }, "Open"), count);
  root.replaceChildren(h("section.threads", {}, form, h("div.thread-split", {}, list.el, out)));
  getJson<{ store: string; threads: ListedThread[] }>("/api/threads").then(
    (r) => {
      all = r.threads;
      // The box holds the open thread's id: list every thread, not just that one.
      if (initial !== undefined) input.value = "";
      apply();
      document.body.setAttribute("data-threads-loaded", String(all.length));
    },
    (e) => (count.textContent = String((e as Error).message)),
  );
  if (initial !== undefined && initial !== "") {
    getJson<{ store: string; messages: ThreadMessage[] }>(`/api/thread?id=${encodeURIComponent(initial)}`).then(
      (t) => {
        out.replaceChildren(
          h("p.meta", {}, `${initial} · ${t.messages.length} messages · ${t.store}`),
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
