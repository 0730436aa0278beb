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
  // `reach`: how far from the centre row the first run must go (past a spinner's arm).
  constructor(x, dir, turn, bound, reach) {
    Object.assign(this, { x, dir, turn, bound, need: Math.max(2.5, reach), y: 0,
                          running: false, rowStart: true, landing: false, lastDouble: false });
  }

  next(double) {
    if (this.running) return this.down(double);
    if (this.landing) {  // a double right after a turn stays in the run, crosswise
      if (double) return this.down(double);
      this.landing = false;
      this.y = this.vy + this.turn * 0.5;
      this.dir = -this.dir;
      this.rowStart = true;
    }
    const w = double ? 1 : 2;
    const over = this.dir > 0 ? this.x + w > this.bound : this.x - w < -this.bound;
    if (over && !this.rowStart) {
      this.running = true;
      this.column = this.x - this.dir * 0.5;
      this.vy = this.y + this.turn * (this.lastDouble ? 1 : 0.5);  // clear a crosswise double
      return this.down(double);
    }
    this.rowStart = false;
    this.lastDouble = double;
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
    if (Math.abs(this.vy - this.y) >= this.need) {  // the next row starts under (or over) it
      this.running = false;
      this.landing = true;
      this.need = 2.5;
    }
    return { ...box, flow: this.turn > 0 ? "down" : "up" };
  }
}

// Orient a tile in its box: `near` touches the tile before it in the chain.
function faces(near, far, flow) {
  return flow === "right" || flow === "down" ? [near, far] : [far, near];
}

const key = (p) => `${Math.max(...p)}-${Math.min(...p)}`;

function centreIndex(view) {
  const line = view.line;
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
  // the first row back must pass the arm and its open place, crosswise doubles included
  const right = new Chain(half, 1, 1, bound, downReach ? downReach + 1.5 : 0);
  const left = new Chain(-half, -1, -1, bound, upReach ? upReach + 1.5 : 0);
  // each tile notes `link`: the tile it touches on the way back to the centre
  const lay = (chain, run, near) => run.forEach((p, i) => {
    const t = pair(p);
    const b = chain.next(t.double);
    const [first, second] = near === "a" ? faces(t.a, t.b, b.flow) : faces(t.b, t.a, b.flow);
    tiles.push({ ...b, first, second, tile: p, link: i === 0 ? 0 : tiles.length - 1 });
  });
  lay(right, line.slice(c + 1), "a");
  lay(left, line.slice(0, c).reverse(), "b");
  const probe = (chain) => Object.assign(Object.create(Chain.prototype), chain).next(false);
  if ("right" in view.places) places.right = probe(right);
  if ("left" in view.places) places.left = probe(left);
  for (const [name, sign] of [["up", -1], ["down", 1]]) {
    if (!arms[name]) continue;
    let y = sign * 1;
    for (const [i, p] of arms[name].entries()) {
      const t = pair(p);
      const h = t.double ? 1 : 2;
      const top = sign > 0 ? y : y - h;
      const b = t.double ? { x: -1, y: top, w: 2, h: 1 } : { x: -0.5, y: top, w: 1, h: 2 };
      const [first, second] = sign > 0 ? [t.a, t.b] : [t.b, t.a];
      tiles.push({ ...b, first, second, tile: p, link: i === 0 ? 0 : tiles.length - 1 });
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

// Draw the board into `svg` (sized cw x ch px); `last` is the tile last placed.
export function drawBoard(svg, view, cw, ch,
                          { last = null, targets = [], onPlace = null, label = null, placeLabel = null } = {}) {
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
    if (label) {
      group.setAttribute("role", "img");
      group.setAttribute("aria-label", label(key(t.tile)));
    }
    if (key(t.tile) === last) group.classList.add("last");
    svg.appendChild(group);
  }
  for (const [name, b] of Object.entries(made.places)) {
    if (!targets.includes(name)) continue;
    const mark = el("rect", { x: b.x + 0.06, y: b.y + 0.06, width: b.w - 0.12, height: b.h - 0.12,
                              rx: 0.14, class: "place", tabindex: "0", role: "button" }, svg);
    mark.dataset.place = name;
    mark.setAttribute("aria-label", placeLabel ? placeLabel(name) : name);
    if (onPlace) {
      mark.addEventListener("click", () => onPlace(name));
      mark.addEventListener("keydown", (e) => { if (e.key === "Enter") onPlace(name); });
    }
  }
  return made;
}
