// The new-game screen and the invite screen.

import { me, myGames } from "./account.js";
import { fill, h, pageLink, radioPill } from "./dom.js";
import { clockText, moment, refusal, t } from "./i18n.js";
import { sanctionLine } from "./moderation.js";
import { api, seats } from "./net.js";
import { playNowLink } from "./play.js";

const VARIANTS = ["draw", "block", "kozel", "allfives"];

// Who takes the seat: the signed-in account (a guest's too), with a way to sign up (a
// guest's seat is this browser's; a member's follows them to any device).
function playingAs(go) {
  const account = me();
  if (!account) return null;
  return h("p", { class: "playing-as" }, t("playingAs", { name: account.name }), " ",
    account.guest ? [pageLink("/account", t("signUp"), go, { id: "sign-up-link" }),
      " ", h("small", { id: "keep-games" }, t("keepGames"))] : null);
}

// Who sits in a seat, as the player sees it from seat 0: an opponent (and where, at a
// table of three or four), or in Kozel the partner across.
const WHERE = { 3: ["", "left", "across"], 4: ["", "left", "across", "right"] };
function seatRole(variant, players, seat) {
  if (players === 2) return t("opponent");
  const where = t(`where.${WHERE[players][seat]}`);
  return variant === "kozel" && seat === 2 ? t("partnerAt", { where }) : t("opponentAt", { where });
}

// `go(path)` navigates; `variants` is GET /api/variants.
export function newGame(root, variants, go, preset = null) {
  const choice = preset || JSON.parse(localStorage.getItem("bones.lastGame") || "null") || {
    variant: "draw", players: 2, target: 100, levels: ["medium", "medium", "medium"],
    blocked_scoring: "others_minus_own", opening_every_round: false,
  };
  const form = h("form", { class: "new-game", id: "new-game" });
  const render = () => {
    const info = variants[choice.variant];
    if (!info.players.includes(choice.players)) choice.players = info.players[0];
    const levels = [...info.levels, "friend"];
    fill(form,
      playNowLink(go, "play-now-home", " ", h("small", {}, t("orPlayBots"))),
      h("h1", {}, t("newGame")),
      h("fieldset", { class: "variants" }, h("legend", {}, t("game")),
        VARIANTS.map((v) => h("label", { class: `variant ${choice.variant === v ? "chosen" : ""}` },
          h("input", { type: "radio", name: "variant", value: v, checked: choice.variant === v,
                       onchange: () => { choice.variant = v; render(); } }),
          h("strong", {}, t(`variant.${v}`)), h("small", {}, t(`about.${v}`))))),
      info.players.length > 1 ? h("fieldset", { class: "row" }, h("legend", {}, t("playerCount")),
        info.players.map((n) => radioPill("players", n, String(n), choice.players === n,
          () => { choice.players = n; render(); }))) : null,
      h("fieldset", { class: "seats" },
        h("legend", {}, t(choice.variant === "kozel" ? "seatsTitleKozel" : "seatsTitle")),
        Array.from({ length: choice.players - 1 }, (_, i) => {
          const seat = i + 1;
          return h("label", { class: "seat-choice" },
            h("span", {}, seatRole(choice.variant, choice.players, seat)),
            h("select", { name: `seat${seat}`, onchange: (e) => { choice.levels[i] = e.target.value; render(); } },
              levels.map((level) => h("option", { value: level, selected: (choice.levels[i] || "medium") === level },
                t(`level.${level}`)))));
        })),
      h("fieldset", { class: "row" }, h("legend", {}, t("target")),
        [50, 100, 150, null].map((n) => radioPill("target", n, n === null ? t("singleRound") : t("points", { n }),
          choice.target === n, () => { choice.target = n; }))),
      ["draw", "block"].includes(choice.variant) ? h("fieldset", { class: "options" },
        h("legend", {}, t("options")),
        h("select", { name: "blocked_scoring", "aria-label": t("blockedScoring"), onchange: (e) => { choice.blocked_scoring = e.target.value; } },
          ["others_minus_own", "others"].map((v) => h("option", { value: v, selected: choice.blocked_scoring === v },
            t(`blocked.${v}`)))),
        h("label", { class: "check" }, h("input", { type: "checkbox", name: "opening_every_round",
          checked: choice.opening_every_round, onchange: (e) => { choice.opening_every_round = e.target.checked; } }),
          t("openingEveryRound")),
        choice.variant === "block" && choice.players === 3 ? h("label", { class: "check" },
          h("input", { type: "checkbox", name: "seven", checked: choice.hand_size === 7,
                       onchange: (e) => { choice.hand_size = e.target.checked ? 7 : null; } }),
          t("sevenEach")) : null) : null,
      hasFriends(choice) ? h("label", { class: "clock-choice" }, t("timeControl"), " ",
        h("select", { name: "clock", onchange: (e) => { choice.clock = e.target.value; } },
          CLOCKS.map(([value, label]) => h("option", { value, selected: chosenClock(choice) === value }, label())))) : null,
      hasFriends(choice) ? h("label", { class: "check" }, h("input", { type: "checkbox", name: "public",
        checked: !!choice.public, onchange: (e) => { choice.public = e.target.checked; } }), t("publicTable")) : null,
      mayRate(choice) ? h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated",
        checked: !!choice.rated, onchange: (e) => { choice.rated = e.target.checked; } }), t("ratedGame")) : null,
      playingAs(go),
      h("p", { class: "form-error", role: "alert" }),
      h("button", { type: "submit", class: "primary", id: "start" }, t("start")),
    );
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    localStorage.setItem("bones.lastGame", JSON.stringify(choice));
    try {
      const made = await api("/api/tables", tableSpec(choice));
      seats.set(made.table.id, made.seat, made.token, made.invite);
      go(`/t/${made.table.id}`);
    } catch (error) {
      form.querySelector(".form-error").textContent = refusal(error);
    }
  });
  render();
  root.replaceChildren(sanctionsNow(), gamesNow(go), form);
}

// What moderators decided about me and still holds (a warning for its first days), with
// the reason and the end: on the home page until it ends.
function sanctionsNow() {
  const now = Date.now();
  const holding = (me()?.sanctions || []).filter((s) => !s.until || Date.parse(s.until) > now);
  const limited = me()?.limited && Date.parse(me().limited) > now;
  return holding.length || limited ? h("section", { class: "sanctions-now", id: "sanctions-now", role: "status" },
    h("h2", {}, t("mod.yours")), h("ul", { class: "sanctions" }, holding.map(sanctionLine),
      limited ? h("li", { id: "limited-here" }, t("error.limited"), ` (${t("mod.until", { when: moment(me().limited) })})`) : null)) : null;
}

// A seat as a list names it: its player, a bot's level, or a dash while it is free.
function seatWord(seat) {
  return seat.name || (seat.kind === "bot" ? t(`level.${seat.level}`) : "—");
}

// The player's games in progress, on any device they signed in on: each a link to its
// table with whose turn it is (GET /api/me/games); shown once there is one.
function gamesNow(go) {
  const section = h("section", { class: "games-now", id: "games-now", hidden: true });
  if (!me()) return section;
  myGames().then((games) => {
    if (!games.length) return;
    fill(section, h("h2", {}, t("gamesNow")), h("ul", {}, games.map((game) => {
      const others = game.seats.filter((s) => s.seat !== game.yours).map(seatWord);
      const state = game.status === "waiting" ? t("waiting") : game.turn === game.yours ? t("yourTurn")
        : game.turn === null ? "" : t("turnOf", { name: seatWord(game.seats[game.turn]) });
      return h("li", { class: game.turn === game.yours ? "turn" : "" },
        pageLink(`/t/${game.id}`, [t(`variant.${game.variant}`), " · ", others.join(", ")], go),
        " ", h("small", {}, state));
    })));
    section.hidden = false;
  }).catch(() => {});  // signed out meanwhile: nothing to show
  return section;
}

// Time controls for tables with people: seconds a move + a bank of seconds.
const CLOCKS = ["15+120", "30+300", "60+600"].map((value) => [value, () => clockText(...value.split("+").map(Number))]);
const chosenClock = (choice) => choice.clock ?? CLOCKS[0][0];
const otherSeats = (choice) => Array.from({ length: choice.players - 1 }, (_, i) => choice.levels[i] || "medium");
const hasFriends = (choice) => otherSeats(choice).includes("friend");

// A rated game is between people who signed up: every other seat is a friend's.
function mayRate(choice) {
  return otherSeats(choice).every((level) => level === "friend") && me() && !me().guest;
}

export function tableSpec(choice) {
  const options = { players: choice.players, target: choice.target };
  if (["draw", "block"].includes(choice.variant)) {
    options.blocked_scoring = choice.blocked_scoring;
    options.opening_every_round = choice.opening_every_round;
  }
  if (choice.variant === "block" && choice.players === 3 && choice.hand_size === 7) {
    options.hand_size = 7;
  }
  const others = otherSeats(choice).map((level) => (level === "friend" ? { kind: "human" } : { kind: "bot", level }));
  const rated = choice.rated && mayRate(choice) ? { rated: true } : {};
  const listed = choice.public && hasFriends(choice) ? { public: true } : {};
  const [clock, bank] = chosenClock(choice).split("+").map(Number);
  const timed = hasFriends(choice) ? { clock, bank } : {};
  return { variant: choice.variant, options, seats: [{ kind: "human", me: true }, ...others], ...rated, ...listed, ...timed };
}

// Someone opened an invite link without a seat's token here: take a free seat, or watch
// (`bare()`: the table opened without a token, as a spectator or in my account's seat).
export async function joinScreen(root, tableId, go, bare) {
  let info;
  try {
    info = await api(`/api/tables/${tableId}`);
  } catch {
    root.replaceChildren(h("section", { class: "join" }, h("p", {}, t("noTable")),
      h("a", { href: "/", class: "button" }, t("newGame"))));
    return;
  }
  if (info.yours != null) {  // my account sits here (from another device): the socket takes my seat
    bare();
    return;
  }
  const free = info.seats.some((s) => s.kind === "human" && !s.name);
  const form = h("form", { class: "join", id: "join" },
    h("h1", {}, t("joinTitle")),
    h("p", {}, `${t(`variant.${info.variant}`)} · ${info.seats.map(seatWord).join(", ")}`),
    free ? playingAs(go) : h("p", {}, t("full")),
    h("p", { class: "form-error", role: "alert" }),
    free ? h("button", { type: "submit", class: "primary" }, t("takeSeat")) : null,
    h("button", { type: "button", onclick: bare }, t("watch")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const invite = new URLSearchParams(location.hash.slice(1)).get("invite") || undefined;
      const joined = await api(`/api/tables/${tableId}/join`, { invite });
      seats.set(tableId, joined.seat, joined.token, joined.invite);
      go(`/t/${tableId}`);
    } catch (error) {
      form.querySelector(".form-error").textContent = refusal(error, { 403: "refused.seat", 409: "refused.seat" });
    }
  });
  root.replaceChildren(form);
}
