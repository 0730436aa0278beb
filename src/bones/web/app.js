// bones in the browser: the header, the router, and the screens behind it.

import { accountScreen, confirmScreen, me, myGames, resetScreen, signIn } from "./account.js";
import { challengeScreen, listen } from "./challenges.js";
import { fill, h, pageLink } from "./dom.js";
import { newGame, joinScreen } from "./home.js";
import { LANGUAGES, lang, refusal, setLang, t } from "./i18n.js";
import { sounds } from "./feel.js";
import { api, readGame, seats, tableInPath } from "./net.js";
import { RULES } from "./rules.js";
import { LobbyScreen } from "./lobby.js";
import { moderationScreen } from "./moderation.js";
import { inboxDialog, showCount } from "./notifications.js";
import { PlayScreen } from "./play.js";
import { leaderboardScreen } from "./ratings.js";
import { ReplayScreen } from "./replay.js";
import { statsScreen } from "./stats.js";
import { TableScreen } from "./table.js";
import { TournamentScreen, boardsScreen, tournamentsScreen } from "./tournaments.js";

const main = document.querySelector("#app");
let screen = null;
let variants = null;
let routing = 0;  // routes begun: only the latest may draw its screen

// Each screen draws into an element of its own, put in the page as it opens: a screen
// whose answer comes after the player moved on (a fetch, a socket's push) draws into an
// element no longer on the page, never over the next screen.
function fresh() {
  const root = h("div", { class: "screen" }, h("p", { class: "loading" }, "…"));
  main.replaceChildren(root);
  return root;
}

function go(path) {
  history.pushState({}, "", path);
  route();
}

async function route() {
  const turn = ++routing;
  screen?.close?.();
  screen = null;
  variants ||= await api("/api/variants");
  // Another route began while this one waited (a click before signing in ended, say):
  // two screens would both draw, and the one left open would draw over the next.
  if (turn !== routing) return;
  const root = fresh();
  if (location.pathname === "/account") {
    return accountScreen(root, () => { header(); route(); });
  }
  if (location.pathname === "/leaderboard") return leaderboardScreen(root, go);
  if (location.pathname === "/mod") return moderationScreen(root, go);
  if (location.pathname === "/tournaments") return tournamentsScreen(root, go);
  const boards = location.pathname.match(/^\/tournament\/([\w-]+)\/boards$/);
  if (boards) return boardsScreen(root, boards[1], go);
  const tournament = location.pathname.match(/^\/tournament\/([\w-]+)$/);
  if (tournament) {
    screen = new TournamentScreen(root, tournament[1], go);
    return;
  }
  const challenge = location.pathname.match(/^\/challenge\/([\w-]+)$/);
  if (challenge) return challengeScreen(root, challenge[1], go);
  if (location.pathname === "/reset") return resetScreen(root, () => { header(); go("/"); });
  if (location.pathname === "/confirm") return confirmScreen(root);
  const pair = location.pathname.match(/^\/pair\/([\w-]+)$/);
  if (location.pathname === "/play" || pair) {
    screen = new PlayScreen(root, variants, go, pair?.[1]);
    return;
  }
  if (location.pathname === "/lobby") {
    screen = new LobbyScreen(root, go);
    return;
  }
  const stats = location.pathname.match(/^\/stats\/(.+)$/);
  if (stats) return statsScreen(root, decodeURIComponent(stats[1]), go, openUpload);
  const replay = location.pathname.match(/^\/replay\/([\w-]+)$/);
  if (replay) return openReplay(root, (graded) => readGame(replay[1], `analysis?graded=${graded}`));
  const tableId = tableInPath();
  if (!tableId) return newGame(root, variants, go);
  const seat = seats.get(tableId);
  const open = (token) => {
    screen = new TableScreen(root, tableId, token, { go });
  };
  // `?watch` (the lobby's links to games being played) opens it to watch, as a spectator.
  if (seat) open(seat.token);
  else if (new URLSearchParams(location.search).has("watch")) open(null);
  else joinScreen(root, tableId, go, () => open(null));
}

// The replay viewer opens at once on a stored game's positions; the grades (seconds of
// a worker's time) are filled in when they come. `analysis(graded)` asks the server.
async function openReplay(root, analysis) {
  let shown;
  try {
    shown = new ReplayScreen(root, await analysis(false));
  } catch (error) {
    root.replaceChildren(h("p", { class: "form-error", role: "alert" }, refusal(error)));
    return;
  }
  if (!root.isConnected) return;  // the player has moved on: the next screen is the screen
  screen = shown;
  if (shown.data.graded) return;
  try {
    const graded = await analysis(true);
    if (screen === shown) shown.graded(graded);
  } catch (error) {
    if (screen === shown) shown.ungraded(refusal(error));
  }
}

// A record file of one's own: graded by the server (any record can be sent, so it is
// always a job in the server's bounded queue), shown in the replay viewer.
function openUpload(record) {
  screen?.close?.();
  return openReplay(fresh(), () => api("/api/analysis", record));
}

function rulesDialog() {
  const dialog = document.querySelector("#rules");
  const texts = RULES[lang()];
  const section = (key, title) => h("section", {}, h("h3", {}, title),
    h("ul", {}, texts[key].map((line) => h("li", {}, line))));
  dialog.replaceChildren(h("div", { class: "panel" },
    h("h2", {}, t("rules")),
    section("common", "bones"),
    ["draw", "block", "kozel", "allfives"].map((v) => section(v, t(`variant.${v}`))),
    h("form", { method: "dialog" }, h("button", { class: "primary", id: "close-rules" }, t("close")))));
  dialog.showModal();
}

// Small line icons (24 x 24), drawn here: no icon font to load, and none missing.
const SPEAKER = "M4 9h4l5-4v14l-5-4H4z M16 9a4 4 0 0 1 0 6 M18.5 6.5a7.5 7.5 0 0 1 0 11";
const SPEAKER_OFF = "M4 9h4l5-4v14l-5-4H4z M16 9l5 6 M21 9l-5 6";
const BELL = "M6 17V11a6 6 0 0 1 12 0v6l2 2H4z M10 21h4";
const MENU = "M4 7h16 M4 12h16 M4 17h16";
const INBOX = "M4 13h4l2 3h4l2-3h4 M4 13l2.5-8h11l2.5 8v6H4z";

function icon(path) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "line-icon");
  const line = document.createElementNS("http://www.w3.org/2000/svg", "path");
  line.setAttribute("d", path);
  svg.append(line);
  return svg;
}

// A link of the top bar that opens its screen in place.
function navLink(path, id, words) {
  return pageLink(path, words, go, { id, class: "nav-link" });
}

// The top bar is one row at every width and in every language: the brand, Play now and,
// on a phone, a menu button; the rest is the menu, which a desktop shows in the row.
function header() {
  const top = document.querySelector("#top");
  const select = h("select", { id: "lang", "aria-label": t("language"), onchange: (e) => {
    setLang(e.target.value);
    header();
    if (screen?.message) screen.render(); else route();
  } }, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === lang() }, name)));
  const toggle = (open) => {
    top.classList.toggle("open", open);
    top.querySelector("#menu-button").setAttribute("aria-expanded", String(open));
  };
  const menu = h("div", { class: "menu", id: "menu", onclick: (e) => {
    if (e.target.closest("a, button")) toggle(false);  // a choice made closes the menu
  } },
    navLink("/lobby", "lobby-link", t("lobby")),
    navLink("/leaderboard", "leaderboard-link", t("leaderboard")),
    navLink("/tournaments", "tournaments-link", t("tournaments")),
    me() ? navLink(`/stats/${encodeURIComponent(me().name)}`, "my-games", t("myGames")) : null,
    me() ? navLink("/account", "account-link", me().guest ? t("signUp") : me().name) : null,
    me()?.roles?.includes("moderator") ? navLink("/mod", "mod-link", t("mod.title")) : null,
    me() ? h("button", { type: "button", id: "inbox-button", class: "icon inbox", "aria-label": t("inbox"),
                         title: t("inbox"), onclick: () => inboxDialog(go) },
      icon(INBOX), h("span", { class: "inbox-count", hidden: true }), h("span", { class: "menu-word" }, t("inbox")))
      : null,
    h("button", { type: "button", id: "rules-button", onclick: rulesDialog }, t("rules")),
    h("button", { type: "button", id: "mute", class: "icon", "aria-pressed": String(!sounds.muted()),
                  "aria-label": t("sound"), title: t("sound"),
                  onclick: () => { sounds.setMuted(!sounds.muted()); header(); } },
      icon(sounds.muted() ? SPEAKER_OFF : SPEAKER), h("span", { class: "menu-word" }, t("sound"))),
    "Notification" in window && Notification.permission === "default"
      ? h("button", { type: "button", id: "notify", class: "icon", "aria-label": t("notifyTurn"), title: t("notifyTurn"),
                      onclick: async () => { await Notification.requestPermission(); header(); } },
                      icon(BELL), h("span", { class: "menu-word" }, t("notifyTurn")))
      : null,
    select);
  if (me()) {  // the games in progress, from any device: a way back to them from every page
    myGames().then((games) => {
      if (games.length && !menu.querySelector("#games-now-link")) {
        menu.prepend(navLink("/", "games-now-link", t("gamesNowShort", { n: games.length })));
      }
    }).catch(() => {});
  }
  top.classList.remove("open");
  fill(top,
    pageLink("/", [h("span", { class: "logo", "aria-hidden": "true" }, "⚄"), "bones"], go, { class: "brand" }),
    h("span", { class: "tagline" }, t("tagline")),
    navLink("/play", "play-now-link", t("playNow")),
    h("button", { type: "button", id: "menu-button", class: "icon", "aria-expanded": "false",
                  "aria-controls": "menu", "aria-label": t("menu"), title: t("menu"),
                  onclick: () => toggle(!top.classList.contains("open")) }, icon(MENU)),
    menu);
  showCount();
}

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") document.querySelector("#top.open #menu-button")?.click();
});

if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});

setLang(lang());
header();
window.addEventListener("popstate", route);
// Offline (the page from the service worker's cache) nobody is signed in: the page opens.
signIn().catch(() => null).then(() => {
  header();
  route();
  if (me()) listen(go);  // challenges to this player, at once on every page
});
