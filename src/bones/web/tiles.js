// Dominoes as SVG: a tile is 1 unit wide and 2 long, drawn upright with `top` above
// `bottom`, then turned. Pips sit on a 3x3 grid in each half.

const NS = "http://www.w3.org/2000/svg";

const PIPS = {
  0: [],
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
};

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// One half's pips, in a 1x1 square whose top-left is (0, y0).
function half(group, pips, y0) {
  for (const [col, row] of PIPS[pips]) {
    el("circle", { cx: 0.22 + col * 0.28, cy: y0 + 0.22 + row * 0.28, r: 0.085, class: "pip" }, group);
  }
}

// An upright tile at the origin (0..1 x 0..2): `top` pips above `bottom`.
export function tileGroup(top, bottom, { back = false } = {}) {
  const group = el("g", { class: back ? "domino back" : "domino" });
  el("rect", { x: 0.03, y: 0.03, width: 0.94, height: 1.94, rx: 0.14, class: "face" }, group);
  if (back) return group;
  el("line", { x1: 0.16, y1: 1, x2: 0.84, y2: 1, class: "divider" }, group);
  half(group, top, 0);
  half(group, bottom, 1);
  return group;
}

// A tile placed in a layout: its box (x, y, w, h) in units; a horizontal box shows
// `first` on the left, an upright one on top.
export function placedTile(first, second, box) {
  if (box.w > box.h) {  // rotate(90) turns the upright top to the right
    const group = tileGroup(second, first);
    group.setAttribute("transform", `translate(${box.x + 2} ${box.y}) rotate(90)`);
    return group;
  }
  const group = tileGroup(first, second);
  group.setAttribute("transform", `translate(${box.x} ${box.y})`);
  return group;
}

// A standalone upright tile as its own <svg>, for hands and reveals. With a `label` it
// is an image of that name; without, a picture that what holds it names (a tile's button,
// a hand's count), hidden from screen readers, which would say nothing of it.
export function tileSVG(text, { back = false, label = null } = {}) {
  const [a, b] = back ? [0, 0] : text.split("-").map(Number);
  const svg = el("svg", { viewBox: "0 0 1 2", class: "tile-svg",
                         ...(label ? { role: "img", "aria-label": label } : { "aria-hidden": "true" }) });
  if (label) el("title", {}, svg).textContent = label;
  svg.appendChild(tileGroup(a, b, { back }));
  return svg;
}
