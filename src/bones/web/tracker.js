// The tile tracker, an option a player turns on (players know it from the best sites):
// how many tiles carrying each number are still unseen, and the numbers each other
// player has shown they lack. It is the counting the rule pages advise, done for
// whoever wants it, from the seat's own view alone: what the engine's
// `PlayerView.unseen` and `lacks` hold.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "bones.tracker";

export const tracking = () => localStorage.getItem(KEY) === "1";
const setTracking = (on) => localStorage.setItem(KEY, on ? "1" : "0");

// For each number 0..6, the tiles carrying it that `view`'s seat has not seen: seven
// carry each number (its double once), less those in the hand and on the table.
function unseenByNumber(view) {
  const unseen = [7, 7, 7, 7, 7, 7, 7];
  const seen = [...(view.hand || []).map((tile) => tile.split("-").map(Number)), ...view.line,
    ...Object.values(view.arms || {}).flat()];
  for (const [a, b] of seen) {
    unseen[a] -= 1;
    if (b !== a) unseen[b] -= 1;
  }
  return unseen;
}

// The row under the board: each number and how many of its tiles are unseen; a number
// with none left is marked, since nobody else can follow it.
export function trackerRow(view) {
  return h("div", { id: "tracker", class: "tracker", role: "list", "aria-label": t("tracker") },
    unseenByNumber(view).map((n, number) => h("span", {
      class: `unseen ${n === 0 ? "gone" : ""}`, role: "listitem",
      dataset: { number, unseen: n }, title: t("unseenOf", { n, number }),
      "aria-label": t("unseenOf", { n, number }),
    }, h("b", {}, String(number)), `×${n}`)));
}

// Beside an opponent's name: the numbers they have shown they lack (they drew or passed
// while those were open).
export function lacksBadge(view, seat) {
  const numbers = view.lacks?.[seat] || [];
  return h("span", { class: `badge lacks ${numbers.length ? "" : "empty"}`,
                     dataset: { lacks: numbers.join(",") } },
    numbers.length ? t("lacks", { numbers: numbers.join(" · ") }) : "");
}

// The switch that shows or hides the tracker; `changed` redraws the table.
export function trackerToggle(changed) {
  const on = tracking();
  return h("button", { type: "button", id: "tracker-toggle", class: "tracker-toggle",
                       "aria-pressed": String(on),
                       onclick: () => { setTracking(!on); changed(); } }, t("tracker"));
}
