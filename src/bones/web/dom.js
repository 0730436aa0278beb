// h("button", {class: "x", onclick: f}, "text", child): a small element builder.

import { t } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  return fill(node, ...children);
}

// A link to a page of the app: opened in place by `go(path)` (a new tab still opens it
// whole, as any link).
export function pageLink(path, words, go, attrs = {}) {
  return h("a", { href: path, ...attrs, onclick: (e) => { e.preventDefault(); go(path); } }, words);
}

// The node's children replaced by `children` (arrays, however nested, spread),
// skipping those that are null, undefined or false as h() does: the DOM's own
// replaceChildren would print "null".
export function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : String(c))));
  return node;
}

// A link to hand on: shown in a field to select (`id`, named `label` for screen readers)
// and a Copy button, which calls `copied()` once it is on the clipboard.
export function linkField(link, id, label, copied = () => {}) {
  return h("div", { class: "invite" },
    h("input", { readonly: true, value: link, id, "aria-label": label }),
    h("button", { type: "button", onclick: async () => {
      try { await navigator.clipboard.writeText(link); } catch { return; /* no clipboard: the link is shown */ }
      copied();
    } }, t("copyLink")));
}

// A radio button drawn as a pill: one of a row of choices named `name`.
export function radioPill(name, value, label, checked, onchange) {
  return h("label", { class: "pill" }, h("input", { type: "radio", name, value: String(value), checked, onchange }), label);
}

const SVG = "http://www.w3.org/2000/svg";

// A chart: an <svg> image 400 wide and `height` tall, titled `label`, and `add(name,
// attrs, text)`, which draws one more element in it.
export function chart(height, label, attrs = {}) {
  const svg = document.createElementNS(SVG, "svg");
  const all = { viewBox: `0 0 400 ${height}`, class: "stats-chart", role: "img", "aria-label": label, ...attrs };
  for (const [k, v] of Object.entries(all)) svg.setAttribute(k, v);
  const add = (name, a, text) => {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(a)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.appendChild(node);
    return node;
  };
  add("text", { x: 0, y: 14, class: "chart-title" }, label);
  return { svg, add };
}

// A modal dialog (`id`) around `form`: on submit `send()` runs, and what it throws is
// said in the form's .form-error by `explain(error)`. Closed, it is gone.
export function modal(id, form, send, explain) {
  const dialog = h("dialog", { class: "report-dialog", id });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await send();
    } catch (error) {
      form.querySelector(".form-error").textContent = explain(error);
    }
  });
  dialog.append(form);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}
