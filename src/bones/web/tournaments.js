// Tournaments in the browser: the list (running, upcoming, finished) with a form to make
// an arena; a tournament's page with its rules, its entrants, Join and Withdraw, the
// standings (asked again every few seconds) and, while it runs, the player's own game,
// to which the page takes them as soon as the pairing seats them (and whose end leads
// back to the tournament, not to a rematch).

import { me } from "./account.js";
import { fill, h, radioPill } from "./dom.js";
import { gameWords, moment, refusal, t } from "./i18n.js";
import { api, seats } from "./net.js";

const GAMES = ["draw", "block", "kozel", "allfives"];
const TARGETS = [50, 100, 150, null];
const MINUTES = [15, 30, 60, 90];
const SOON = [5, 15, 30, 60];
const ASK = 2000;  // ms between two asks for the standings and the player's game

function link(path, words, go, attrs = {}) {
  return h("a", { href: path, ...attrs, onclick: (e) => { e.preventDefault(); go(path); } }, words);
}

function about(info) {
  return [t(`tournament.kind.${info.kind}`), gameWords(info.table),
    info.minutes ? t("minutesN", { n: info.minutes }) : null].filter(Boolean).join(" · ");
}

// The list: running, upcoming and finished, and the form that makes an arena.
export async function tournamentsScreen(root, go) {
  let lists;
  try {
    lists = await Promise.all(["running", "upcoming", "finished"].map(
      (state) => api(`/api/tournaments?state=${state}`)));
  } catch (error) {
    fill(root, h("p", { class: "form-error", role: "alert" }, refusal(error)));
    return;
  }
  const section = (state, list) => [h("h2", {}, t(`tournament.${state}`)),
    list.length ? h("ul", { class: "lobby-list", id: `tournaments-${state}` }, list.map((info) =>
      h("li", { class: "lobby-table" },
        link(`/tournament/${info.id}`, info.name, go, { class: "tournament-name" }),
        h("div", { class: "rules-line" }, about(info)),
        h("div", { class: "seats-line" }, `${moment(info.starts)} · ${t("tournament.entrantsN", { n: info.entrants.length })}`))))
      : h("p", {}, t("tournament.none"))];
  fill(root, h("section", { class: "lobby", id: "tournaments" },
    h("h1", {}, t("tournaments")),
    me() && !me().guest ? makeForm(go) : h("p", {}, t("tournament.signUp")),
    section("running", lists[0]), section("upcoming", lists[1]), section("finished", lists[2])));
}

function makeForm(go) {
  const form = h("form", { class: "panel", id: "make-tournament" },
    h("h2", {}, t("tournament.make")),
    h("label", { class: "name" }, t("tournament.name"),
      h("input", { name: "name", required: true, maxlength: 60, value: t("tournament.arenaName") })),
    h("fieldset", { class: "choices" }, h("legend", {}, t("game")),
      GAMES.map((v, i) => radioPill("variant", v, t(`variant.${v}`), i === 0))),
    h("fieldset", { class: "choices" }, h("legend", {}, t("target")),
      TARGETS.map((n, i) => radioPill("target", n ?? "", n ? t("points", { n }) : t("singleRound"), i === 0))),
    h("label", {}, t("tournament.length"), " ",
      h("select", { name: "minutes" }, MINUTES.map((n) => h("option", { value: n, selected: n === 30 }, t("minutesN", { n }))))),
    h("label", {}, t("tournament.startsIn"), " ",
      h("select", { name: "soon" }, SOON.map((n) => h("option", { value: n }, t("minutesN", { n }))))),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated" }), " ", t("rated")),
    h("p", { class: "form-error", role: "alert" }),
    h("button", { type: "submit", class: "primary", id: "make-arena" }, t("tournament.make")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = form.elements;
    const players = f.variant.value === "kozel" ? 4 : 2;
    const starts = new Date(Date.now() + Number(f.soon.value) * 60_000).toISOString();
    try {
      const made = await api("/api/tournaments", {
        kind: "arena", name: f.name.value, minutes: Number(f.minutes.value), starts,
        table: { variant: f.variant.value, rated: f.rated.checked,
                 options: { target: f.target.value ? Number(f.target.value) : null },
                 seats: Array.from({ length: players }, () => ({ kind: "human" })) } });
      go(`/tournament/${made.id}`);
    } catch (error) {
      form.querySelector(".form-error").textContent = refusal(error);
    }
  });
  return form;
}

// One tournament's page, asked again every few seconds while it is open.
export class TournamentScreen {
  constructor(root, id, go) {
    Object.assign(this, { root, id, go });
    this.ask();
    this.asking = setInterval(() => this.ask(), ASK);
  }

  close() {
    this.closed = true;
    clearInterval(this.asking);
  }

  async ask() {
    let info, board;
    try {
      [info, board] = await Promise.all([api(`/api/tournaments/${this.id}`),
        api(`/api/tournaments/${this.id}/standings`)]);
    } catch (error) {
      if (!this.closed) fill(this.root, h("p", { class: "form-error", role: "alert" }, refusal(error)));
      return;
    }
    const mine = me() && info.entrants.includes(me().name);
    const game = mine && info.state === "running"
      ? await api(`/api/tournaments/${this.id}/game`).catch(() => null) : null;
    if (this.closed) return;
    if (game && game.table !== this.shown) {  // seated by the pairing: to the table
      this.shown = game.table;
      seats.set(game.table, game.seat, game.token);
      localStorage.setItem(`bones.tournament.${game.table}`, this.id);  // its way back
      this.go(`/t/${game.table}`);
      return;
    }
    // Drawn again only when something changed: a button redrawn under a finger loses
    // its tap.
    const seen = JSON.stringify([info, board, mine, me()?.name]);
    if (seen !== this.seen) {
      this.seen = seen;
      this.render(info, board, mine);
    }
  }

  render(info, board, mine) {
    const act = async (what) => {
      try {
        await api(`/api/tournaments/${this.id}/${what}`, {});
        await this.ask();
      } catch (error) {
        this.root.querySelector(".form-error").textContent = refusal(error);
      }
    };
    const ends = info.minutes ? new Date(new Date(info.starts).getTime() + info.minutes * 60_000).toISOString() : null;
    fill(this.root, h("section", { class: "lobby", id: "tournament", dataset: { state: info.state } },
      h("h1", {}, info.name),
      h("p", { class: "rules-line" }, about(info)),
      h("p", { id: "tournament-when" }, t(`tournament.when.${info.state}`,
        { start: moment(info.starts), end: ends ? moment(ends) : "" })),
      h("p", {}, t("tournament.rules")),
      info.state === "finished" || !me() ? null : h("p", { class: "play-now-call" },
        mine ? h("button", { type: "button", id: "withdraw", onclick: () => act("withdraw") }, t("tournament.withdraw"))
          : h("button", { type: "button", class: "primary", id: "join-tournament", onclick: () => act("join") }, t("tournament.join")),
        mine && info.state === "running" ? h("span", { id: "waiting-pairing" }, t("tournament.waiting")) : null),
      h("p", { class: "form-error", role: "alert" }),
      h("h2", {}, t("tournament.standings")),
      board.length ? h("table", { class: "standings", id: "standings" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("tournament.player")),
          h("th", {}, t("tournament.games")), h("th", {}, t("tournament.score")))),
        h("tbody", {}, board.map((row, n) => h("tr", { class: row.on_fire ? "on-fire" : null },
          h("td", {}, String(n + 1)),
          h("td", {}, row.name, row.on_fire ? h("span", { class: "fire", title: t("tournament.onFire") }, " 🔥",
              h("span", { class: "sr-only" }, t("tournament.onFire"))) : null,
            row.playing ? h("small", {}, ` · ${t("tournament.playing")}`) : null),
          h("td", { class: "sheet" }, row.sheet.join(" ")),
          h("td", {}, h("strong", {}, String(row.score)))))))
        : h("p", {}, t("tournament.noEntrants"))));
  }
}
