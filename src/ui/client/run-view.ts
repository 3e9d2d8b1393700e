/**
 * A run's timeline: each step in order — `ask` requests with their messages, tool calls with
 * input, output, duration, retries, cache hits and idempotent replays, errors with their
 * codes — indented by where it ran (sub-agents' and `parallel` branches' steps sit under the
 * step that called them: the step id's path). Selecting a step shows all it recorded.
 * Calls waiting for a person are on top, with Approve / Deny / Answer (the digest shown is
 * the one the decision binds to). While the run is running or waiting, the page polls once a
 * second: steps appear as they are journaled or traced.
 */
import { getJson, postAct, type PendingRow, type RunDetail, type TimelineStep } from "./api";
import { fmtMs, fmtTime, fmtUsd, h, pretty } from "./dom";
import { timelineRows, type TimelineRow } from "./timeline-rows";
import { virtualList } from "./virtual-list";


const flags = (s: TimelineStep): string[] => {
  const d = s.detail ?? {};
  return [
    d.cache_hit === true ? "cache hit" : "",
    d.idempotent_replay === true ? "idempotent replay" : "",
    d.single_flight === true ? "single-flight" : "",
    d.journal_replay === true ? "journal replay" : "",
    s.retries > 0 ? `${s.retries} ${s.retries === 1 ? "retry" : "retries"}` : "",
  ].filter((f) => f !== "");
};

const stepDetail = (s: TimelineStep): HTMLElement => {
  const d = s.detail ?? {};
  const parts: HTMLElement[] = [h("h3", {}, `${s.kind} ${s.name}`), h("p.meta", {}, `${s.step} · ${s.status}${s.code ? " " + s.code : ""} · ${fmtMs(s.duration_ms)} · attempts ${s.attempts}`)];
  if (s.error) parts.push(h("p.error", {}, s.error));
  if (typeof d.agent === "string") parts.push(h("p.meta", {}, `agent ${d.agent}`));
  if (d.system) parts.push(h("h4", {}, "system"), h("pre", {}, pretty(d.system)));
  if (Array.isArray(d.messages)) {
    parts.push(h("h4", {}, "messages"));
    for (const m of d.messages as { role: string; text?: string; tool_calls?: unknown[]; results?: unknown[] }[]) {
      parts.push(h(`div.msg.m-${m.role}` as "div", {}, h("b", {}, m.role), h("pre", {}, m.text ?? ""), m.tool_calls?.length ? h("pre", {}, pretty(m.tool_calls)) : null, m.results ? h("pre", {}, pretty(m.results)) : null));
    }
  }
  if ("input" in d) parts.push(h("h4", {}, "input"), h("pre.input", {}, pretty(d.input)));
  if ("output" in s) parts.push(h("h4", {}, "output"), h("pre.output", {}, pretty(s.output)));
  if (d.usage) parts.push(h("p.meta", {}, `tokens ${pretty(d.usage)} · cost ${fmtUsd(typeof d.cost_usd === "number" ? d.cost_usd : null)}`));
  return h("div.detail", {}, ...parts);
};

const pendingCard = (id: string, p: PendingRow, after: (msg: string) => void): HTMLElement => {
  const note = h("textarea.value", { placeholder: p.schema ? `a ${p.schema} (JSON)` : "", rows: "3", "aria-label": "value" });
  const send = (action: "approve" | "deny" | "answer") => async () => {
    try {
      await postAct({ id, step: p.step, digest: p.digest, action, ...(note.value.trim() === "" ? {} : { json: note.value }) });
      after(`${action === "deny" ? "denied" : action === "answer" ? "answered" : "approved"} ${p.tool} at ${p.step}: the run is resumable`);
    } catch (e) {
      after(String((e as Error).message));
    }
  };
  const buttons =
    p.kind === "answer"
      ? [h("button.answer", { onclick: send("answer") }, "Answer")]
      : [h("button.approve", { onclick: send("approve") }, "Approve"), h("button.deny", { onclick: send("deny") }, "Deny")];
  return h("div.pending", { "data-step": p.step },
    h("b", {}, p.kind === "answer" ? `Client tool '${p.tool}' waits for an answer` : `Tool '${p.tool}' waits for approval`),
    h("p.meta", {}, `step ${p.step} · input digest ${p.digest} · requested ${fmtTime(p.requested_at)}`),
    h("pre", {}, p.args),
    p.kind === "answer" || p.schema ? note : null,
    h("div.buttons", {}, ...buttons),
  );
};

export function runView(root: HTMLElement, id: string): () => void {
  const header = h("div.run-head");
  const pending = h("div.pendings");
  const message = h("p.message", { role: "status" });
  const side = h("aside.side", {}, h("p.meta", {}, "Select a step to see what it recorded."));
  let rows: TimelineRow[] = [];
  let selected = "";
  const list = virtualList<TimelineRow>(28, (r) =>
    r.kind === "scope"
      ? h("div.row.scope", { "data-scope": r.path }, h("span.c-step", { style: `padding-left:${r.depth * 14}px` }, "▾ ", r.label))
      : h(`div.row.step.k-${r.step.kind}.st-${r.step.status}${r.step.step === selected ? ".selected" : ""}` as "div", { "data-step": r.step.step, onclick: () => ((selected = r.step.step), side.replaceChildren(stepDetail(r.step)), list.update(rows)) },
          h("span.c-step", { style: `padding-left:${r.depth * 14}px` }, r.step.step),
          h("span.c-kind", {}, r.step.kind),
          h("span.c-name", {}, r.step.name),
          h("span.c-outcome", {}, r.step.status === "error" ? `error ${r.step.code ?? ""}` : r.step.status),
          h("span.c-dur", {}, fmtMs(r.step.duration_ms)),
          h("span.c-flags", {}, flags(r.step).join(" · ")),
        ),
  );
  root.replaceChildren(h("section.run", {}, h("a.back", { href: "#/" }, "← runs"), header, message, pending, h("div.split", {}, h("div.timeline", {}, list.el), side)));
  let timer: ReturnType<typeof setInterval> | undefined;
  const load = async () => {
    const r = await getJson<RunDetail>(`/api/run?id=${encodeURIComponent(id)}`);
    const s = r.summary;
    header.replaceChildren(
      h("h2", {}, s.run, " ", h(`span.badge.s-${s.status}` as "span", { id: "run-status" }, s.status)),
      h("p.meta", {}, `${s.program} · ${s.source} · started ${fmtTime(s.started_at)} · ${fmtMs(s.duration_ms)} · ${s.steps} steps · tokens ${s.tokens_in} / ${s.tokens_out} · cost ${fmtUsd(s.cost_usd)}${s.agents.length ? " · agents " + s.agents.join(", ") : ""}`),
      ...(s.status === "resumable" ? [h("p.resumable", {}, `Resumable: run it again with --run-id ${s.run}.`)] : []),
    );
    const open = r.pending.filter((p) => p.decision === null);
    pending.replaceChildren(...(r.actable ? open.map((p) => pendingCard(id, p, (m) => ((message.textContent = m), void load()))) : []));
    rows = timelineRows(r.steps);
    list.update(rows);
    document.body.setAttribute("data-steps-loaded", String(r.steps.length));
    const live = s.status === "running" || s.status === "waiting" || s.status === "resumable";
    if (live && timer === undefined) timer = setInterval(() => void load(), 1000);
    if (!live && timer !== undefined) (clearInterval(timer), (timer = undefined));
  };
  void load().catch((e) => (message.textContent = String((e as Error).message)));
  return () => timer !== undefined && clearInterval(timer);
}
