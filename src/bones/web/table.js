// The table: your hand at the bottom, the others around, the line of play in the middle.
// It draws what the server sends (the seat's view) and offers the legal moves, nothing more.

import { drawBoard } from "./board.js";
import { ChatBox } from "./chat.js";
import { h, linkField } from "./dom.js";
import { verifyRecord } from "./fair.js";
import { absentBadge, justiceButtons, ratingBadge, ratingChanges, seatClock, standIns, tick } from "./fairplay.js";
import { slideIn, sounds, tellTurn } from "./feel.js";
import { expected, moveText, refusal, spoken, t } from "./i18n.js";
import { rulesLine } from "./lobby.js";
import { api, Connection, readGame, seats } from "./net.js";
import { fairLine, headline, roundEnd } from "./roundend.js";
import { tileSVG } from "./tiles.js";
import { moveList } from "./movelist.js";
import { lacksBadge, trackerRow, trackerToggle, tracking } from "./tracker.js";

const POSITIONS = { 2: ["me", "across"], 3: ["me", "left", "across"], 4: ["me", "left", "across", "right"] };
const tileOf = (move) => move.split(" ")[0];

// All Fives: what each open end adds to the count, so the numbers shown add up to the
// sum shown — a double at an end both halves ("6+6"), a lone lead both halves, the
// spinner's up and down sides once a tile lies there (RULES.md, counting the ends).
function countedEnds(view) {
  const line = view.line || [];
  const arms = Object.values(view.arms || {}).filter((arm) => arm.length);
  if (!line.length) return [];
  const both = ([a, b]) => `${a}+${b}`;
  if (line.length === 1 && !arms.length) return [both(line[0])];
  const end = (tile, open) => (tile[0] === tile[1] ? both(tile) : String(open));
  const first = line[0];
  const last = line[line.length - 1];
  return [end(first, first[0]), end(last, last[1]), ...arms.map((arm) => end(arm[arm.length - 1], arm[arm.length - 1][1]))];
}

export class TableScreen {
  constructor(root, tableId, token, { go }) {
    Object.assign(this, { root, tableId, go });
    this.message = null;
    this.selected = null;
    this.focus = 0;
    this.bubbles = {};
    this.online = false;
    this.root.replaceChildren(h("p", { class: "loading" }, "…"));
    this.chat = new ChatBox((text) => this.connection.send({ type: "chat", text }),
      t(token ? "chatPlayers" : "chatSpectators"));
    this.connection = new Connection(tableId, token, {
      onState: (message) => this.receive(message),
      onError: (error) => (["not_signed_in", "flood", "muted", "not_allowed"].includes(error.code)
        ? this.chat.refused(refusal(error)) : this.flash(t("error", { message: refusal(error) }))),
      onStatus: (online) => {  // a new connection may count from lower (a restarted server)
        this.online = online;
        this.resync ||= online;
        this.renderStatus();
      },
      onEnd: (code) => {  // the server will not have this socket back: say why, for good
        this.elsewhere = code === 4409;  // the seat moved to another device: it may come back
        this.ended = code === 4451 ? t("error.banned") : code === 4404 ? t("http.404")
          : this.elsewhere ? t("elsewhere") : t("http.403");
        if (this.message) this.renderStatus();
        else this.root.replaceChildren(h("p", { class: "form-error", role: "alert", id: "ended" }, this.ended));
      },
      onHint: (hint) => this.showHint(hint),
      onChat: (line) => this.chat.add(line),
      onRematch: (seat) => {  // every player accepted: our seat at the new table
        seats.set(seat.table, seat.seat, seat.token, seat.invite);
        this.go(`/t/${seat.table}`);
      },
    });
    this.resize = new ResizeObserver(() => this.drawBoard());
    this.keys = (event) => this.key(event);
    document.addEventListener("keydown", this.keys);
    this.seen = () => tellTurn(false, "", tableId);  // back on the tab: the title is plain again
    document.addEventListener("visibilitychange", this.seen);
    this.ticking = setInterval(() => this.showClock(), 250);
  }

  // Every seat's clock and every absence, counted down from what the server last said
  // (its clock is the truth): fairplay.js.
  showClock() {
    if (this.message && this.message.table.status !== "waiting") tick(this);
  }

  close() {
    this.closed = true;  // timers and replies still on their way must not draw any more
    clearInterval(this.ticking);
    for (const bubble of Object.values(this.bubbles)) clearTimeout(bubble.timer);
    this.connection.close();
    this.resize.disconnect();
    document.removeEventListener("keydown", this.keys);
    document.removeEventListener("visibilitychange", this.seen);
    document.title = "bones";
  }

  // -- receiving -----------------------------------------------------------------------

  receive(message) {
    const before = this.message;
    if (before && !this.resync && message.table.seq < before.table.seq) return;
    this.resync = false;
    this.message = message;
    this.clockAt = performance.now();
    const sealed = `bones.fair.${this.tableId}`;
    if (!localStorage.getItem(sealed)) localStorage.setItem(sealed, message.table.fair);
    if (message.table.status === "over" && !this.fair) this.checkDeals();
    if (!message.view.legal_moves?.some((m) => tileOf(m) === this.selected)) this.selected = null;
    if (before?.view?.history?.length !== message.view.history?.length) this.hint = null;
    this.bubble(message.actions, message.you);
    const room = t(message.you !== null ? "chatPlayers" : "chatSpectators");  // a member's
    if (room !== this.chat.room) Object.assign(this.chat, { room }).render();  // seat by account
    const turnBegins = !this.wasMyTurn;
    this.render();
    standIns(this, message.actions);
    this.announce(before);
    this.feel(before, turnBegins && this.wasMyTurn);
    this.interrupted(before);
  }

  // The table was read back on the server mid-game (a restart, a failover, an upgrade):
  // said once, to a page that saw it before or that came while the clocks still stand.
  interrupted(before) {
    const { interrupted, paused, status } = this.message.table;
    if (interrupted && interrupted !== before?.table.interrupted && status !== "over"
        && (before || paused !== null)) this.flash(t("interrupted"));
  }

  // Sounds, the placed tile's slide, and the tab's title (feel.js).
  feel(before, turnBegins) {
    const { actions, you, reveal, table } = this.message;
    const placed = [...actions].reverse().find((a) => a.move !== "draw" && a.move !== "pass");
    if (placed) {
      sounds.play("place");
      const n = table.rules.players;
      const where = POSITIONS[n][(placed.seat - (you ?? 0) + n) % n];
      const [dx, dy] = { me: [0, 4], left: [-4, 0], across: [0, -4], right: [4, 0] }[where];
      slideIn(this.root.querySelector(".board .last"), dx, dy);
    }
    if (actions.some((a) => a.seat === you && a.move === "draw")) sounds.play("draw");
    if (reveal && !before?.reveal) sounds.play("end");
    if (turnBegins) sounds.play("turn");
    tellTurn(this.wasMyTurn, t("yourTurn"), this.tableId, turnBegins);
  }

  bubble(actions, you) {
    const bySeat = {};
    for (const action of actions) {
      const entry = (bySeat[action.seat] ||= { draws: 0, passed: false, drawn: [] });
      if (action.move === "draw") { entry.draws += 1; if (action.tile) entry.drawn.push(action.tile); }
      if (action.move === "pass") entry.passed = true;
    }
    for (const [seat, entry] of Object.entries(bySeat)) {
      const mine = (key) => (Number(seat) === you && t(`${key}You`) !== `${key}You` ? `${key}You` : key);
      const words = [entry.draws ? t(mine("drew"), { n: entry.draws }) : null,
        entry.passed ? t(mine("passed")) : null].filter(Boolean).join(", ");
      if (!words) continue;
      clearTimeout(this.bubbles[seat]?.timer);
      const timer = setTimeout(() => {  // the bubble alone goes: a redrawn hand would drop a tap
        delete this.bubbles[seat];
        this.root.querySelector(`.bubble[data-seat="${seat}"]`)?.remove();
      }, 2600);
      this.bubbles[seat] = { words, timer };
      if (Number(seat) === you) this.fresh = new Set(entry.drawn);
    }
  }

  // Everything that happened, for screen readers: each move, draw, pass and score, the
  // round's end, then whose turn it is and the open ends.
  announce(before) {
    const { view, table, reveal } = this.message;
    if (!view?.history) return;
    const said = [];
    const actions = this.message.actions;
    for (let i = 0; i < actions.length; i += 1) {
      const { seat, move } = actions[i];
      if (move === "draw") {
        let n = 1;
        while (actions[i + 1]?.seat === seat && actions[i + 1]?.move === "draw") { n += 1; i += 1; }
        said.push(this.say("saidDrew", seat, { n }));
      } else if (move === "pass") {
        said.push(this.say("saidPassed", seat));
      } else {
        const [tile, place] = move.split(" ");
        said.push(place ? this.say("saidPlay", seat, { tile: spoken(tile), place: t(`place.${place}`) })
          : this.say("saidLead", seat, { tile: spoken(tile) }));
      }
    }
    if (before?.view?.count_points && table.status === "playing") {
      view.count_points.forEach((n, seat) => {
        const gained = n - (before.view.count_points[seat] ?? 0);
        if (gained > 0) said.push(this.say("saidScore", seat, { n: gained }));
      });
    }
    if (reveal && !before?.reveal) {
      const scores = reveal.scores_after.map((n, side) => `${this.sideName(side)} ${n}`).join(", ");
      said.push(t("saidRound", { headline: headline(this, reveal), scores }));
    }
    if (table.status === "playing" && view.turn !== null
        && (before?.view?.turn !== view.turn || actions.length)) {
      const ends = view.ends.length ? view.ends.join(", ") : t("none");
      said.push(view.turn === this.message.you ? t("announceTurn", { ends })
        : t("announceWait", { name: this.seatName(view.turn), ends }));
    }
    if (said.length) document.querySelector("#announce").textContent = said.join(" ");
  }

  showHint(hint) {
    const others = Object.entries(hint.values).filter(([move]) => move !== hint.move).map(([, v]) => v);
    const line = others.length
      ? t("hintLine", { move: moveText(hint.move), points: expected(hint.expected), next: expected(Math.max(...others)) })
      : t("hintOnly", { move: moveText(hint.move), points: expected(hint.expected) });
    this.hint = { move: hint.move, line };
    this.render();
  }

  // Games against bots only: one human at the table, and it is you.
  assisted() {
    const { table, you } = this.message;
    return you !== null && table.seats.filter((s) => s.kind === "human").length === 1;
  }

  // Once the game is over: are the deals played the ones sealed before it began?
  async checkDeals() {
    this.fair = { pending: true };
    try {
      const record = await readGame(this.tableId, "record");
      this.fair = await verifyRecord(record, localStorage.getItem(`bones.fair.${this.tableId}`));
    } catch (error) {
      this.fair = { ok: false, problem: String(error) };
    }
    // Its line alone is added: a whole redraw as the panel appears would drop a click
    // on the panel's buttons (replay, new game, play again).
    if (!this.closed) this.root.querySelector("#match-over .headline")?.before(fairLine(this.fair));
    this.ratings = await ratingChanges(this);
    if (!this.closed && this.ratings) this.root.querySelector("#match-over .headline")?.after(this.ratings);
  }

  flash(text) {
    const note = this.root.querySelector("#note");
    if (!note) return;
    note.textContent = text;
    note.classList.add("show");
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => note.classList.remove("show"), 3000);
  }

  // -- names ---------------------------------------------------------------------------

  // A sentence about a seat: the "you" form where it is this player ("You drew", not "You drews").
  say(key, seat, params = {}) {
    const own = seat === this.message.you && t(`${key}You`, params) !== `${key}You`;
    return own ? t(`${key}You`, params) : t(key, { name: this.seatName(seat), ...params });
  }

  seatName(seat) {
    const info = this.message.table.seats[seat];
    if (seat === this.message.you) return t("you");
    if (info.kind === "bot") return t("bot", { n: seat + 1 });
    return info.name || "…";
  }

  sideName(side) {
    const table = this.message.table;
    if (table.variant === "kozel") return t("pair", { a: this.seatName(side), b: this.seatName(side + 2) });
    return this.seatName(side);
  }

  // -- drawing -------------------------------------------------------------------------

  render() {
    if (this.closed) return;
    const { table, view, you } = this.message;
    if (table.status === "waiting") return this.renderWaiting();
    const focus = this.focused();  // before the chat box moves into the new section
    const n = table.rules.players;
    const me = you ?? 0;
    const section = h("section", {
      id: "table", class: `table players-${n} ${table.variant}`,
      dataset: { status: table.status, round: table.round, moves: view.history.length,
                 turn: view.turn ?? "", you: you ?? "", variant: table.variant },
    });
    section.append(this.scoreBar());
    for (let r = 1; r < n; r += 1) section.append(this.opponent((me + r) % n, POSITIONS[n][r]));
    section.append(this.centre());
    section.append(this.mine(me));
    section.append(h("div", { id: "note", class: "note", role: "status" }));
    if (this.message.reveal) section.append(roundEnd(this));
    const myTurnNow = table.status === "playing" && view.turn === you && you !== null;
    this.root.replaceChildren(section, this.chat.element);
    this.resize.disconnect();
    this.resize.observe(section.querySelector(".board-wrap"));
    this.drawBoard();
    section.querySelector("#move-list ol")?.scrollTo(0, 1e6);  // the newest move in view
    this.renderStatus();
    this.showClock();  // a new clock must not blink empty until the next tick
    this.refocus(focus, myTurnNow && !this.wasMyTurn);
    this.wasMyTurn = myTurnNow;
  }

  // Where the keyboard was, so a redraw does not lose it.
  focused() {
    const active = document.activeElement;
    if (!active || active === document.body) return { free: true };
    if (!this.root.contains(active)) return { outside: true };  // the top bar, the rules
    if (active.closest(".overlay")) return { overlay: active.id || null };
    if (active.closest(".hand")) return { hand: true };
    if (active.dataset?.place) return { place: active.dataset.place };
    return { id: active.id || null };
  }

  // The keyboard never falls to the page: on your turn it is on your hand, at a round's
  // end on the dialog's main button, and once the dialog closes back on the table.
  refocus(focus, turnBegins) {
    if (focus.outside) return;
    const overlay = this.root.querySelector(".overlay");
    if (overlay) {
      const kept = focus.overlay && overlay.querySelector(`#${focus.overlay}`);
      const main = overlay.querySelector("#ready, #again, #watch-next");
      const panel = overlay.querySelector(".panel");
      panel.setAttribute("tabindex", "-1");
      return (kept || main || panel).focus();
    }
    const place = focus.place && this.root.querySelector(`.place[data-place="${focus.place}"]`);
    if (place) return place.focus();
    const kept = focus.id && this.root.querySelector(`#${focus.id}`);
    if (kept && !kept.disabled && !turnBegins) return kept.focus();
    const hand = [...this.root.querySelectorAll(".hand .tile")];
    if (!hand.length) {  // a spectator: the table itself
      const table = this.root.querySelector("#table");
      table?.setAttribute("tabindex", "-1");
      return table?.focus();
    }
    if (turnBegins) {
      const legal = hand.findIndex((b) => b.dataset.legal === "true");
      this.focus = legal >= 0 ? legal : this.focus;
    }
    this.focus = Math.min(this.focus, hand.length - 1);
    hand.forEach((b, i) => b.setAttribute("tabindex", i === this.focus ? "0" : "-1"));
    hand[this.focus].focus();
  }

  renderWaiting() {
    const table = this.message.table;
    this.root.replaceChildren(h("section", { id: "table", class: "waiting", dataset: { status: "waiting" } },
      h("h1", {}, t(`variant.${table.variant}`)),
      h("p", { class: "rules-line" }, rulesLine(table)),
      h("p", {}, t("waiting")),
      h("p", { id: "listed" }, t(table.public ? "listed" : "notListed")),
      h("ul", { class: "seat-list" }, table.seats.map((s, i) => h("li", {},
        `${t("seat", { n: i + 1 })}: ${s.kind === "bot" ? t(`level.${s.level}`) : s.name || "—"}`))),
      this.inviteButton(),
      // a seat taken by the account (no token here: another device's) is left from where it was taken
      seats.get(this.tableId)?.token ? h("button", { type: "button", id: "leave", onclick: () => this.leave() },
        t("leaveTable")) : null));
  }

  // Stand up before the game begins: the seat is free for someone else.
  async leave() {
    try {
      await api(`/api/tables/${this.tableId}/leave`, { token: seats.get(this.tableId).token });
      localStorage.removeItem(`bones.seat.${this.tableId}`);
      this.go("/lobby");
    } catch (error) {
      this.flash(refusal(error));
    }
  }

  inviteButton() {
    const link = `${location.origin}${seats.get(this.tableId)?.invite || `/t/${this.tableId}`}`;
    return linkField(link, "invite-link", t("invite"), () => this.flash(t("copied")));
  }

  scoreBar() {
    const table = this.message.table;
    const sides = table.scores.map((score, side) => h("span", {
      class: "score", dataset: { side, score },
    }, h("b", {}, this.sideName(side)), " ", String(score)));
    const target = table.rules.target === null ? t("singleRound") : t("points", { n: table.rules.target });
    const free = table.seats.some((s) => s.kind === "human" && !s.name);
    return h("header", { class: "scorebar" },
      h("span", { class: "game-name" }, t(`variant.${table.variant}`)),
      h("span", { class: "round" }, t("round", { n: table.round + 1 })),
      table.rated ? h("span", { class: "badge rated", id: "rated" }, t("ratedBadge")) : null,
      h("span", { class: "target" }, `${t("target")}: ${target}`),
      h("span", { class: "scores" }, sides),
      table.eggs ? h("span", { class: "eggs" }, t("eggsNow", { n: table.eggs })) : null,
      h("span", { class: "seal", id: "seal", title: t("fairCommit", { hash: table.fair }) },
        `${t("sealed")} ${table.fair.slice(0, 10)}`),
      free ? this.inviteButton() : null,
      h("span", { class: "online", id: "online" }));
  }

  opponent(seat, where) {
    const { table, view } = this.message;
    const count = view.hand_counts[seat];
    const info = table.seats[seat];
    const fan = h("div", { class: "fan" },
      Array.from({ length: Math.min(count, 10) }, () => tileSVG("", { back: true })));
    return h("div", {
      class: `opponent ${where} ${view.turn === seat ? "turn" : ""}`,
      dataset: { seat, count },
    },
    h("div", { class: "who" }, h("span", { class: "name", title: this.seatName(seat) }, this.seatName(seat)),
      ratingBadge(this, seat),
      info.kind === "bot" ? h("span", { class: "badge" }, t(`level.${info.level}`)) : null,
      info.replaced ? h("span", { class: "badge" }, t("away")) : null,
      absentBadge(this, seat), seatClock(this, seat),
      table.rules.variant === "kozel" && seat % 2 === (this.message.you ?? 0) % 2
        ? h("span", { class: "badge partner" }, t("partner")) : null),
    tracking() ? lacksBadge(view, seat) : null,
    fan, h("span", { class: "count" }, h("span", { class: "words" }, t("tiles", { n: count })),
      h("span", { class: "figure", "aria-hidden": "true" }, String(count))),
    this.bubbles[seat] ? h("span", { class: "bubble", dataset: { seat } }, this.bubbles[seat].words) : null);
  }

  centre() {
    const view = this.message.view;
    const rules = this.message.table.rules;
    const info = h("div", { class: "board-info" });
    if (["draw", "allfives"].includes(rules.variant)) {
      info.append(h("span", { class: "boneyard", dataset: { boneyard: view.boneyard_count } },
        tileSVG("", { back: true }), `${t("boneyard")}: ${view.boneyard_count}`));
    }
    const shown = rules.variant === "allfives" ? countedEnds(view) : view.ends.map(String);
    info.append(h("span", { class: "ends", dataset: { ends: view.ends.join(","), counted: shown.join(" ") } },
      `${t("ends")}: ${shown.length ? shown.join(" · ") : t("none")}`));
    if (rules.variant === "allfives" && view.count !== null) {
      const scores = view.count > 0 && view.count % 5 === 0;
      info.append(h("span", { class: `sum ${scores ? "scoring" : ""}`, dataset: { count: view.count } },
        t("sum", { n: view.count })));
    }
    info.append(trackerToggle(() => this.render()));
    return h("div", { class: "centre" }, h("div", { class: "board-wrap" },
      document.createElementNS("http://www.w3.org/2000/svg", "svg")), info,
      tracking() ? trackerRow(view) : null, moveList(this));
  }

  mine(me) {
    const { view, you } = this.message;
    const myTurn = view.turn === you && you !== null && this.message.table.status === "playing";
    const legal = new Set((view.legal_moves || []).map(tileOf));
    const hand = h("div", { class: "hand", role: "toolbar", "aria-label": t("yourHand") },
      you === null ? Array.from({ length: view.hand_counts[me] }, () => tileSVG("", { back: true }))
        : view.hand.map((tile, i) => {
          const playable = myTurn && legal.has(tile);
          const button = h("button", {
            type: "button",
            class: `tile ${playable ? "legal" : "dim"} ${this.selected === tile ? "selected" : ""} ${this.fresh?.has(tile) ? "fresh" : ""} ${this.hint && tileOf(this.hint.move) === tile ? "hinted" : ""}`,
            dataset: { tile, legal: playable, places: playable ? this.placesFor(tile).join(" ") : "" },
            tabindex: i === this.focus ? "0" : "-1",
            "aria-label": spoken(tile),
            "aria-disabled": !playable,
          }, tileSVG(tile));
          button.addEventListener("pointerdown", (e) => this.pointerDown(e, tile, playable));
          button.addEventListener("focus", () => { this.focus = i; });
          return button;
        }));
    const mineInRound = view.history.some(([seat, move]) => seat === you && move !== "draw" && move !== "pass");
    const assists = this.assisted() && this.message.table.status === "playing" ? h("span", { class: "assists" },
      h("button", { type: "button", id: "hint", disabled: !myTurn,
                    onclick: () => this.connection.send({ type: "hint" }) }, t("hint")),
      h("button", { type: "button", id: "undo", disabled: !mineInRound,
                    onclick: () => this.connection.send({ type: "undo" }) }, t("undo"))) : null;
    return h("div", { class: `mine ${myTurn ? "turn" : ""}` },
      h("div", { class: "status-line" },
        h("span", { id: "status", class: "status" }),
        // a spectator's bottom seat is someone's: named, so its clock is seen as theirs
        you === null ? h("span", { id: "bottom-name", class: "name" }, this.seatName(me)) : null,
        seatClock(this, me, "clock"), ratingBadge(this, me),
        this.bubbles[me] ? h("span", { class: "bubble", dataset: { seat: me } }, this.bubbles[me].words) : null,
        assists, justiceButtons(this)),
      this.hint ? h("p", { id: "hint-line", class: "hint-line", role: "status" }, this.hint.line) : null,
      hand);
  }

  renderStatus() {
    if (this.closed) return;
    const status = this.root.querySelector("#status");
    const online = this.root.querySelector("#online");
    if (online) online.textContent = this.ended ?? (this.online ? "" : t("reconnecting"));
    // Away from the server, no tile looks playable: a move would go nowhere.
    this.root.querySelector("#table")?.classList.toggle("offline", !this.online);
    if (!status || !this.message) return;
    const { view, you, table } = this.message;
    let text = "";
    if (this.ended) text = this.ended;
    else if (!this.online) text = t("reconnecting");
    else if (you === null) text = t("spectating");
    else if (table.status !== "playing") text = "";
    else if (this.selected) text = t("chooseEnd", { tile: this.selected });
    else if (view.turn === you) text = t("yourTurn");
    else if (view.turn !== null) text = t("turnOf", { name: this.seatName(view.turn) });
    status.textContent = text;
    if (this.elsewhere) {
      status.append(" ", h("button", { type: "button", id: "play-here", class: "primary",
        onclick: () => this.go(`/t/${this.tableId}`) }, t("playHere")));
    }
  }

  lastTile() {
    const view = this.message.view;
    for (let i = view.history.length - 1; i >= 0; i -= 1) {
      const move = view.history[i][1];
      if (move !== "draw" && move !== "pass") return tileOf(move);
    }
    return view.lead?.tile ?? null;
  }

  drawBoard() {
    const wrap = this.root.querySelector(".board-wrap");
    if (!wrap || !this.message) return;
    const svg = wrap.querySelector("svg");
    svg.classList.add("board");
    const targets = this.placesFor(this.selected ?? this.dragging?.tile);
    const tile = this.selected ?? this.dragging?.tile;
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", t("board"));
    const focusedPlace = svg.contains(document.activeElement) ? document.activeElement.dataset.place : null;
    drawBoard(svg, this.message.view, wrap.clientWidth || 300, wrap.clientHeight || 200, {
      last: this.lastTile(), targets, onPlace: (place) => this.playAt(this.selected, place),
      label: spoken,
      placeLabel: (place) => t("placeLabel", { tile: tile ? spoken(tile) : "", place: t(`place.${place}`),
                                               n: this.message.view.places[place] ?? "" }),
    });
    // A move sent from a place clears the places before the server answers: the
    // keyboard goes back to the hand rather than falling to the page.
    if (focusedPlace) {
      const place = svg.querySelector(`.place[data-place="${focusedPlace}"]`);
      if (place) place.focus();
      else this.focusHand();
    }
  }

  // The keyboard back on the hand, at the tile it was on.
  focusHand() {
    this.root.querySelectorAll(".hand .tile")[this.focus]?.focus();
  }

  // -- playing -------------------------------------------------------------------------

  movesFor(tile) {
    const view = this.message?.view;
    if (!tile || !view || view.turn !== this.message.you) return [];
    return view.legal_moves.filter((m) => tileOf(m) === tile);
  }

  placesFor(tile) {
    return this.movesFor(tile).map((m) => m.split(" ")[1] ?? "lead");
  }

  choose(tile) {
    const moves = this.movesFor(tile);
    if (moves.length === 0 || this.offline()) return;
    if (moves.length === 1) return this.send(moves[0]);
    this.selected = this.selected === tile ? null : tile;
    this.render();
    this.root.querySelector(".place")?.focus();
  }

  playAt(tile, place) {
    const move = this.movesFor(tile).find((m) => (m.split(" ")[1] ?? "lead") === place);
    if (move) this.send(move);
  }

  send(move) {
    this.selected = null;
    if (this.offline()) return;
    this.connection.send({ type: "move", move });
  }

  // Away from the server a tap is answered, not dropped in silence: the move is the
  // player's to make again once it is back.
  offline() {
    if (this.online) return false;
    this.selected = null;
    this.render();
    this.flash(t("offlineMove"));
    return true;
  }

  key(event) {
    if (!this.message || event.target.closest?.("input, select, textarea")) return;
    const hand = [...this.root.querySelectorAll(".hand .tile")];
    if (event.key === "Escape" && this.selected) {
      this.selected = null;
      this.render();
      this.focusHand();
      return;
    }
    const places = [...this.root.querySelectorAll(".place")];
    const at = places.indexOf(event.target);
    if (at >= 0 && ["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown"].includes(event.key)) {
      event.preventDefault();
      const step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : places.length - 1;
      places[(at + step) % places.length].focus();
      return;
    }
    if (!hand.length || !event.target.closest?.(".hand, body")) return;
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      event.preventDefault();
      this.focus = (this.focus + (event.key === "ArrowRight" ? 1 : hand.length - 1)) % hand.length;
      hand.forEach((b, i) => b.setAttribute("tabindex", i === this.focus ? "0" : "-1"));
      hand[this.focus].focus();
    } else if ((event.key === "Enter" || event.key === " ") && event.target.closest?.(".hand")) {
      event.preventDefault();
      this.choose(hand[this.focus]?.dataset.tile);
    }
  }

  // Tap to play; or drag past a few pixels, and drop on a lit place. The press is
  // followed on the window, not on the tile's button: a message or a bubble's timer may
  // draw the hand anew while the finger is down, and the button pressed is then gone.
  pointerDown(event, tile, playable) {
    if (!playable) return;
    const start = { x: event.clientX, y: event.clientY };
    const pointer = event.pointerId;
    event.currentTarget.setPointerCapture(pointer);
    let ghost = null;
    const move = (e) => {
      if (e.pointerId !== pointer) return;
      if (!ghost && Math.hypot(e.clientX - start.x, e.clientY - start.y) > 8) {
        ghost = tileSVG(tile);
        ghost.classList.add("ghost");
        document.body.append(ghost);
        this.dragging = { tile };
        this.drawBoard();
      }
      if (ghost) {
        ghost.style.left = `${e.clientX}px`;
        ghost.style.top = `${e.clientY}px`;
        for (const p of this.root.querySelectorAll(".place")) p.classList.remove("hover");
        this.placeAt(e)?.classList.add("hover");
      }
    };
    const up = (e) => {
      if (e.pointerId !== pointer) return;
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      if (this.closed) return ghost?.remove();
      if (!ghost) return this.choose(tile);
      ghost.remove();
      const place = this.placeAt(e);
      const overBoard = document.elementsFromPoint(e.clientX, e.clientY)
        .some((node) => node.classList?.contains("board-wrap"));
      this.dragging = null;
      const moves = this.movesFor(tile);
      if (place) this.playAt(tile, place.dataset.place);
      else if (overBoard && moves.length === 1) this.send(moves[0]);
      else this.drawBoard();
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }

  placeAt(event) {
    return document.elementsFromPoint(event.clientX, event.clientY)
      .find((node) => node.classList?.contains("place")) ?? null;
  }
}
