// The line of play as a snake that always fits its box. Units: a tile is 1 x 2.
// The lead (or All Fives' spinner) sits at the centre; the right part of the line runs
// right and turns down at the edge, the left part runs left and turns up, each row
// running back the other way. Doubles lie crosswise. The spinner's arms grow up and
// down, and the rows that turn back pass beyond them.

import { el, placedTile } from "./tiles.js";

const pair = (p) => ({ a: p[0], b: p[1], double: p[0] === p[1] });

// A chain of tiles laid outward from the centre; `next(double)` returns the box of the
// next tile and moves on.
class Chain {
  constructor(x, dir, turn, bound, climb) {
    Object.assign(this, { x, dir, turn, bound, climb, y: 0, vertical: 0, rowStart: true });
  }

  next(double) {
    if (this.vertical > 0) return this.down(double);
    const w = double ? 1 : 2;
    const over = this.dir > 0 ? this.x + w > this.bound : this.x - w < -this.bound;
    if (over && !this.rowStart) {
      this.vertical = this.climb;
      this.column = this.x - this.dir * 0.5;
      this.vy = this.y + this.turn * 0.5;
      return this.down(double);
    }
    this.rowStart = false;
    const box = double
      ? { x: this.dir > 0 ? this.x : this.x - 1, y: this.y - 1, w: 1, h: 2 }
      : { x: this.dir > 0 ? this.x : this.x - 2, y: this.y - 0.5, w: 2, h: 1 };
    this.x += this.dir * w;
    return { ...box, flow: this.dir > 0 ? "right" : "left" };
  }

  down(double) {  // a tile of the run that joins one row to the next
    const h = double ? 1 : 2;
    const top = this.turn > 0 ? this.vy : this.vy - h;
    const box = double
      ? { x: this.column - 1, y: top, w: 2, h: 1 }
      : { x: this.column - 0.5, y: top, w: 1, h: 2 };
    this.vy += this.turn * h;
    this.vertical -= 1;
    if (this.vertical === 0) {  // the next row starts under (or over) the run
      this.y = this.vy + this.turn * 0.5;
      this.dir = -this.dir;
      this.rowStart = true;
    }
    return { ...box, flow: this.turn > 0 ? "down" : "up" };
  }
}

// Orient a tile in its box: `near` touches the tile before it in the chain.
function faces(tile, near, far, flow) {
  return flow === "right" || flow === "down" ? [near, far] : [far, near];
}

function centreIndex(view) {
  const line = view.line;
  const key = (p) => `${Math.max(...p)}-${Math.min(...p)}`;
  const wanted = view.spinner ?? view.lead?.tile;
  const index = line.findIndex((p) => key(p) === wanted);
  return index >= 0 ? index : 0;
}

function armLength(arm) {
  return arm.reduce((sum, p) => sum + (p[0] === p[1] ? 1 : 2), 0);
}

// Every tile's box and every open place's box, for a row width of `width` units.
export function layout(view, width) {
  const tiles = [];
  const places = {};
  const line = view.line;
  if (line.length === 0) {
    places.lead = { x: -1, y: -0.5, w: 2, h: 1 };
    return { tiles, places };
  }
  const c = centreIndex(view);
  const centre = pair(line[c]);
  const half = centre.double ? 0.5 : 1;
  const box = centre.double ? { x: -0.5, y: -1, w: 1, h: 2 } : { x: -1, y: -0.5, w: 2, h: 1 };
  tiles.push({ ...box, first: centre.a, second: centre.b, tile: line[c] });
  const arms = view.arms || {};
  const reach = (arm, open) => (arm ? armLength(arm) + (open ? 2 : 0) : 0);
  const upReach = reach(arms.up, "up" in view.places);
  const downReach = reach(arms.down, "down" in view.places);
  const bound = Math.max(width / 2, half + 2);
  const climb = (extent) => Math.max(1, Math.ceil((extent + 1) / 2));
  const right = new Chain(half, 1, 1, bound, climb(downReach));
  const left = new Chain(-half, -1, -1, bound, climb(upReach));
  for (const p of line.slice(c + 1)) {
    const t = pair(p);
    const b = right.next(t.double);
    const [first, second] = faces(t, t.a, t.b, b.flow);
    tiles.push({ ...b, first, second, tile: p });
  }
  for (const p of line.slice(0, c).reverse()) {
    const t = pair(p);
    const b = left.next(t.double);
    const [first, second] = faces(t, t.b, t.a, b.flow);
    tiles.push({ ...b, first, second, tile: p });
  }
  const probe = (chain) => Object.assign(Object.create(Chain.prototype), chain).next(false);
  if ("right" in view.places) places.right = probe(right);
  if ("left" in view.places) places.left = probe(left);
  for (const [name, sign] of [["up", -1], ["down", 1]]) {
    if (!arms[name]) continue;
    let y = sign * 1;
    for (const p of arms[name]) {
      const t = pair(p);
      const h = t.double ? 1 : 2;
      const top = sign > 0 ? y : y - h;
      const b = t.double ? { x: -1, y: top, w: 2, h: 1 } : { x: -0.5, y: top, w: 1, h: 2 };
      const [first, second] = sign > 0 ? [t.a, t.b] : [t.b, t.a];
      tiles.push({ ...b, first, second, tile: p });
      y += sign * h;
    }
    if (name in view.places) places[name] = { x: -0.5, y: sign > 0 ? y : y - 2, w: 1, h: 2 };
  }
  return { tiles, places };
}

function bounds(boxes) {
  const xs = boxes.flatMap((b) => [b.x, b.x + b.w]);
  const ys = boxes.flatMap((b) => [b.y, b.y + b.h]);
  return { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs),
           h: Math.max(...ys) - Math.min(...ys) };
}

// The row width that shows the tiles largest in a box of cw x ch pixels.
export function bestLayout(view, cw, ch, maxUnit = 30) {
  let best = null;  // widest first: of equally large layouts, the one that turns least
  for (let width = 48; width >= 8; width -= 2) {
    const made = layout(view, width);
    const box = bounds([...made.tiles, ...Object.values(made.places)]);
    const unit = Math.min(cw / (box.w + 1), ch / (box.h + 1), maxUnit);
    if (!best || unit > best.unit + 1e-9) best = { ...made, box, unit };
  }
  return best;
}

const key = (p) => `${Math.max(...p)}-${Math.min(...p)}`;

// Draw the board into `svg` (sized cw x ch px); `last` is the tile last placed.
export function drawBoard(svg, view, cw, ch, { last = null, targets = [], onPlace = null } = {}) {
  const made = bestLayout(view, cw, ch, cw < 600 ? 24 : 36);
  const { box, unit } = made;
  const vw = cw / unit;
  const vh = ch / unit;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  svg.setAttribute("viewBox", `${cx - vw / 2} ${cy - vh / 2} ${vw} ${vh}`);
  svg.replaceChildren();
  for (const t of made.tiles) {
    const group = placedTile(t.first, t.second, t);
    group.dataset.tile = key(t.tile);
    if (key(t.tile) === last) group.classList.add("last");
    svg.appendChild(group);
  }
  for (const [name, b] of Object.entries(made.places)) {
    if (!targets.includes(name)) continue;
    const mark = el("rect", { x: b.x + 0.06, y: b.y + 0.06, width: b.w - 0.12, height: b.h - 0.12,
                              rx: 0.14, class: "place", tabindex: "0", role: "button" }, svg);
    mark.dataset.place = name;
    mark.setAttribute("aria-label", name);
    if (onPlace) {
      mark.addEventListener("click", () => onPlace(name));
      mark.addEventListener("keydown", (e) => { if (e.key === "Enter") onPlace(name); });
    }
  }
  return made;
}
