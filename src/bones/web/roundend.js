// The end of a round and of a match: every hand shown, how the points came about, the
// running score, and what comes next.

import { h } from "./dom.js";
import { forfeitLine } from "./fairplay.js";
import { spoken, t } from "./i18n.js";
import { tileSVG } from "./tiles.js";

const pipsOf = (tile) => tile.split("-").reduce((sum, n) => sum + Number(n), 0);

// What a hand left at the end counts; in Kozel a lone 0-0 is 25 and a lone 6-6 is 50.
function handValue(variant, hand) {
  if (variant === "kozel" && hand.length === 1 && (hand[0] === "0-0" || hand[0] === "6-6")) {
    return hand[0] === "0-0" ? 25 : 50;
  }
  return hand.reduce((sum, tile) => sum + pipsOf(tile), 0);
}

export function headline(screen, reveal) {
  const { result } = reveal;
  if (reveal.forfeit) return forfeitLine(screen, reveal.forfeit);
  const variant = screen.message.table.variant;
  const you = screen.message.you;
  const ours = you !== null && result.winner === (variant === "kozel" ? you % 2 : you);
  if (result.reason === "target") {
    return ours ? t("targetYou") : t("targetReached", { name: screen.sideName(result.winner) });
  }
  if (result.reason === "domino") return screen.say("domino", result.ended_by ?? result.winner);
  return variant === "kozel" ? t("fish") : t("blocked");
}

// Lines that say where this round's points came from.
function explain(screen, reveal) {
  const { result, hands } = reveal;
  if (!result) return [];  // a match given up: its round has no result
  const table = screen.message.table;
  const variant = table.variant;
  const lines = [];
  const sides = result.points.length;
  const sideHands = (side) => hands.filter((_, seat) => (variant === "kozel" ? seat % 2 : seat) === side);
  const sidePips = (side) => sideHands(side).reduce((sum, hand) => sum + handValue(variant, hand), 0);
  if (variant === "kozel") {
    if (result.winner === null) lines.push(t("eggsLaid", { n: result.eggs }));
    for (let side = 0; side < sides; side += 1) {
      const wrote = reveal.scores_after[side] - reveal.scores_before[side];
      if (result.points[side] || wrote) {
        const written = wrote === result.points[side] ? "" : ` → ${wrote}`;
        lines.push(`${t("penalty")} · ${screen.sideName(side)}: ${result.points[side]}${written}`);
        if (!wrote && reveal.scores_before[side] === 0) lines.push(t("rule13"));
      }
    }
    const spent = reveal.scores_after.reduce((a, b) => a + b, 0) - reveal.scores_before.reduce((a, b) => a + b, 0)
      - result.points.reduce((a, b) => a + b, 0);
    if (result.winner !== null && spent > 0) lines.push(t("eggsSpent", { n: spent }));
    return lines;
  }
  if (result.winner === null) lines.push(t("nobodyWon"));
  for (let side = 0; side < sides; side += 1) {
    if (!result.points[side] && side !== result.winner) continue;  // a winner's 0 is explained too
    const others = [...Array(sides).keys()].filter((s) => s !== side).reduce((sum, s) => sum + sidePips(s), 0);
    let why = String(result.points[side]);
    if (variant === "allfives" && result.reason === "domino" && others !== result.points[side]) {
      why = t("rounded", { n: others, m: result.points[side] });
    } else if (result.reason === "blocked" && others !== result.points[side]) {
      why = t("minusOwn", { others, own: sidePips(side) });
    } else if (!result.points[side] && !others) {
      why = t("noPipsLeft");
    }
    lines.push(`${t("roundPoints")} · ${screen.sideName(side)}: ${why}`);
  }
  if (variant === "allfives" && reveal.count_points.some(Boolean)) {
    lines.push(`${t("countPoints")}: ${reveal.count_points.map((n, s) => `${screen.seatName(s)} ${n}`).join(", ")}`);
  }
  return lines;
}

function matchLine(screen) {
  const table = screen.message.table;
  const lines = [];
  if (table.variant === "kozel" && table.loser !== null) {
    lines.push(h("p", { class: "goat" }, t("goat", { name: screen.sideName(table.loser) })));
  }
  const you = screen.message.you;
  const ours = you !== null && table.winner === (table.variant === "kozel" ? you % 2 : you);
  const won = table.variant === "kozel" ? t("winsYourPair") : t("winsYou");
  lines.push(h("p", { class: "winner" }, table.winner === null ? t("nobodyWon")
    : ours ? won : t("wins", { name: screen.sideName(table.winner) })));
  if (table.shutout) lines.push(h("p", {}, t("shutout")));
  lines.push(fairLine(screen.fair));
  return lines;
}

// Whether the deals played were the ones sealed before the match; nothing while checked.
export function fairLine(fair) {
  if (!fair || fair.pending) return null;
  return h("p", { id: "fair-check", class: fair.ok ? "fair ok" : "fair bad", dataset: { ok: fair.ok } },
    fair.ok ? t("fairOk", { n: fair.deals }) : t("fairBad", { problem: fair.problem }));
}

// "Play again" is an offer to everyone at the table: the new match begins when every
// player has accepted, and all of them are moved there. Spectators may follow.
function rematch(screen) {
  const { table, you } = screen.message;
  if (you === null) {
    // A private table's next match keeps its secret: the link's fragment goes along.
    const next = `/t/${table.next}${location.hash}`;
    return table.next ? [h("a", { href: next, class: "button primary", id: "watch-next",
      onclick: (e) => { e.preventDefault(); screen.go(next); } }, t("watchNext"))] : [];
  }
  const names = (seats) => seats.map((s) => screen.seatName(s)).join(", ");
  const humans = table.seats.map((s, n) => (s.kind === "human" ? n : null)).filter((n) => n !== null);
  if (table.rematch.includes(you)) {
    return [h("p", { class: "waiting-others", id: "rematch-waiting" },
      t("rematchWaiting", { names: names(humans.filter((n) => !table.rematch.includes(n))) }))];
  }
  const offered = table.rematch.filter((n) => n !== you);
  return [
    offered.length ? h("p", { class: "offer", id: "rematch-offer" }, t("rematchOffer", { names: names(offered) })) : null,
    h("button", { type: "button", class: "primary", id: "again",
                  onclick: () => screen.connection.send({ type: "rematch" }) },
      offered.length ? t("acceptRematch") : t("playAgain"))];
}

export function roundEnd(screen) {
  const { reveal, table, you } = screen.message;
  const over = table.status === "over";
  const ready = you !== null && table.ready.includes(you);
  const scores = h("table", { class: "score-table" },
    h("tr", {}, h("th", {}), h("th", {}, t("scoreBefore")), h("th", {}, t("scoreAfter"))),
    reveal.scores_after.map((after, side) => h("tr", {},
      h("th", {}, screen.sideName(side)), h("td", {}, String(reveal.scores_before[side])),
      h("td", { dataset: { side, score: after } }, String(after)))));
  const hands = h("div", { class: "reveal-hands" }, reveal.hands.map((hand, seat) => h("div", {
    class: "reveal-hand", dataset: { seat, hand: hand.join(" ") },
  }, h("span", { class: "name" }, screen.seatName(seat)),
    h("span", { class: "tiles" }, hand.map((tile) => tileSVG(tile, { label: spoken(tile) }))),
    h("span", { class: "value" }, t("handValue", { n: handValue(table.variant, hand) })))));
  const tournament = localStorage.getItem(`bones.tournament.${table.id}`);  // a game of one
  const actions = over
    ? [h("a", { href: `/replay/${table.id}`, class: "button", id: "to-replay" }, t("replay")),
      ...(tournament ? [h("a", { href: `/tournament/${tournament}`, class: "button primary",
                                 id: "back-to-tournament" }, t("tournament.back"))]
        : [h("a", { href: "/", class: "button", id: "new" }, t("newGame")), ...rematch(screen)])]
    : you === null ? [] : [ready
      ? h("p", { class: "waiting-others" }, t("waitingOthers"))
      : h("button", { type: "button", class: "primary", id: "ready",
                      onclick: () => screen.connection.send({ type: "ready" }) }, t("nextRound")),
    h("p", { id: "between-left", class: "between-left", "aria-live": "off" })];
  return h("div", { class: "overlay", id: over ? "match-over" : "round-end", role: "dialog", "aria-modal": "true",
                    "aria-labelledby": "round-end-title" },
    h("div", { class: "panel" },
      h("h2", { id: "round-end-title" }, over ? t("matchOver") : t("roundOver")),
      over ? matchLine(screen) : null,
      h("p", { class: "headline" }, headline(screen, reveal)),
      h("ul", { class: "explain" }, explain(screen, reveal).map((line) => h("li", {}, line))),
      h("h3", {}, t("hands")), hands,
      h("h3", {}, t("score")), scores,
      h("div", { class: "actions" }, actions)));
}
