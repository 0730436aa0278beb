// The player's notifications: challenges to them and the answers to theirs, rematch
// offers at tables they played (tournament starts, once there are tournaments), newest
// first. The count of those not yet seen shows on the bell in the top bar (and as a dot
// on a phone's menu button); the list opens in a dialog, which marks them seen.

import { fill, h, modal } from "./dom.js";
import { gameWords, moment, playerName, t } from "./i18n.js";
import { sanctionWords } from "./moderation.js";
import { api } from "./net.js";

let unread = 0;

// The unseen count wherever the top bar shows it.
export function showCount() {
  for (const count of document.querySelectorAll(".inbox-count")) {
    count.textContent = unread ? String(unread) : "";
    count.hidden = !unread;
  }
  const bell = document.querySelector("#inbox-button");
  bell?.setAttribute("aria-label", unread ? `${t("inbox")}: ${t("inbox.unread", { n: unread })}` : t("inbox"));
  document.querySelector("#menu-button")?.classList.toggle("has-unread", unread > 0);
}

// Asked again (a page opened): how many are unseen.
export async function refreshInbox() {
  const list = await api("/api/notifications").catch(() => null);
  if (list) {
    unread = list.unread;
    showCount();
  }
  return list;
}

// A notice pushed on the player's socket is one more line.
export function arrived(line) {
  if (!line) return;
  unread += 1;
  showCount();
}

// One line in the player's words, and where it leads.
function words(n) {
  const name = playerName(n.by);
  const said = {
    challenge: () => `${t("challenge.from", { name })}: ${gameWords(n.table_spec)}`,
    accepted: () => t("challenge.acceptedBy", { name }),
    declined: () => t("challenge.declined", { name }),
    cancelled: () => t("challenge.cancelled", { name }),
    rematch: () => `${t("rematch.offeredBy", { name })}: ${gameWords(n.table_spec)}`,
    tournament: () => `${t("tournament.starting")}: ${gameWords(n.table_spec)}`,
    withdrawn: () => `${t("tournament.withdrawnNotice")}: ${gameWords(n.table_spec)}`,
    sanction: () => `${t("mod.yours")}: ${sanctionWords(n.sanction)}`,
  }[n.kind];
  return said ? said() : n.kind;
}

function leadsTo(n) {
  if (n.kind === "challenge") return `/challenge/${n.challenge}`;
  if (n.tournament) return `/tournament/${n.tournament}`;
  if (["accepted", "rematch"].includes(n.kind) && n.table) return `/t/${n.table}`;
  return null;
}

// The list, in a dialog; opening it marks every line seen.
export async function inboxDialog(go) {
  const list = h("ul", { class: "inbox-list", id: "inbox-list" });
  let dialog = null;
  const form = h("form", { class: "panel" },
    h("h2", {}, t("inbox")), list,
    h("p", { class: "form-error", role: "alert" }),
    h("div", { class: "dialog-buttons" }, h("button", { type: "submit", class: "primary" }, t("close"))));
  dialog = modal("inbox-dialog", form, async () => dialog.close(), () => "");
  const got = await refreshInbox();
  if (!got) return;
  const line = (n) => {
    const path = leadsTo(n);
    return h("li", { class: n.read ? "inbox-line" : "inbox-line unread" },
      h("span", { class: "said" }, words(n)), " ",
      h("time", { datetime: n.created }, moment(n.created)), " ",
      path ? h("a", { href: path, class: "inbox-open", onclick: (e) => {
        e.preventDefault();
        dialog.close();
        go(path);
      } }, t("inbox.open")) : null);
  };
  fill(list, got.items.length ? got.items.map(line) : h("li", {}, t("inbox.none")));
  if (got.items.length && got.unread) {
    await api("/api/notifications/read", { upto: got.items[0].id }).catch(() => null);
    unread = 0;
    showCount();
  }
}
