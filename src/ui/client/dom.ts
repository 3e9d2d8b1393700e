/**
 * The page's one DOM helper: `h("div.cls", { attrs }, children…)`. Text goes in as text
 * nodes (never as HTML), so nothing a run recorded — a tool's input, a model's message —
 * can become markup on the page.
 */
type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K | `${K}.${string}`, attrs: Record<string, string | ((e: Event) => void)> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name as K);
  if (classes.length > 0) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
    // Through the CSSOM: the page's CSP (style-src 'self') refuses inline style attributes.
    else if (k === "style") el.style.cssText = v;
    else el.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === "object" ? c : String(c));
  return el;
}

export const svg = (tag: string, attrs: Record<string, string | number>, ...children: (SVGElement | string)[]): SVGElement => {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
};

export const fmtMs = (ms: number | null): string => (ms === null ? "–" : ms < 1000 ? `${ms.toFixed(ms < 10 ? 1 : 0)} ms` : `${(ms / 1000).toFixed(1)} s`);
export const fmtTime = (ms: number | null): string => (ms === null || ms === 0 ? "–" : new Date(ms).toISOString().replace("T", " ").slice(0, 19));
export const fmtUsd = (v: number | null): string => (v === null ? "–" : `$${v.toFixed(v < 0.01 ? 6 : 4)}`);
export const pretty = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v, null, 2) ?? "null");
