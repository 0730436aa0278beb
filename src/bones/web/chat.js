// A chat box: the lines said at a table (in your room: the players' or the spectators')
// or in the lobby, quick phrases in your language, muting a player, reporting a line,
// and all chat turned off.
// Every line is shown as text, never as HTML.

import { me } from "./account.js";
import { h } from "./dom.js";
import { moment, refusal, t } from "./i18n.js";
import { api } from "./net.js";

const QUICK = ["quick.hello", "quick.luck", "quick.thanks", "quick.wellPlayed", "quick.oops", "quick.gg"];
const muted = () => new Set(JSON.parse(localStorage.getItem("bones.muted") || "[]"));
// A player may turn all chat off for themself, everywhere: no line is shown or counted.
const chatOff = () => localStorage.getItem("bones.chatOff") === "1";

function setMuted(name, on) {
  const names = muted();
  if (on) names.add(name); else names.delete(name);
  localStorage.setItem("bones.muted", JSON.stringify([...names]));
}

export class ChatBox {
  // `say(text)` sends a line; `room`: the room's name as shown; `open`: shown at first.
  constructor(say, room, open = false) {
    Object.assign(this, { say, room, open });
    this.lines = [];
    this.unread = 0;
    this.reported = new Set();
    this.note = "";
    this.element = h("aside", { class: "chat-box", id: "chat", "aria-label": t("chat") });
    this.render();
  }

  add(line) {
    if (this.lines.some((l) => l.id === line.id)) return;  // heard again after a reconnect
    // in the order said: a line said as the box opens may come before the older ones
    const after = this.lines.findIndex((l) => l.id > line.id);
    this.lines.splice(after < 0 ? this.lines.length : after, 0, line);
    if (!this.open && !chatOff() && !muted().has(line.name)) this.unread += 1;
    this.render();
  }

  refused(message) {
    this.note = message;
    this.render();
  }

  render() {
    const toggle = h("button", { type: "button", class: "chat-toggle", id: "chat-toggle", "aria-expanded": String(this.open),
      onclick: () => { this.open = !this.open; this.unread = 0; this.render(); } },
      t("chat"), this.unread ? h("span", { class: "badge", id: "chat-unread" }, String(this.unread)) : null);
    if (!this.open) {
      this.element.replaceChildren(toggle);
      return;
    }
    const turn = (off) => h("button", { type: "button", id: "chat-off", onclick: () => {
      localStorage.setItem("bones.chatOff", off ? "1" : "0");
      this.render();
    } }, t(off ? "chatTurnOff" : "chatTurnOn"));
    if (chatOff()) {
      this.element.replaceChildren(toggle, h("p", { class: "chat-room" }, t("chatIsOff")), turn(false));
      return;
    }
    const quiet = muted();
    const list = h("ul", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" },
      this.lines.filter((line) => !quiet.has(line.name)).map((line) => this.lineItem(line)));
    const input = h("input", { name: "chat", id: "chat-input", maxlength: 200, autocomplete: "off",
                               "aria-label": t("chatSay") });
    // Muted by the moderators: the box says so (and until when), not a line refused after another.
    const limited = me()?.limited && { until: me().limited };  // a banned account's browser
    const mute = me()?.sanctions?.find((s) => s.kind === "mute") || limited;
    const form = mute ? h("p", { class: "form-error", id: "chat-muted" }, t("error.muted"),
      mute.until ? ` (${t("mod.until", { when: moment(mute.until) })})` : "")
      : h("form", { class: "chat-form" }, input, h("button", { type: "submit" }, t("send")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text) this.say(text);
      input.value = "";
    });
    this.element.replaceChildren(...[toggle,
      h("p", { class: "chat-room" }, this.room),
      list,
      mute ? null : h("div", { class: "quick" }, QUICK.map((key) => h("button", { type: "button", class: "quick-phrase",
        onclick: () => this.say(t(key)) }, t(key)))),
      form,
      this.note ? h("p", { class: "form-error", role: "alert" }, this.note) : null,
      quiet.size ? h("p", { class: "muted-list" }, t("mutedNames"), " ", [...quiet].map((name) =>
        h("button", { type: "button", class: "unmute", onclick: () => { setMuted(name, false); this.render(); } },
          `${name} ×`))) : null,
      turn(true)].filter(Boolean));
    list.scrollTop = list.scrollHeight;
  }

  // A line: who said it and what; another's line can be muted or reported, not one's own.
  lineItem(line) {
    const reported = this.reported.has(line.id);
    const said = [h("b", { class: "chat-name" }, line.name), " ", h("span", { class: "chat-text" }, line.text)];
    if (line.name === me()?.name) return h("li", { class: "chat-line mine", dataset: { id: line.id } }, said);
    return h("li", { class: "chat-line", dataset: { id: line.id } }, said, " ",
      h("button", { type: "button", class: "chat-mute", title: t("mute"), "aria-label": `${t("mute")} ${line.name}`,
        onclick: () => { setMuted(line.name, true); this.render(); } }, t("mute")),
      reported ? h("small", { class: "chat-reported" }, t("reported"))
        : h("button", { type: "button", class: "chat-report", "aria-label": `${t("report")}: ${line.text}`,
          onclick: () => this.report(line) }, t("report")));
  }

  async report(line) {
    try {
      await api(`/api/chat/${line.id}/report`, { reason: "" });
      this.reported.add(line.id);
      this.note = "";
    } catch (error) {
      this.note = refusal(error);
    }
    this.render();
  }
}
