/**
 * `luma ui`'s page: five views behind the hash (`#/`, `#/run/<id>`, `#/usage`,
 * `#/evals`, `#/threads/<id>`), plain TypeScript on the DOM — no framework, nothing fetched from
 * elsewhere. Each view returns its own clean-up (stops its polling) when another replaces it.
 */
import { h } from "./dom";
import { evalsView } from "./evals-view";
import { runsView } from "./runs-view";
import { runView } from "./run-view";
import { threadsView } from "./threads-view";
import { usageView } from "./usage-view";

const app = document.getElementById("app")!;
const main = h("main");
const nav = h("nav", {}, h("b", {}, "luma ui"), h("a", { href: "#/" }, "Runs"), h("a", { href: "#/usage" }, "Usage"), h("a", { href: "#/evals" }, "Evals"), h("a", { href: "#/threads" }, "Threads"));
app.replaceChildren(nav, main);

let stop: () => void = () => {};
const route = () => {
  stop();
  const hash = location.hash.replace(/^#/, "") || "/";
  const [, view, arg] = hash.split("/");
  const param = arg === undefined ? undefined : decodeURIComponent(hash.slice(view.length + 2));
  if (view === "run" && param !== undefined) stop = runView(main, param);
  else if (view === "usage") stop = usageView(main);
  else if (view === "evals") stop = evalsView(main);
  else if (view === "threads") stop = threadsView(main, param, (id) => (location.hash = `#/threads/${encodeURIComponent(id)}`));
  else stop = runsView(main, (id) => (location.hash = `#/run/${encodeURIComponent(id)}`));
  document.body.setAttribute("data-view", view || "runs");
};
window.addEventListener("hashchange", route);
route();
