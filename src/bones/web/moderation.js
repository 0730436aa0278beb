// Reports and moderation in the browser: a player reports another (their conduct, their
// name) and sees what came of their reports and what moderators decided about them; a
// moderator's page lists the open reports, opens a player (their games, chat lines,
// sanctions, the reports about them and the audit of them), acts on them, and reads the
// audit log. Everything players wrote is shown as text.

import { fill, h, modal, pageLink } from "./dom.js";
import { moment, playerName, refusal, t } from "./i18n.js";
import { api } from "./net.js";

const WHYS = ["abuse", "cheating", "leaving", "name", "other"];

// A report's reason in the reader's language: the page sends one of WHYS, a code (a
// Russian reporter's words on an English moderator's page were seen); a program's own
// words are shown as they are.
function reportReason(reason) {
  return WHYS.includes(reason) ? t(`mod.why.${reason}`) : reason;
}
// The lengths a moderator picks from, in minutes ("" is for good).
const LENGTHS = [[60, "mod.hoursN", 1], [1440, "mod.daysN", 1], [10080, "mod.daysN", 7],
  [43200, "mod.daysN", 30], ["", "mod.forGood"]];

// A sanction's end as its reader says it: lifted, until when, or for good (a warning has none).
function sanctionEnd(s) {
  return s.lifted ? t("mod.lifted") : s.kind === "warn" ? null
    : s.until ? t("mod.until", { when: moment(s.until) }) : t("mod.forGood");
}

// A sanction as the player and the moderators read it: "No chat until 6.12.2026, 14:00: spam".
export function sanctionLine(s) {
  const end = sanctionEnd(s);
  return h("li", { class: `sanction sanction-${s.kind}` },
    h("strong", {}, t(`mod.action.${s.kind}`)), end ? ` (${end})` : null, ": ",
    h("span", { class: "said" }, s.reason));
}

// The same in one line of text (a notification's).
export function sanctionWords(s) {
  const end = sanctionEnd(s);
  return `${t(`mod.action.${s.kind}`)}${end ? ` (${end})` : ""}: ${s.reason}`;
}

// The account page's part: what moderators decided about me, and my reports' state.
export async function mySanctionsAndReports(account) {
  const reports = await api("/api/reports").catch(() => []);
  return h("section", { class: "account-form", id: "my-moderation" },
    account.sanctions?.length ? [h("h2", {}, t("mod.yours")),
      h("ul", { class: "sanctions", id: "my-sanctions" }, account.sanctions.map(sanctionLine))] : null,
    reports.length ? [h("h2", {}, t("mod.myReports")),
      h("ul", { class: "report-list", id: "my-reports" }, reports.map((r) => h("li", {},
        `${moment(r.at)} · ${t(`mod.kind.${r.kind}`)}${r.player ? ` · ${r.player}` : ""} · `,
        r.resolved ? h("span", { class: "said" }, r.resolution) : h("em", {}, t("mod.pending")))))] : null);
}

// A profile's button that follows or blocks the player called `name` (`path`:
// /api/follows or /api/blocks) and undoes it; its words are `keys` [do, undo].
export async function relationButton(path, name, keys, id) {
  const listed = (await api(path).catch(() => [])).map((n) => (n.name ?? n).toLowerCase());
  let on = listed.includes(name.toLowerCase());
  const button = h("button", { type: "button", id });
  const show = () => {
    button.textContent = t(on ? keys[1] : keys[0]);
    button.setAttribute("aria-pressed", String(on));
  };
  button.addEventListener("click", async () => {
    await (on ? api(`${path}/${encodeURIComponent(name)}`, undefined, "DELETE") : api(path, { name }));
    on = !on;
    show();
  });
  show();
  return button;
}

// The account page's list of the players I blocked, each to unblock.
export async function blockedList() {
  const section = h("section", { class: "account-form", id: "blocked" });
  const render = async () => {
    const names = await api("/api/blocks");
    fill(section, names.length ? [h("h2", {}, t("block.title")), h("p", {}, t("block.note")),
      h("ul", { class: "token-list" }, names.map((name) => h("li", {}, h("span", { class: "said" }, name), " ",
        h("button", { type: "button", onclick: async () => {
          await api(`/api/blocks/${encodeURIComponent(name)}`, undefined, "DELETE");
          render();
        } }, t("block.unblock")))))] : null);
  };
  await render();
  return section;
}

// A dialog to report the player called `name` (their conduct or their name).
export function reportDialog(name) {
  let dialog = null;
  const close = () => dialog.close();
  const form = h("form", { class: "panel" },
    h("h2", {}, t("mod.reportTitle", { name })),
    h("fieldset", { class: "choices" }, h("legend", {}, t("mod.reason")),
      WHYS.map((why, i) => h("label", { class: "check" },
        h("input", { type: "radio", name: "why", value: why, checked: i === 0 }), " ", t(`mod.why.${why}`)))),
    h("label", { class: "name" }, t("mod.note"), h("textarea", { name: "note", maxlength: 500, rows: 3 })),
    h("p", { class: "form-error", role: "alert" }),
    h("div", { class: "dialog-buttons" },
      h("button", { type: "submit", class: "primary", id: "send-report" }, t("report")),
      h("button", { type: "button", onclick: close }, t("cancel"))));
  dialog = modal("report-dialog", form, async () => {
    const why = form.elements.why.value;
    const note = form.elements.note.value.trim();
    await api("/api/reports", { kind: why === "name" ? "name" : "player", name,
                                reason: why, note: note || null });
    fill(form, h("p", { id: "report-sent" }, t("mod.sent")),
      h("div", { class: "dialog-buttons" }, h("button", { type: "button", onclick: close }, t("close"))));
  }, (error) => refusal(error));
}

// The moderators' page: the open reports, a player looked up, the audit log.
export async function moderationScreen(root, go) {
  const player = h("section", { id: "mod-player" });
  const found = h("div", { id: "mod-found" });
  const lookUp = h("form", { class: "account-form", id: "mod-look-up" },
    h("label", { class: "name" }, t("mod.lookUp"), h("input", { name: "name", required: true, maxlength: 24 })),
    h("button", { type: "submit" }, t("mod.open")), found);
  const open = (name) => showPlayer(player, name, go, reload);
  lookUp.addEventListener("submit", async (event) => {  // every name holding the text; one that is it opens
    event.preventDefault();
    const text = lookUp.elements.name.value.trim();
    const listed = await api(`/api/mod/players?q=${encodeURIComponent(text)}`).catch(() => []);
    fill(found, h("p", {}, t("mod.found", { n: listed.length })), h("ul", { class: "found-list" }, listed.map((p) =>
      h("li", {}, h("button", { type: "button", class: "link", onclick: () => open(p.name) }, p.name),
        p.guest ? h("small", { class: "badge" }, t("guest")) : null, " ",
        h("small", {}, [t("mod.foundLine", { n: p.games, when: moment(p.created) }),
          p.seen ? t("lastSeen", { when: moment(p.seen) }) : null,
          ...p.sanctions.map((k) => t(`mod.action.${k}`))].filter(Boolean).join(" · "))))));
    const exact = listed.find((p) => p.name.toLowerCase() === text.toLowerCase());
    if (exact) open(exact.name);
  });
  const reports = h("section", { id: "mod-reports" });
  const audit = h("section", { id: "mod-audit" });
  const reload = async () => {
    const [open_, actions] = await Promise.all([api("/api/mod/reports"), api("/api/mod/audit?limit=50")]);
    fill(reports, h("h2", {}, t("mod.openReports")), open_.length
      ? h("ul", { class: "report-list" }, open_.map((r) => reportItem(r, open, reload)))
      : h("p", {}, t("mod.noReports")));
    fill(audit, h("h2", {}, t("mod.audit")), auditList(actions));
  };
  try {
    await reload();
  } catch (error) {
    root.replaceChildren(h("p", { class: "form-error", role: "alert" }, refusal(error)));
    return;
  }
  root.replaceChildren(h("section", { class: "moderation", id: "moderation" },
    h("h1", {}, t("mod.title")), reports, lookUp, player, audit));
}

function reportItem(r, open, reload) {
  const resolve = h("form", { class: "inline-form" },
    h("input", { name: "reason", required: true, maxlength: 200, "aria-label": t("mod.resolution"),
                 placeholder: t("mod.resolution") }),
    h("button", { type: "submit" }, t("mod.resolve")));
  resolve.addEventListener("submit", async (event) => {
    event.preventDefault();
    await api(`/api/mod/reports/${r.id}/resolve`, { reason: resolve.elements.reason.value.trim() });
    reload();
  });
  return h("li", { class: "report", dataset: { report: r.id } },
    h("div", {}, h("strong", {}, t(`mod.kind.${r.kind}`)), ` · ${moment(r.at)} · `,
      t("mod.reportedBy", { name: r.reporter }), r.player ? " · " : null,
      r.player ? h("button", { type: "button", class: "link", onclick: () => open(r.player) },
        t("mod.about", { name: r.player })) : null),
    h("div", { class: "said" }, reportReason(r.reason)),
    r.text ? h("blockquote", { class: "said" }, r.text) : null,
    r.note ? h("div", { class: "said" }, r.note) : null,
    resolve);
}

function auditList(actions) {
  return h("ul", { class: "audit-list" }, actions.map((a) => h("li", {},
    `${moment(a.at)} · ${a.by} · ${t(`mod.action.${a.action}`)}${a.player ? ` · ${a.player}` : ""}: `,
    h("span", { class: "said" }, a.reason))));
}

async function showPlayer(section, name, go, reload) {
  let d;
  try {
    d = await api(`/api/mod/players/${encodeURIComponent(name)}`);
  } catch (error) {
    fill(section, h("p", { class: "form-error", role: "alert" }, refusal(error)));
    return;
  }
  const again = async () => { await showPlayer(section, d.name, go, reload); await reload(); };
  const act = (path, body) => api(`/api/mod/players/${encodeURIComponent(d.name)}/${path}`, body)
    .then(again, (error) => { section.querySelector(".form-error").textContent = refusal(error); });
  const form = h("form", { class: "account-form", id: "mod-act" },
    h("label", { class: "name" }, t("mod.sanctions"),
      h("select", { name: "kind" }, ["warn", "mute", "suspend", "ban"].map((k) =>
        h("option", { value: k }, t(`mod.action.${k}`))))),
    h("label", { class: "name" }, t("mod.duration"),
      h("select", { name: "minutes" }, LENGTHS.map(([m, key, n]) => h("option", { value: m }, t(key, { n }))))),
    h("label", { class: "name" }, t("mod.reason"), h("input", { name: "reason", required: true, maxlength: 200 })),
    h("p", { class: "form-error", role: "alert" }),
    h("button", { type: "submit", class: "primary", id: "mod-apply" }, t("mod.apply")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const minutes = form.elements.minutes.value;
    act("sanctions", { kind: form.elements.kind.value, reason: form.elements.reason.value.trim(),
                       minutes: minutes ? Number(minutes) : null });
  });
  const reason = () => form.elements.reason.value.trim() || t("mod.title");
  const inForce = d.sanctions.filter((s) => s.kind !== "warn" && !s.lifted
    && (!s.until || new Date(s.until) > new Date()));
  fill(section, h("h2", { id: "mod-player-name" }, d.name, d.guest ? h("small", { class: "badge" }, t("guest")) : null),
    h("h3", {}, t("mod.sanctions")),
    d.sanctions.length ? h("ul", { class: "sanctions" }, d.sanctions.map(sanctionLine)) : h("p", {}, t("mod.none")),
    inForce.map((s) => h("button", { type: "button", class: "lift", onclick: () => act("lift", { kind: s.kind, reason: reason() }) },
      `${t("mod.lift")}: ${t(`mod.action.${s.kind}`)}`)),
    form,
    h("button", { type: "button", id: "mod-rename", onclick: () => act("rename", { reason: reason() }) }, t("mod.rename")),
    h("h3", {}, t("mod.chat")),
    h("ul", { class: "chat-lines" }, d.chat.map((c) => h("li", {}, `${moment(c.at)} · `,
      h("span", { class: "said" }, c.text), " ",
      c.removed ? h("em", {}, t("mod.deleted")) : h("button", { type: "button", class: "delete-line", onclick: async () => {
        await api(`/api/mod/chat/${c.id}/delete`, { reason: reason() });
        again();
      } }, t("mod.delete"))))),
    h("h3", {}, t("mod.games")),
    h("ul", { class: "game-list" }, d.games.map((g) => h("li", {},
      pageLink(`/replay/${g.table}`, `${moment(g.finished)} · ${t(`variant.${g.variant}`)} · ${g.names.filter(Boolean).map(playerName).join(", ")}`, go)))),
    h("h3", {}, t("mod.devices")),
    d.devices.length ? h("ul", { class: "device-list", id: "mod-devices" }, d.devices.map((s) => h("li", {},
      h("span", { class: "browser" }, [s.label, s.browser].filter(Boolean).join(" · ") || t("unknownBrowser")), " ",
      h("small", { class: "seen" }, [s.address, s.seen ? t("lastSeen", { when: moment(s.seen) }) : null]
        .filter(Boolean).join(" · "))))) : h("p", {}, t("mod.none")),
    h("h3", {}, t("mod.reportsAbout")),
    d.reports.length ? h("ul", { class: "report-list" }, d.reports.map((r) => h("li", {},
      `${moment(r.at)} · ${t(`mod.kind.${r.kind}`)} · ${t("mod.reportedBy", { name: r.reporter })}: `,
      h("span", { class: "said" }, r.text || reportReason(r.reason))))) : h("p", {}, t("mod.none")),
    h("h3", {}, t("mod.audit")), auditList(d.audit));
}
