// Play now: the quick match. Pick the game; the server seats you with players near your
// rating (the band widening as you wait) and sends your seat. Kozel players may bring a
// friend as their partner, who joins by a link.

import { me } from "./account.js";
import { h, linkField, pageLink, radioPill } from "./dom.js";
import { refusal, t } from "./i18n.js";
import { api, Connection, seats } from "./net.js";

const BOTS_AFTER = [null, 15, 30, 60];
const KEPT = "bones.seek";

// The call to play now, on the new-game screen and in the lobby (`more` follows it).
export function playNowLink(go, id, ...more) {
  return h("p", { class: "play-now-call" },
    pageLink("/play", t("playNowTitle"), go, { class: "button primary", id }), ...more);
}

export class PlayScreen {
  // `variants` is GET /api/variants; `code`: a friend's pair to join (/pair/{code}).
  constructor(root, variants, go, code = null) {
    Object.assign(this, { root, variants, go });
    this.choice = JSON.parse(localStorage.getItem("bones.lastSeek") || "null") ||
      { variant: "draw", players: 2, target: null, rated: false, bots_after: null, pair: false };
    const kept = sessionStorage.getItem(KEPT);
    if (code) this.pairScreen(code);
    else if (kept) this.watch(kept);
    else this.form();
  }

  form(error = "") {
    const c = this.choice;
    const info = this.variants[c.variant];
    if (!info.players.includes(c.players)) c.players = info.players[0];
    const signedUp = me() && !me().guest;
    const form = h("form", { class: "new-game play-now", id: "play-form" },
      h("h1", {}, t("playNowTitle")),
      h("fieldset", { class: "row" }, h("legend", {}, t("game")),
        Object.keys(this.variants).map((v) => radioPill("variant", v, t(`variant.${v}`), c.variant === v, () => { c.variant = v; this.form(); }))),
      info.players.length > 1 ? h("fieldset", { class: "row" }, h("legend", {}, t("playerCount")),
        info.players.map((n) => radioPill("players", n, String(n), c.players === n, () => { c.players = n; this.form(); }))) : null,
      h("fieldset", { class: "row" }, h("legend", {}, t("target")),
        [null, 50, 100, 150].map((n) => radioPill("target", n, n === null ? t("anyTarget") : t("points", { n }),
          c.target === n, () => { c.target = n; }))),
      signedUp ? h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated", checked: !!c.rated,
        onchange: (e) => { c.rated = e.target.checked; this.form(); } }), t("ratedSeek"))
        : h("p", {}, h("small", {}, t("ratedSignUp"))),
      c.rated && signedUp ? null : h("label", { class: "clock-choice" }, t("botsAfter"), " ",
        h("select", { name: "bots_after", onchange: (e) => { c.bots_after = e.target.value ? Number(e.target.value) : null; } },
          BOTS_AFTER.map((n) => h("option", { value: n ?? "", selected: c.bots_after === n },
            n === null ? t("never") : t("secondsN", { n }))))),
      c.variant === "kozel" ? h("label", { class: "check" }, h("input", { type: "checkbox", name: "pair",
        checked: !!c.pair, onchange: (e) => { c.pair = e.target.checked; } }), t("withFriend")) : null,
      h("p", { class: "form-error", role: "alert" }, error),
      h("button", { type: "submit", class: "primary", id: "play-now" }, t("playNow")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.seek();
    });
    this.root.replaceChildren(form);
  }

  async seek() {
    const c = this.choice;
    localStorage.setItem("bones.lastSeek", JSON.stringify(c));
    const rated = c.rated && me() && !me().guest;
    const body = { variant: c.variant, players: c.players, target: c.target, rated,
      ...(rated || c.bots_after === null ? {} : { bots_after: c.bots_after }),
      ...(c.variant === "kozel" && c.pair ? { pair: true } : {}) };
    try {
      this.watch((await api("/api/seek", body)).ticket);
    } catch (error) {
      this.form(refusal(error));
    }
  }

  async pairScreen(code) {
    const button = h("button", { type: "button", class: "primary", id: "join-pair", onclick: async () => {
      try {
        this.watch((await api(`/api/seek/pair/${encodeURIComponent(code)}`, {})).ticket);
      } catch {
        this.root.querySelector(".form-error").textContent = t("noPair");
      }
    } }, t("joinPairButton"));
    this.root.replaceChildren(h("section", { class: "join", id: "pair" },
      h("h1", {}, t("joinPair")), h("p", { class: "form-error", role: "alert" }), button));
  }

  // Wait on a ticket: where it stands every second, then the seat.
  watch(ticket) {
    sessionStorage.setItem(KEPT, ticket);
    this.ticket = ticket;
    this.status = h("p", { id: "seek-status", "aria-live": "polite" }, "…");
    this.pair = h("div", { class: "pair" });
    this.root.replaceChildren(h("section", { class: "seeking", id: "seeking" },
      h("h1", {}, h("span", { class: "spinner", "aria-hidden": "true" }), t("seeking")),
      this.status, this.pair,
      h("button", { type: "button", id: "cancel-seek", onclick: () => this.cancel() }, t("cancel"))));
    this.connection = new Connection(`seek/${ticket}`, null, {
      onSeeking: (m) => this.standing(m),
      onMatched: (m) => this.seated(m),
      onEnd: () => { this.forget(); this.form(t("seekEnded")); },
    });
  }

  standing(m) {
    const game = [t(`variant.${m.variant}`), t("playersN", { n: m.players }),
      m.target === null ? t("anyTarget") : t("points", { n: m.target }), m.rated ? t("rated") : null];
    this.status.replaceChildren(h("strong", {}, game.filter(Boolean).join(" · ")), h("br"),
      t("seekingFor", { s: Math.round(m.waited), band: m.band, n: m.waiting }));
    this.status.dataset.waiting = m.waiting;
    if (m.code && !this.pair.childElementCount) {
      const link = `${location.origin}/pair/${m.code}`;
      this.pair.replaceChildren(h("span", {}, t("pairLink")), linkField(link, "pair-link", t("pairLink")));
    } else if (!m.code) this.pair.replaceChildren();
  }

  seated(m) {
    this.forget();
    seats.set(m.table, m.seat, null, m.invite);  // my account's seat: the socket takes it signed in
    this.go(`/t/${m.table}`);
  }

  async cancel() {
    const ticket = this.ticket;
    this.forget();
    await api(`/api/seek/${ticket}`, undefined, "DELETE").catch(() => null);
    this.form();
  }

  forget() {
    sessionStorage.removeItem(KEPT);
    this.connection?.close();
    this.connection = null;
  }

  close() {
    this.connection?.close();
  }
}
