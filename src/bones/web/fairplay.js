// The table's own justice, as a player sees it: every seat's clock beside its name, a
// player who left marked with the time before a bot takes the seat (or before the
// others may claim a rated match), resigning with a confirming step, a rated table's
// ratings, and how a match given up ended. The server's clock is the truth: these
// count down from what it last said.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./net.js";

export const clockText = (seconds) =>
  `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

// Seconds since the last message, for counting down from what it said.
const since = (screen) => (performance.now() - screen.clockAt) / 1000;

// A seat's clock, beside its name (yours beside your turn's line, `id` "clock"): its
// move's time and its bank.
export function seatClock(screen, seat, id = null) {
  if (!screen.message.table.clock) return null;
  return h("span", { class: "clock seat-clock", id, dataset: { seat }, "aria-live": "off" });
}

// A player's rating at a rated table; a provisional one carries a "?" that says, when
// tapped, what it means.
export function ratingBadge(screen, seat) {
  const info = screen.message.table.seats[seat];
  if (!screen.message.table.rated || info.rating === null || info.rating === undefined) return null;
  return h("span", { class: "badge rating", dataset: { seat, rating: info.rating } }, String(info.rating),
    info.provisional ? h("button", { type: "button", class: "provisional", "aria-label": t("provisionalMeaning"),
      title: t("provisionalMeaning"), onclick: () => screen.flash(t("provisionalMeaning")) }, "?") : null);
}

// A player who is not here: how long before a bot takes the seat, or the win may be claimed.
export function absentBadge(screen, seat) {
  const { table } = screen.message;
  const left = table.absent?.[seat];
  if (left === null || left === undefined || table.seats[seat].replaced) return null;
  return h("span", { class: "badge absent", dataset: { seat } }, t("disconnected"));
}

// What the clocks and the absences say now: called four times a second.
export function tick(screen) {
  const { table, view } = screen.message;
  const gone = since(screen);
  const playing = table.status === "playing";
  for (const shown of screen.root.querySelectorAll(".seat-clock")) {
    const seat = Number(shown.dataset.seat);
    let move = table.clock;
    let bank = table.banks?.[seat] ?? table.bank;
    const running = playing && view.turn === seat && table.time_left;
    if (running) {  // after the pause, if the clocks stand still after an interruption
      const used = Math.max(0, gone - (table.paused ?? 0));
      move = Math.max(0, table.time_left[0] - used);
      bank = Math.max(0, table.time_left[1] - Math.max(0, used - table.time_left[0]));
    }
    shown.textContent = move > 0 || !running ? `${clockText(move)} (+${clockText(bank)})`
      : `${t("bank")} ${clockText(bank)}`;
    shown.dataset.move = move.toFixed(1);
    shown.dataset.bank = bank.toFixed(1);
    shown.classList.toggle("running", Boolean(running));
    shown.classList.toggle("low", Boolean(running) && move <= 5);
  }
  for (const shown of screen.root.querySelectorAll(".badge.absent")) {
    const left = Math.max(0, (table.absent[Number(shown.dataset.seat)] ?? 0) - gone);
    shown.textContent = left > 0 ? `${t("disconnected")} · ${t(table.rated ? "claimIn" : "botIn", { s: clockText(left) })}`
      : t(table.rated ? "mayClaim" : "disconnected");
  }
  const claim = screen.root.querySelector("#claim");
  if (claim) claim.hidden = !claimable(screen, gone);
  const between = screen.root.querySelector("#between-left");
  if (between && table.between_left !== null) {
    between.textContent = t("nextRoundIn", { s: clockText(Math.max(0, table.between_left - gone)) });
  }
}

// At a rated table: a player of the other side has been away long enough.
function claimable(screen, gone) {
  const { table, you } = screen.message;
  const side = (seat) => (table.variant === "kozel" ? seat % 2 : seat);
  return table.absent.some((left, seat) => left !== null && side(seat) !== side(you) && left - gone <= 0);
}

// Resign (with a step to confirm) and, at a rated table, claim: for a player at a table
// with another person, while a match is being played.
export function justiceButtons(screen) {
  const { table, you } = screen.message;
  const others = table.seats.some((s, n) => n !== you && s.kind === "human");
  if (you === null || !others || !["playing", "between"].includes(table.status)) return null;
  const claim = table.rated ? h("button", { type: "button", id: "claim", class: "primary", hidden: true,
    onclick: () => screen.connection.send({ type: "claim" }) }, t("claimWin")) : null;
  if (screen.resigning) {
    return h("span", { class: "resign-confirm", id: "resign-confirm", role: "group", "aria-label": t("resignSure") },
      h("span", {}, t("resignSure")),
      h("button", { type: "button", id: "resign-yes", class: "danger", onclick: () => {
        screen.resigning = false;
        screen.connection.send({ type: "resign" });
      } }, t("resign")),
      h("button", { type: "button", id: "resign-no", onclick: () => { screen.resigning = false; screen.render(); } },
        t("keepPlaying")));
  }
  return h("span", { class: "justice" }, claim,
    h("button", { type: "button", id: "resign", onclick: () => { screen.resigning = true; screen.render(); } },
      t("resign")));
}

// How a match given up ended, in a sentence: "Ann resigned", "You lost on time".
export function forfeitLine(screen, forfeit) {
  return screen.say(`forfeit.${forfeit.how}`, forfeit.seat);
}

// A move a bot made for a player who was away or out of time: everyone is told, the
// player too.
export function standIns(screen, actions) {
  const { table, you } = screen.message;
  const made = actions.find((a) => a.by);
  const kept = `bones.stood.${table.id}`;
  const stood = you === null ? 0 : table.seats[you].stood_in;
  const known = Number(localStorage.getItem(kept) || 0);
  if (stood !== known) localStorage.setItem(kept, String(stood));
  if (made) {
    const why = t(made.by === "clock" ? "outOfTime" : "wasAway");
    screen.flash(made.seat === you ? t("botPlayedForYou", { why })
      : t("botPlayedFor", { name: screen.seatName(made.seat), why }));
  } else if (stood > known) {  // back at the table: what was done for you meanwhile
    screen.flash(t("botPlayedWhileAway", { n: stood - known }));
  }
}

// The match-over dialog's line on ratings: each player's change, or why none moved.
export async function ratingChanges(screen) {
  const { table } = screen.message;
  if (!table.rated) return null;
  let moved;
  try {
    moved = await api(`/api/games/${table.id}/ratings`);
  } catch {
    return null;
  }
  if (moved.unrated || !moved.changes?.length) {
    return h("p", { id: "rating-changes", class: "unrated" }, t(`unrated.${moved.unrated || "aborted"}`));
  }
  return h("ul", { id: "rating-changes", class: "rating-changes" }, moved.changes.map((c) => {
    const delta = c.after - c.before;
    return h("li", { dataset: { seat: c.seat, before: c.before, after: c.after } },
      `${screen.seatName(c.seat)}: ${c.before} → ${c.after}${c.provisional ? "?" : ""} (${delta >= 0 ? "+" : ""}${delta})`);
  }));
}
