// The round's moves, in the player's language: who led, who played which tile at which
// end, who drew (how many, never which tile) and who passed. Beside the board on a wide
// screen; a sheet opened from its heading on a phone. Spectators have it too.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// The round's moves as rows: a lead, then each play, pass and run of draws.
export function moveRows(view) {
  // An automatic lead is no move of the history; a lead of the player's choice is.
  const rows = view.lead?.automatic ? [{ seat: view.lead.seat, kind: "lead", tile: view.lead.tile }] : [];
  for (const [seat, move] of view.history || []) {
    const last = rows[rows.length - 1];
    if (move === "draw" && last?.kind === "draw" && last.seat === seat) last.n += 1;
    else if (move === "draw") rows.push({ seat, kind: "draw", n: 1 });
    else if (move === "pass") rows.push({ seat, kind: "pass" });
    else {
      const [tile, place] = move.split(" ");
      rows.push(place ? { seat, kind: "play", tile, place } : { seat, kind: "lead", tile });
    }
  }
  return rows;
}

function rowText(screen, row) {
  const who = screen.seatName(row.seat);
  if (row.kind === "draw") return t("moveDrew", { name: who, n: row.n });
  if (row.kind === "pass") return t("movePassed", { name: who });
  if (row.kind === "lead") return t("moveLed", { name: who, tile: row.tile });
  return t("movePlayed", { name: who, tile: row.tile, where: t(`end.${row.place}`) });
}

export function moveList(screen) {
  const rows = moveRows(screen.message.view);
  const list = h("details", {
    class: "move-list", id: "move-list", open: screen.movesOpen ?? matchMedia("(min-width: 1000px)").matches,
    ontoggle: (event) => { screen.movesOpen = event.currentTarget.open; },
  }, h("summary", {}, t("movesN", { n: rows.length })),
  // A long list scrolls: focusable, so the keyboard scrolls it too.
  h("ol", { tabindex: "0", "aria-label": t("movesN", { n: rows.length }) }, rows.map((row) => h("li", { dataset: { seat: row.seat, kind: row.kind } }, rowText(screen, row)))));
  return list;
}
