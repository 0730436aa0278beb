// Tournaments in the browser: the list (running, upcoming, finished) with a form to make
// an arena, a Swiss or a duplicate; a tournament's page with its rules, its entrants,
// Join (in Kozel played in rounds naming a partner) and Withdraw, the standings (a
// Swiss's tiebreaks, a duplicate's matchpoints) and each round's pairings, pushed by
// its socket with the tournament's chat, and, while it runs, the player's own game, to which the page takes
// them as soon as the pairing seats them (and whose end leads back to the tournament, not
// to a rematch). A duplicate's boards have a page of their own: every table's result on
// each board side by side, each game's replay one tap away.

import { me } from "./account.js";
import { toTournamentGame } from "./challenges.js";
import { ChatBox } from "./chat.js";
import { fill, h, pageLink, radioPill } from "./dom.js";
import { gameWords, moment, refusal, t } from "./i18n.js";
import { api, Connection } from "./net.js";

const GAMES = ["draw", "block", "kozel", "allfives"];
const TARGETS = [50, 100, 150, null];
const MINUTES = [15, 30, 60, 90];
const SOON = [5, 15, 30, 60];
const KINDS = ["arena", "swiss", "duplicate"];
const ROUNDS = [3, 4, 5, 7];
const BOARDS = [1, 2, 4];
const PAGE = 100;  // rows of standings a page (the server's too)
const ASK = 10_000;  // ms between two asks for the player's game, should its push be lost

function about(info) {
  return [t(`tournament.kind.${info.kind}`), gameWords(info.table),
    info.minutes ? t("minutesN", { n: info.minutes }) : null,
    info.rounds ? t("tournament.roundsN", { n: info.rounds }) : null,
    info.boards ? t("tournament.boardsN", { n: info.boards }) : null].filter(Boolean).join(" · ");
}

const inPairs = (info) => info.kind !== "arena" && info.table.variant === "kozel";

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
        pageLink(`/tournament/${info.id}`, info.name, go, { class: "tournament-name" }),
        h("div", { class: "rules-line" }, about(info)),
        h("div", { class: "seats-line" }, `${moment(info.starts)} · ${t("tournament.entrantsN", { n: info.entrants.length })}`))))
      : h("p", {}, t("tournament.none"))];
  fill(root, h("section", { class: "lobby", id: "tournaments" },
    h("h1", {}, t("tournaments")),
    me() && !me().guest ? makeForm(go) : h("p", {}, t("tournament.signUp")),
    section("running", lists[0]), section("upcoming", lists[1]), section("finished", lists[2])));
}

function makeForm(go) {
  const select = (name, values, words, chosen) => h("select", { name },
    values.map((n) => h("option", { value: n, selected: n === chosen }, words(n))));
  const shown = () => {  // what the chosen format asks for
    const kind = form.elements.kind.value;
    form.querySelector("#tournament-length").hidden = kind !== "arena";
    form.querySelector("#tournament-rounds").hidden = kind === "arena";
    form.querySelector("#tournament-boards").hidden = kind !== "duplicate";
    form.querySelector("#tournament-target").hidden = kind === "duplicate";
  };
  const form = h("form", { class: "panel", id: "make-tournament" },
    h("h2", {}, t("tournament.make")),
    h("fieldset", { class: "choices" }, h("legend", {}, t("tournament.format")),
      KINDS.map((k, i) => radioPill("kind", k, t(`tournament.kind.${k}`), i === 0, shown))),
    h("label", { class: "name" }, t("tournament.name"),
      h("input", { name: "name", required: true, maxlength: 60, value: t("tournament.arenaName") })),
    h("fieldset", { class: "choices" }, h("legend", {}, t("game")),
      GAMES.map((v, i) => radioPill("variant", v, t(`variant.${v}`), i === 0))),
    h("fieldset", { class: "choices", id: "tournament-target" }, h("legend", {}, t("target")),
      TARGETS.map((n, i) => radioPill("target", n ?? "", n ? t("points", { n }) : t("singleRound"), i === 0))),
    h("label", { id: "tournament-length" }, t("tournament.length"), " ",
      select("minutes", MINUTES, (n) => t("minutesN", { n }), 30)),
    h("label", { id: "tournament-rounds", hidden: true }, t("tournament.rounds"), " ",
      select("rounds", ROUNDS, String, 4)),
    h("label", { id: "tournament-boards", hidden: true }, t("tournament.boards"), " ",
      select("boards", BOARDS, String, 2)),
    h("label", {}, t("tournament.startsIn"), " ",
      h("select", { name: "soon" }, SOON.map((n) => h("option", { value: n }, t("minutesN", { n }))))),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated" }), " ", t("rated")),
    h("p", { class: "form-error", role: "alert" }),
    h("button", { type: "submit", class: "primary", id: "make-arena" }, t("tournament.make")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = form.elements;
    const kind = f.kind.value;
    const players = f.variant.value === "kozel" ? 4 : 2;
    const starts = new Date(Date.now() + Number(f.soon.value) * 60_000).toISOString();
    const options = kind === "duplicate" ? {} : { target: f.target.value ? Number(f.target.value) : null };
    const length = kind === "arena" ? { minutes: Number(f.minutes.value) }
      : { rounds: Number(f.rounds.value), boards: kind === "duplicate" ? Number(f.boards.value) : null };
    try {
      const made = await api("/api/tournaments", {
        kind, name: f.name.value, starts, ...length,
        table: { variant: f.variant.value, rated: f.rated.checked, options,
                 seats: Array.from({ length: players }, () => ({ kind: "human" })) } });
      go(`/tournament/${made.id}`);
    } catch (error) {
      form.querySelector(".form-error").textContent = refusal(error);
    }
  });
  return form;
}

// One tournament's page, as its socket pushes it (with the tournament's chat); while it
// runs, the player's notice socket says when the pairing seats them (asked for too,
// every ten seconds, should that be lost).
export class TournamentScreen {
  constructor(root, id, go) {
    Object.assign(this, { root, id, go });
    this.chat = new ChatBox((text) => this.connection.send({ type: "chat", text }), t("chatTournament"),
      matchMedia("(min-width: 641px)").matches);
    this.connection = new Connection(`tournament/${id}`, null, {
      onTournament: (page) => this.show(page),
      onChat: (line) => this.chat.add(line),
      onError: (error) => this.chat.refused(refusal(error)),
      onEnd: (code) => (code === 4404
        ? fill(this.root, h("p", { class: "form-error", role: "alert" }, t("http.404")))
        : this.chat.refused(code === 4451 ? t("error.banned") : t("http.403"))),
    });
    this.asking = setInterval(() => this.seek(), ASK);
    this.paired = (event) => {
      if (event.detail.tournament !== this.id) return;
      event.preventDefault();  // taken here
      this.sit(event.detail);
    };
    window.addEventListener("bones:paired", this.paired);
  }

  close() {
    this.closed = true;
    clearInterval(this.asking);
    window.removeEventListener("bones:paired", this.paired);
    this.connection.close();
  }

  // Whether I am in it: the names come by REST (the page pushes only how many), asked
  // again whenever that number moves.
  async who(page) {
    if (page.entered === this.entered) return;
    this.entered = page.entered;
    const info = await api(`/api/tournaments/${this.id}`).catch(() => null);
    if (info) this.mine = Boolean(me() && info.entrants.includes(me().name));
  }

  // Seated by the pairing: to the table (once).
  async seek() {
    const info = this.page?.info;
    if (!info || info.state !== "running" || !this.mine) return;
    const game = await api(`/api/tournaments/${this.id}/game`).catch(() => null);
    if (game) this.sit(game);
  }

  // To the table the pairing seated me at (pushed on my notice socket, or asked for).
  sit(game) {
    if (this.closed || game.table === this.shown) return;
    this.shown = game.table;
    toTournamentGame(game, this.id, this.go);
  }

  // Drawn again only when something changed: a button redrawn under a finger loses its
  // tap.
  async show(page) {
    this.page = page;
    await this.who(page);
    if (page.info.kind === "arena" && page.info.state === "finished" && !this.games) {
      this.games = await api(`/api/tournaments/${this.id}/games`).catch(() => []);
    }
    if (this.closed) return;
    const seen = JSON.stringify([page, this.mine, this.offset, Boolean(this.games), me()?.name]);
    if (seen === this.seen) return;
    this.seen = seen;
    this.render(page.info, this.offset ? this.paged : page.standings, page.rounds, this.mine);
    this.seek();
  }

  async act(what) {
    const partner = this.root.querySelector("#partner")?.value.trim();
    try {
      await api(`/api/tournaments/${this.id}/${what}`, partner && what === "join" ? { partner } : {});
      const info = await api(`/api/tournaments/${this.id}`);  // at once, not at the next push
      this.entered = undefined;
      if (!this.closed) await this.show({ ...this.page, info, entered: info.entrants.length });
    } catch (error) {
      this.root.querySelector(".form-error").textContent = refusal(error);
    }
  }

  // Another page of a large field's standings (the pushed page holds the first).
  async turn(offset) {
    this.paged = offset ? await api(`/api/tournaments/${this.id}/standings?offset=${offset}&limit=${PAGE}`).catch(() => []) : null;
    this.offset = offset;
    await this.show(this.page);
  }

  pager() {
    const at = this.offset || 0;
    if (this.page.total <= PAGE) return null;
    return h("p", { class: "pager" },
      at > 0 ? h("button", { type: "button", id: "higher", onclick: () => this.turn(Math.max(0, at - PAGE)) }, t("tournament.higher")) : null,
      at + PAGE < this.page.total ? h("button", { type: "button", id: "lower", onclick: () => this.turn(at + PAGE) }, t("tournament.lower")) : null);
  }

  render(info, board, drawn, mine) {
    const ends = info.minutes ? new Date(new Date(info.starts).getTime() + info.minutes * 60_000).toISOString() : null;
    this.root.replaceChildren(this.chat.element, h("section", { class: "lobby", id: "tournament", dataset: { state: info.state } },
      h("h1", {}, info.name),
      h("p", { class: "rules-line" }, about(info)),
      h("p", { id: "tournament-when" }, info.kind === "arena" || info.state !== "running"
        ? t(`tournament.when.${info.state}${info.kind === "arena" ? "" : "Rounds"}`,
          { start: moment(info.starts), end: ends ? moment(ends) : "" })
        : t("tournament.roundOf", { n: info.round ?? 1, of: info.rounds })),
      h("p", {}, t(`tournament.rules.${info.kind}`)),
      info.commitment ? h("p", { class: "commitment" }, t("tournament.sealed"), " ",
        h("code", {}, info.commitment.slice(0, 16)), "…") : null,
      this.actions(info, mine, (what) => this.act(what)),
      h("p", { class: "form-error", role: "alert" }),
      info.state === "finished" && this.page.standings.length ? podium(this.page.standings) : null,
      h("h2", {}, t("tournament.standings")),
      board.length ? [standings(info, board, this.offset || 0), this.pager()] : h("p", {}, t("tournament.noEntrants")),
      drawn.length ? [h("h2", {}, t("tournament.pairings")), rounds(drawn, this.go)] : null,
      this.games?.length ? [h("h2", {}, t("tournament.gamesPlayed")), played(this.games, this.go)] : null,
      info.kind === "duplicate" && drawn.length ? h("p", {},
        pageLink(`/tournament/${info.id}/boards`, t("tournament.boardsLink"), this.go, { id: "boards-link" })) : null,
      info.kind === "duplicate" && info.state === "finished" ? h("p", {}, h("a", {
        href: `/api/tournaments/${info.id}/record`, download: `tournament-${info.id}.json` }, t("tournament.document"))) : null));
  }

  actions(info, mine, act) {
    const open = info.kind === "arena" || info.state === "upcoming";
    if (info.state === "finished" || !me() || (!mine && !open)) return null;
    return h("p", { class: "play-now-call" },
      mine ? h("button", { type: "button", id: "withdraw", onclick: () => act("withdraw") }, t("tournament.withdraw"))
        : [inPairs(info) ? h("label", {}, t("tournament.partner"), " ",
          h("input", { id: "partner", maxlength: 40, autocomplete: "off" })) : null,
        h("button", { type: "button", class: "primary", id: "join-tournament", onclick: () => act("join") }, t("tournament.join"))],
      mine && info.state === "running" ? h("span", { id: "waiting-pairing" }, t("tournament.waiting")) : null);
  }
}

function standings(info, board, offset) {
  const swiss = info.kind === "swiss";
  return h("table", { class: `standings ${info.kind}`, id: "standings" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t(inPairs(info) ? "tournament.pair" : "tournament.player")),
      h("th", { class: "sheet" }, t(info.kind === "duplicate" ? "tournament.boards" : "tournament.games")),
      h("th", {}, t(info.kind === "duplicate" ? "tournament.matchpoints" : "tournament.score")),
      swiss ? [h("th", { title: t("tournament.buchholz") }, t("tournament.bh")),
        h("th", { title: t("tournament.sonnebornBerger") }, t("tournament.sb"))] : null)),
    h("tbody", {}, board.map((row, n) => h("tr", { class: [row.on_fire ? "on-fire" : "", row.withdrawn ? "withdrawn" : ""].join(" ").trim() || null },
      h("td", {}, String(offset + n + 1)),
      h("td", {}, row.name, row.on_fire ? h("span", { class: "fire", title: t("tournament.onFire") }, " 🔥",
          h("span", { class: "sr-only" }, t("tournament.onFire"))) : null,
        row.playing ? h("small", {}, ` · ${t("tournament.playing")}`) : null,
        row.withdrawn ? h("small", {}, ` · ${t("tournament.withdrawn")}`) : null),
      h("td", { class: "sheet" }, row.sheet.map(points).join(" ")),
      h("td", {}, h("strong", {}, points(row.score))),
      swiss ? [h("td", {}, points(row.buchholz)), h("td", {}, points(row.sonneborn_berger))] : null))));
}

// The first three of a finished tournament, medals and all.
function podium(board) {
  return [h("h2", {}, t("tournament.podium")),
    h("ol", { class: "podium", id: "podium" }, board.slice(0, 3).map((row, n) =>
      h("li", { class: `place-${n + 1}` }, h("span", { "aria-hidden": "true" }, ["🥇", "🥈", "🥉"][n], " "),
        h("strong", {}, row.name), ` · ${points(row.score)}`)))];
}

// An arena's games, the latest first, each with its replay.
function played(games, go) {
  return h("ul", { class: "rounds", id: "tournament-games" }, games.map((g) =>
    h("li", {}, pageLink(`/replay/${g.id}`, `${g.names.join(", ")} · ${g.scores.join(" : ")}`, go))));
}

// ½ for half points, as chess writes them.
function points(n) {
  const whole = Math.floor(n);
  return n - whole === 0.5 ? `${whole || ""}½` : String(n);
}

function rounds(drawn, go) {
  return h("ol", { class: "rounds", id: "rounds" }, drawn.slice().reverse().map((r) =>
    h("li", { value: r.round }, h("strong", {}, t("tournament.roundN", { n: r.round })),
      h("ul", {}, r.tables.map((table) => h("li", {},
        `${table.sides[0]} – ${table.sides[1]}`,
        table.points ? ` ${points(table.points[0])} : ${points(table.points[1])}` : ` · ${t("tournament.playing")}`,
        table.tables.map((id, n) => [" ", pageLink(`/replay/${id}`, table.tables.length > 1 ? t("tournament.boardN", { n: n + 1 }) : t("tournament.replay"), go)]))),
      r.bye ? h("li", {}, t("tournament.bye", { name: r.bye })) : null))));
}

// A duplicate's boards: every table's result on each board side by side.
export async function boardsScreen(root, id, go) {
  let info, boards;
  try {
    [info, boards] = await Promise.all([api(`/api/tournaments/${id}`), api(`/api/tournaments/${id}/boards`)]);
  } catch (error) {
    fill(root, h("p", { class: "form-error", role: "alert" }, refusal(error)));
    return;
  }
  fill(root, h("section", { class: "lobby", id: "boards" },
    h("h1", {}, info.name),
    h("p", {}, pageLink(`/tournament/${id}`, t("tournament.back"), go)),
    h("p", {}, t("tournament.boardsAbout")),
    boards.length ? boards.map((b) => [
      h("h2", {}, `${t("tournament.roundN", { n: b.round })} · ${t("tournament.boardN", { n: b.board })}`),
      h("table", { class: "standings board-results" },
        h("thead", {}, h("tr", {}, h("th", {}, t("tournament.hands")),
          h("th", {}, t("tournament.result")), h("th", { title: t("tournament.matchpoints") }, t("tournament.mp")))),
        h("tbody", {}, b.results.map((r) => h("tr", {},
          h("td", {}, pageLink(`/replay/${r.table}`, `${r.sides[0]} – ${r.sides[1]}`, go, { title: t("tournament.replay") })),
          h("td", {}, r.result > 0 ? `+${r.result}` : String(r.result)),
          h("td", {}, `${r.matchpoints[0]} : ${r.matchpoints[1]}`)))))])
      : h("p", {}, t("tournament.noBoards"))));
}
