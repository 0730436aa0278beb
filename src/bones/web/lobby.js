// The lobby: public tables to join and games to watch, as the server pushes them.

import { me } from "./account.js";
import { challengeDialog } from "./challenges.js";
import { ChatBox } from "./chat.js";
import { h } from "./dom.js";
import { clockText, refusal, t } from "./i18n.js";
import { api, Connection, seats } from "./net.js";
import { playNowLink } from "./play.js";

// The rules in a few words: game, players, target, clock, options.
export function rulesLine(table) {
  const r = table.rules;
  const parts = [t(`variant.${table.variant}`), t("playersN", { n: r.players }),
    r.target === null ? t("singleRound") : t("points", { n: r.target })];
  if (table.clock) parts.push(clockText(table.clock, table.bank));
  if (r.blocked_scoring === "others" && ["draw", "block"].includes(table.variant)) parts.push(t("blocked.others"));
  if (r.opening_every_round) parts.push(t("openingEveryRound"));
  if (table.rated) parts.push(t("rated"));
  return parts.join(" · ");
}

function seatLine(table) {
  return table.seats.map((s) => {
    if (s.kind === "bot") return h("span", { class: "seat bot" }, t(`level.${s.level}`));
    if (!s.name) return h("span", { class: "seat free" }, t("freeSeat"));
    return h("span", { class: "seat" }, s.name, s.rating ? h("small", {}, ` ${s.rating}`) : null);
  });
}

export class LobbyScreen {
  constructor(root, go) {
    Object.assign(this, { root, go });
    // Open beside the list on a wide screen; on a phone a tap away, not over a third of it.
    this.chat = new ChatBox((text) => this.connection.send({ type: "chat", text }), t("chatLobby"),
      matchMedia("(min-width: 641px)").matches);
    this.connection = new Connection("lobby", null, {
      onLobby: (m) => this.render(m),
      onChat: (line) => this.chat.add(line),
      onError: (error) => this.chat.refused(refusal(error)),
      onEnd: (code) => this.chat.refused(code === 4451 ? t("error.banned") : t("http.403")),
    });
  }

  async join(table) {
    try {
      const joined = await api(`/api/tables/${table.id}/join`, {});
      seats.set(table.id, joined.seat, joined.token, joined.invite);
      this.go(`/t/${table.id}`);
    } catch (error) {
      this.root.querySelector(".form-error").textContent = refusal(error, { 403: "refused.seat", 409: "refused.seat" });
    }
  }

  // Someone here (or followed): their name, what they play, and their game to watch.
  person(p) {
    return h("li", { class: "person", dataset: { name: p.name } },
      h("span", { class: "name" }, p.name), p.rating ? h("small", {}, ` ${p.rating}`) : null, " ",
      p.online === false ? h("small", { class: "idle" }, t("follow.offline"))
        : p.playing ? h("span", { class: "badge" }, t(`variant.${p.variant}`)) : h("small", { class: "idle" }, t("notPlaying")),
      p.table ? h("a", { href: `/t/${p.table}?watch`, class: "watch-link", onclick: (e) => {
        e.preventDefault();
        this.go(`/t/${p.table}?watch`);
      } }, t("watch")) : null);
  }

  // The players I follow, online first: asked when the lobby opens and every 10 s
  // while it is open (who is here changes without a push for each of them).
  async friends() {
    if (!me() || me().guest) return null;
    if (!this.followed) {
      this.followed = await api("/api/follows").catch(() => []);
      if (this.closed) return null;  // the player moved on while it was asked
      this.asking ||= setInterval(async () => {
        this.followed = await api("/api/follows").catch(() => this.followed);
        if (this.last) this.render(this.last);
      }, 10_000);
    }
    return h("section", { class: "here", id: "friends" }, h("h2", {}, t("follow.title")),
      this.followed.length ? h("ul", { class: "people" }, this.followed.map((p) => this.person(p)))
        : h("p", {}, t("follow.none")));
  }

  // How many are here and play each game, and who (those playing first), pushed live.
  here(message) {
    const games = Object.entries(message.playing_by_game).map(([v, n]) => `${t(`variant.${v}`)} ${n}`);
    const person = (p) => this.person(p);
    return h("section", { class: "here", id: "here" },
      h("p", { id: "here-counts" }, t("onlineN", { n: message.online }),
        games.length ? ` · ${t("playingNow")}: ${games.join(", ")}` : ""),
      message.people.length ? h("details", { id: "people", open: this.peopleOpen || null,
                                              ontoggle: (e) => { this.peopleOpen = e.target.open; } },
        h("summary", {}, t("whoIsHere")),
        h("ul", { class: "people" }, message.people.map(person))) : null);
  }

  async render(message) {
    this.last = message;
    const turn = (this.turns = (this.turns ?? 0) + 1);
    const friends = await this.friends();
    if (turn !== this.turns) return;  // a newer list came while the follows were asked
    const row = (table, action) => h("li", { class: "lobby-table", dataset: { table: table.id } },
      h("div", { class: "rules-line" }, rulesLine(table)),
      h("div", { class: "seats-line" }, seatLine(table)),
      action);
    const mayJoin = (table) => !table.rated || (me() && !me().guest);
    this.root.replaceChildren(this.chat.element, h("section", { class: "lobby", id: "lobby" },
      h("h1", {}, t("lobby")),
      // The buttons first: who is here grows and shrinks as players come and go, and
      // must not move them under a finger or a pointer.
      playNowLink(this.go, "play-now-lobby", me() ? h("button", { type: "button", id: "make-challenge-link",
        onclick: () => challengeDialog(null, this.go) }, t("challenge.link")) : null),
      this.here(message),
      friends,
      h("p", { class: "form-error", role: "alert" }),
      h("h2", {}, t("openTables")),
      message.open.length ? h("ul", { class: "lobby-list", id: "open-tables" }, message.open.map((table) =>
        row(table, mayJoin(table) ? h("button", { type: "button", class: "primary join-button",
          onclick: () => this.join(table) }, t("takeSeat")) : h("small", {}, t("ratedSignUp")))))
        : h("p", {}, t("noOpenTables")),
      h("h2", {}, t("playingTables")),
      message.playing.length ? h("ul", { class: "lobby-list", id: "playing-tables" }, message.playing.map((table) =>
        row(table, h("button", { type: "button", class: "watch-button",
          onclick: () => this.go(`/t/${table.id}?watch`) }, t("watch")))))
        : h("p", {}, t("noGamesPlaying"))));
  }

  close() {
    this.closed = true;
    clearInterval(this.asking);
    this.connection.close();
  }
}
