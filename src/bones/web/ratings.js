// Ratings on show: a player's ratings and their history (a line per game and player
// count), and the leaderboard of a game.

import { chart, h, pageLink } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./net.js";

const VARIANTS = ["draw", "block", "kozel", "allfives"];
const COUNTS = { draw: [2, 3, 4], block: [2, 3, 4], kozel: [4], allfives: [2] };
const LINES = ["#24684f", "#b5542d", "#3f5fa8", "#8a6d1f", "#7a3f8f", "#2d8a8a"];

const shown = (r) => `${r.rating}${r.provisional ? "?" : ""}`;
const kind = (variant, players) => `${t(`variant.${variant}`)} · ${t("playersN", { n: players })}`;

export function ratingsTable(ratings) {
  return h("table", { class: "stats-table", id: "ratings-table" },
    h("thead", {}, h("tr", {}, h("th", {}), h("th", {}, t("colRating")), h("th", {}, t("colGames")))),
    h("tbody", {}, ratings.map((r) => h("tr", { dataset: { rating: `${r.variant}-${r.players}` } },
      h("th", {}, kind(r.variant, r.players)), h("td", {}, shown(r)), h("td", {}, String(r.games))))));
}

// One line per variant and player count: the rating it started from, then after each
// rated game.
export function historyChart(history) {
  const series = new Map();
  for (const point of history) {
    const key = `${point.variant}-${point.players}`;
    if (!series.has(key)) {
      series.set(key, { label: kind(point.variant, point.players), points: [point.before] });
    }
    series.get(key).points.push(point.rating);
  }
  const values = history.flatMap((p) => [p.before, p.rating]);
  const low = Math.min(...values) - 20;
  const high = Math.max(...values) + 20;
  const most = Math.max(2, ...[...series.values()].map((s) => s.points.length));
  const [left, top, width, height] = [44, 24, 340, 140];
  const { svg, add } = chart(top + height + 24 + 18 * series.size, t("ratingHistory"), { id: "rating-chart" });
  const x = (i) => left + (width * i) / (most - 1);
  const y = (rating) => top + height - (height * (rating - low)) / (high - low);
  for (const mark of [low + 20, high - 20]) {
    add("text", { x: left - 6, y: y(mark) + 4, class: "chart-label", "text-anchor": "end" }, String(Math.round(mark)));
    add("line", { x1: left, x2: left + width, y1: y(mark), y2: y(mark), class: "chart-grid" });
  }
  [...series.values()].forEach((s, n) => {
    const colour = LINES[n % LINES.length];
    const line = s.points.map((rating, i) => `${x(i)},${y(rating)}`).join(" ");
    add("polyline", { points: line, fill: "none", stroke: colour, "stroke-width": 2, class: "chart-line" });
    s.points.forEach((rating, i) => add("circle", { cx: x(i), cy: y(rating), r: 3, fill: colour }));
    const ly = top + height + 22 + 18 * n;
    add("rect", { x: left, y: ly - 9, width: 12, height: 4, fill: colour });
    add("text", { x: left + 18, y: ly, class: "chart-label" }, `${s.label}: ${s.points.at(-1)}`);
  });
  return svg;
}

export async function leaderboardScreen(root, go, choice = { variant: "draw", players: 2 }) {
  const rows = await api(`/api/leaderboard?variant=${choice.variant}&players=${choice.players}`);
  const pick = (variant, players) => leaderboardScreen(root, go, { variant, players });
  root.replaceChildren(h("section", { class: "stats", id: "leaderboard" },
    h("h1", {}, t("leaderboard")),
    h("p", { class: "row" }, VARIANTS.flatMap((v) => COUNTS[v].map((n) => h("button", {
      type: "button", class: `pill ${v === choice.variant && n === choice.players ? "chosen" : ""}`,
      "aria-pressed": String(v === choice.variant && n === choice.players),
      onclick: () => pick(v, n) }, kind(v, n))))),
    rows.length ? h("table", { class: "stats-table", id: "leaders" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("colPlayer")), h("th", {}, t("colRating")),
        h("th", {}, t("colGames")))),
      h("tbody", {}, rows.map((r, i) => h("tr", {},
        h("td", {}, String(i + 1)),
        h("td", {}, pageLink(`/stats/${encodeURIComponent(r.name)}`, r.name, go),
          r.bot ? h("small", { class: "badge" }, t("botAccount")) : null),
        h("td", {}, shown(r)), h("td", {}, String(r.games))))))
      : h("p", {}, t("noRatings")),
    h("p", { class: "aside", id: "leaders-who" }, t("leadersWho"))));
}
