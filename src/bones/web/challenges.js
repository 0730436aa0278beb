// Challenges in the browser: challenge a player from their page (or make a link for
// anyone, from the lobby); a challenge to you shows at once on every page (and as a
// browser notification while the tab is hidden) to accept or decline; your challenge
// accepted takes you to the table; a challenge's link opens its own page. A rematch
// offered at a table you played shows on every other page. Each notice is also a line of
// the notifications list (notifications.js).

import { me, signIn } from "./account.js";
import { fill, h, linkField, modal, radioPill } from "./dom.js";
import { gameWords, playerName, refusal, t } from "./i18n.js";
import { notifyAway } from "./feel.js";
import { sanctionWords } from "./moderation.js";
import { api, Connection, seats, tableInPath } from "./net.js";
import { arrived, refreshInbox } from "./notifications.js";

const GAMES = ["draw", "block", "allfives"];
const TARGETS = [50, 100, 150, null];

// The table a challenge asks for: the challenger and the one challenged, one game.
function tableOf(form) {
  const target = form.elements.target.value;
  return { variant: form.elements.variant.value, options: { target: target ? Number(target) : null },
           rated: form.elements.rated.checked,
           seats: [{ kind: "human", me: true }, { kind: "human" }] };
}

// Sit at the table a challenge made, with the seat it gave.
function sit(seat, go) {
  seats.set(seat.table.id, seat.seat, seat.token, seat.invite);
  go(`/t/${seat.table.id}`);
}

// The dialog that challenges the player called `name` (none: makes a link).
export function challengeDialog(name, go) {
  let dialog = null;
  const form = h("form", { class: "panel" },
    h("h2", {}, name ? t("challenge.title", { name }) : t("challenge.linkTitle")),
    h("fieldset", { class: "choices" }, h("legend", {}, t("game")),
      GAMES.map((v, i) => radioPill("variant", v, t(`variant.${v}`), i === 0))),
    h("fieldset", { class: "choices" }, h("legend", {}, t("target")),
      TARGETS.map((n, i) => radioPill("target", n ?? "", n ? t("points", { n }) : t("singleRound"), i === 0))),
    me() && !me().guest ? h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated" }), " ", t("rated"))
      : h("input", { type: "hidden", name: "rated" }),
    h("p", { class: "form-error", role: "alert" }),
    h("div", { class: "dialog-buttons" },
      h("button", { type: "submit", class: "primary", id: "send-challenge" },
        name ? t("challenge.send") : t("challenge.makeLink")),
      h("button", { type: "button", onclick: () => dialog.close() }, t("cancel"))));
  dialog = modal("challenge-dialog", form, async () => {
    waitingFor(await api("/api/challenges", { name, table: tableOf(form) }), form, dialog, go);
  }, (error) => refusal(error));
}

// Sent: wait for the answer (the notice takes the challenger to the table), or take it back.
function waitingFor(made, form, dialog, go) {
  pending = made.id;
  fill(form, made.to ? h("p", { id: "challenge-sent" }, t("challenge.sent", { name: made.to }))
    : [h("p", { id: "challenge-sent" }, t("challenge.linkMade")),
      linkField(`${location.origin}${made.link}`, "challenge-link", t("challenge.link"))],
    h("p", {}, gameWords(made.table_spec)),
    h("div", { class: "dialog-buttons" }, h("button", { type: "button", onclick: async () => {
      await api(`/api/challenges/${made.id}`, undefined, "DELETE").catch(() => null);
      dialog.close();
    } }, t("cancel"))));
  closeSent = () => dialog.open && dialog.close();
  goTo = go;
}

let pending = null;
let closeSent = () => {};
let goTo = () => {};
let notices = null;

// The player's notice socket, kept open on every page: challenges to them shown in
// `#notice`, theirs answered.
export function listen(go) {
  notices?.close();
  goTo = go;
  notices = new Connection("me", null, {
    onNotice: (notice) => told(notice),
    onPaired: (game) => paired(game),
    onEnd: (code) => code === 4401 && signedOut(),
  });
  refreshInbox();
  // one made while this page was away: the newest still open to me
  api("/api/challenges").then((open) => {
    const mine = open.find((c) => c.to === me()?.name);
    if (mine) told({ kind: "challenge", challenge: mine });
  }).catch(() => null);
}

// This device was signed out (from another, or by a new password there): said at once,
// and the page is reloaded when the player asks, as whoever this browser is now.
function signedOut() {
  fill(document.querySelector("#notice"), h("span", { class: "said", id: "signed-out" }, t("signedOutHere")), " ",
    h("button", { type: "button", class: "primary", onclick: () => location.reload() }, t("reload")));
}

// A tournament's game begun for me: its page, if open, takes me there; from any other
// page of bones I go too (the arena pairs whoever has one open, and a game not played
// counts as missed), but from a table where I hold a seat I am asked, not taken away.
function paired(game) {
  const taken = !window.dispatchEvent(new CustomEvent("bones:paired", { detail: game, cancelable: true }));
  if (taken || location.pathname === `/t/${game.table}`) return;
  notifyAway(t("tournament.yourGame"), `tournament-${game.tournament}`);
  const at = tableInPath();
  if (!at || !seats.get(at)) {
    toTournamentGame(game, game.tournament, goTo);
    return;
  }
  ask(document.querySelector("#notice"), t("tournament.yourGame"), "open-tournament-game",
    () => toTournamentGame(game, game.tournament, goTo));
}

// A line of the notice bar, with Open (doing `open`) and Close.
function ask(bar, words, id, open) {
  fill(bar, h("span", { class: "said" }, words), " ",
    h("button", { type: "button", class: "primary", id, onclick: () => {
      fill(bar);
      open();
    } }, t("inbox.open")),
    h("button", { type: "button", onclick: () => fill(bar) }, t("close")));
}

// To the table a tournament's pairing seated me at, remembering the way back.
export function toTournamentGame(game, tournament, go) {
  seats.set(game.table, game.seat, game.token);
  localStorage.setItem(`bones.tournament.${game.table}`, tournament);
  go(`/t/${game.table}`);
}

function told({ kind, challenge, notification }) {
  const bar = document.querySelector("#notice");
  arrived(notification);
  if (kind === "sanction") {
    if (notification?.sanction) sanctioned(notification.sanction);
    return;
  }
  if (kind === "rematch" || kind === "tournament") {
    offered(bar, notification);
    return;
  }
  if (kind === "accepted" && challenge.seat) {
    closeSent();
    sit(challenge.seat, goTo);
    return;
  }
  if (kind === "challenge") {
    const words = `${t("challenge.from", { name: challenge.by })}: ${gameWords(challenge.table_spec)}`;
    notifyAway(words, `challenge-${challenge.id}`);
    fill(bar, h("span", { class: "said" }, words), " ",
      h("button", { type: "button", class: "primary", id: "accept-challenge", onclick: () => accept(challenge.id) },
        t("challenge.accept")),
      h("button", { type: "button", id: "decline-challenge", onclick: async () => {
        await api(`/api/challenges/${challenge.id}/decline`, {}).catch(() => null);
        fill(bar);
      } }, t("challenge.decline")));
    return;
  }
  if (challenge.id === pending) closeSent();
  fill(bar, h("span", {}, t(`challenge.${kind}`, { name: kind === "declined" ? challenge.to : challenge.by })), " ",
    h("button", { type: "button", onclick: () => fill(bar) }, t("close")));
}

// A moderator's sanction of me, on every open page at once: a dialog I must close, in my
// language (the reason is the moderator's words); it stays in my notifications.
function sanctioned(sanction) {
  const form = h("form", { class: "panel" },
    h("h2", {}, t("mod.yours")),
    h("p", { class: "said", id: "sanction-told" }, sanctionWords(sanction)),
    h("p", { class: "form-error", role: "alert" }),
    h("div", { class: "dialog-buttons" },
      h("button", { type: "submit", class: "primary", id: "sanction-seen" }, t("close"))));
  const dialog = modal("sanction-dialog", form, async () => dialog.close(), refusal);
  signIn().catch(() => null);  // what the account is under now: the home page and the chat box say it
}

// A rematch offered at a table this player played, or a tournament they joined starting:
// shown unless they are on its page (which shows it already).
function offered(bar, line) {
  if (!line) return;
  const path = line.tournament ? `/tournament/${line.tournament}` : `/t/${line.table}`;
  if (location.pathname === path) return;
  const words = line.tournament ? `${t("tournament.starting")}: ${gameWords(line.table_spec)}`
    : `${t("rematch.offeredBy", { name: playerName(line.by) })}: ${gameWords(line.table_spec)}`;
  notifyAway(words, line.tournament ? `tournament-${line.tournament}` : `rematch-${line.table}`);
  ask(bar, words, "open-rematch", () => goTo(path));
}

async function accept(id) {
  const bar = document.querySelector("#notice");
  try {
    const seat = await api(`/api/challenges/${id}/accept`, {});
    fill(bar);
    sit(seat, goTo);
  } catch (error) {
    fill(bar, h("span", {}, refusal(error, { 409: "challenge.gone" })), " ",
      h("button", { type: "button", onclick: () => fill(bar) }, t("close")));
  }
}

// A challenge's own page (`/challenge/{id}`): who challenges, the table, and Accept.
export async function challengeScreen(root, id, go) {
  let c;
  try {
    c = await api(`/api/challenges/${id}`);
  } catch (error) {
    root.replaceChildren(h("p", { class: "form-error", role: "alert" }, refusal(error)));
    return;
  }
  const open = c.state === "open" && c.by !== me()?.name;
  root.replaceChildren(h("section", { class: "account", id: "challenge" },
    h("h1", {}, c.to ? t("challenge.from", { name: c.by }) : t("challenge.open", { name: c.by })),
    h("p", {}, gameWords(c.table_spec)),
    h("p", { class: "form-error", role: "alert" }, open ? "" : t("challenge.gone")),
    open ? h("button", { type: "button", class: "primary", id: "accept-link", onclick: async () => {
      try {
        sit(await api(`/api/challenges/${id}/accept`, {}), go);
      } catch (error) {
        root.querySelector(".form-error").textContent = refusal(error, { 409: "challenge.gone" });
      }
    } }, t("challenge.accept")) : null));
}
