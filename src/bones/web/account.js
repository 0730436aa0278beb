// Who is playing: a guest from the first visit, an account after signing up (the same
// account: its games stay), and the account page (sign up, log in and out, password,
// the devices signed in, personal API tokens).

import { fill, h } from "./dom.js";
import { lang, moment, refusal, t } from "./i18n.js";
import { blockedList, mySanctionsAndReports } from "./moderation.js";
import { api } from "./net.js";

let current = null;

// The signed-in account: { name, guest, bot, roles }.
export const me = () => current;

// My games in progress on any device (GET /api/me/games): asked once for the top bar and
// the home page drawn together, again after two seconds.
let gamesAsked = { at: 0, answer: null };
export function myGames() {
  if (Date.now() - gamesAsked.at > 2000) gamesAsked = { at: Date.now(), answer: api("/api/me/games") };
  return gamesAsked.answer;
}

// Signed in as before, or a new guest (the server sets the session cookie): one
// request that answers either way, so a first visit logs no refused "who am I".
export async function signIn() {
  current = await api("/api/guest", {});
  return current;
}

// The site's choices (GET /api/site): who may sign up, whether it sends mail.
let siteAsked = null;
const site = () => (siteAsked ||= api("/api/site").catch(() => ({ signups: "open", mail: false })));

// An invitation to sign up, from its link (`/account#invite=TOKEN`).
const invitation = () => new URLSearchParams(location.hash.slice(1)).get("invite");

function credentials(id, title, path, onDone, autocomplete) {
  const form = h("form", { id, class: "account-form" },
    h("h2", {}, title),
    h("label", { class: "name" }, t("accountName"),
      h("input", { name: "name", required: true, minlength: id === "signup" ? 2 : 1, maxlength: 24,
                   autocomplete: "username" })),
    h("label", { class: "name" }, t("password"),
      h("input", { name: "password", type: "password", required: true,
                   minlength: id === "signup" ? 8 : 1, maxlength: 128, autocomplete })),
    h("p", { class: "form-error", role: "alert" }),
    h("button", { type: "submit", class: "primary" }, title));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const invite = id === "signup" ? invitation() : null;
      await api(path, { name: form.elements.name.value.trim(), password: form.elements.password.value,
                        ...(invite ? { invite } : {}) });
      await onDone();
    } catch (error) {
      form.querySelector(".form-error").textContent = refusal(error,
        { 401: "refused.login", 409: "refused.nameTaken" });
    }
  });
  return form;
}

function passwordForm() {
  const form = h("form", { id: "password", class: "account-form" },
    h("h2", {}, t("changePassword")),
    h("label", { class: "name" }, t("oldPassword"),
      h("input", { name: "old", type: "password", required: true, autocomplete: "current-password" })),
    h("label", { class: "name" }, t("newPassword"),
      h("input", { name: "new", type: "password", required: true, minlength: 8, maxlength: 128,
                   autocomplete: "new-password" })),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "revoke", checked: true }),
      " ", t("revokeTokens")),
    h("p", { class: "form-error", role: "alert" }),
    h("button", { type: "submit" }, t("changePassword")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const said = form.querySelector(".form-error");
    try {
      await api("/api/password", { old: form.elements.old.value, new: form.elements.new.value,
                                   revoke_tokens: form.elements.revoke.checked });
      form.reset();
      said.textContent = t("passwordChanged");
    } catch (error) {
      said.textContent = refusal(error, { 401: "refused.oldPassword" });
    }
  });
  return form;
}

async function tokensSection() {
  const section = h("section", { id: "tokens", class: "account-form" });
  const render = async (shown = null) => {
    const tokens = await api("/api/tokens");
    const form = h("form", {},
      h("label", { class: "name" }, t("tokenLabel"), h("input", { name: "label", required: true, maxlength: 40 })),
      h("button", { type: "submit" }, t("newToken")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const made = await api("/api/tokens", { label: form.elements.label.value.trim() });
      render(made.token);
    });
    fill(section,
      h("h2", {}, t("apiTokens")),
      h("p", {}, t("apiTokensNote")),
      shown ? h("p", { class: "token-once" }, t("tokenOnce"), " ", h("code", { id: "new-token" }, shown)) : null,
      h("ul", { class: "token-list" }, tokens.map((token) => h("li", {},
        h("span", {}, token.label), " ",
        token.used ? h("small", { class: "seen" }, t("tokenUsed", { when: moment(token.used) }),
          token.address ? ` · ${token.address}` : "") : null, " ",
        h("button", { type: "button", onclick: async () => {
          await api(`/api/tokens/${token.id}`, undefined, "DELETE");
          render();
        } }, t("revoke"))))),
      form);
  };
  await render();
  return section;
}

// Where I am signed in: this browser first, then the others last seen first, each with
// its browser, address and when; sign out one, or every other. A device signed out is
// told at once (its pages' sockets close with 4401).
async function devicesSection() {
  const section = h("section", { id: "devices", class: "account-form" });
  const render = async (said = "") => {
    const found = await api("/api/sessions");
    const end = async (id) => {
      await api(`/api/sessions/${id}`, undefined, "DELETE").catch(() => null);
      render();
    };
    fill(section,
      h("h2", {}, t("devices")),
      h("p", {}, t("devicesNote")),
      h("ul", { class: "device-list" }, found.map((device) => h("li", { class: device.current ? "current" : "" },
        h("span", { class: "browser" }, device.browser || t("unknownBrowser")),
        device.current ? h("small", { class: "badge" }, t("thisDevice")) : null, " ",
        h("small", { class: "seen" }, [device.address, t("lastSeen", { when: moment(device.seen) })]
          .filter(Boolean).join(" · ")), " ",
        device.current ? null : h("button", { type: "button", class: "sign-out",
                                              onclick: () => end(device.id) }, t("signOut"))))),
      found.length > 1 ? h("button", { type: "button", id: "sign-out-others", onclick: async () => {
        const { ended } = await api("/api/logout/others", {});
        render(t("signedOutOthers", { n: ended }));
      } }, t("signOutOthers")) : null,
      h("p", { class: "form-error", role: "status" }, said));
  };
  await render();
  return section;
}

// My data: download everything bones holds about me; close my account for good (with
// my password, and a second "yes"), after which this browser is a new guest.
function ownData(account, done) {
  const form = h("form", { id: "close-account" },
    h("p", {}, t("own.closeNote")),
    account.guest ? null : h("label", { class: "name" }, t("password"),
      h("input", { name: "password", type: "password", required: true, autocomplete: "current-password" })),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "sure", required: true }), " ", t("own.sure")),
    h("p", { class: "form-error", role: "alert" }),
    h("button", { type: "submit", class: "danger" }, t("own.close")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api("/api/me/close", { password: form.elements.password?.value ?? null });
      await done();
    } catch (error) {
      form.querySelector(".form-error").textContent = refusal(error,
        { 401: "refused.password", 409: "refused.closeSeated" });
    }
  });
  return h("section", { class: "account-form", id: "own-data" },
    h("h2", {}, t("own.title")),
    h("p", {}, h("a", { href: "/api/me/export", download: "bones-my-data.json", id: "export" }, t("own.download"))),
    h("h3", {}, t("own.close")),
    form);
}

// The account page; `changed()` is called when the account signed in changes.
export async function accountScreen(root, changed) {
  const done = async () => {
    await signIn();
    changed();
  };
  const account = me() || await signIn();
  const title = h("h1", {}, account.name, " ",
    account.guest ? h("small", { class: "badge" }, t("guest")) : null,
    account.bot ? h("small", { class: "badge" }, t("botAccount")) : null);
  if (account.guest) {
    root.replaceChildren(h("section", { class: "account" }, title,
      h("p", {}, t("guestNote")),
      await signUpForm(done),
      credentials("login", t("logIn"), "/api/login", done, "current-password"),
      await forgotForm()));
    return;
  }
  const full = await api("/api/me");  // with what moderators decided
  root.replaceChildren(h("section", { class: "account" }, title,
    h("button", { type: "button", id: "logout", onclick: async () => {
      await api("/api/logout", {});
      await done();
    } }, t("logOut")),
    await mySanctionsAndReports(full),
    await blockedList(),
    passwordForm(),
    await addressSection(),
    await devicesSection(),
    await tokensSection(),
    ownData(account, done)));
}

// Sign up: open to all, by an invitation's link, or closed (guests play either way).
async function signUpForm(done) {
  const { signups } = await site();
  if (signups === "open" || (signups === "invite" && invitation())) {
    return credentials("signup", t("signUp"), "/api/signup", done, "new-password");
  }
  return h("p", { class: "account-form", id: "signups-note" },
    t(signups === "closed" ? "signups.closed" : "signups.invite"));
}

// A forgotten password: by mail when the site sends any (the same answer whether or not
// an account has the address), else the words to ask the site's operator.
async function forgotForm() {
  const { mail } = await site();
  if (!mail) return h("p", { class: "account-form", id: "forgot-operator" }, t("mail.askOperator"));
  const form = h("form", { id: "forgot", class: "account-form" },
    h("h2", {}, t("mail.forgot")),
    h("label", { class: "name" }, t("mail.address"),
      h("input", { name: "email", type: "email", required: true, maxlength: 254, autocomplete: "email" })),
    h("p", { class: "form-error", role: "status" }),
    h("button", { type: "submit" }, t("mail.send")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const said = form.querySelector(".form-error");
    try {
      await api("/api/password/forgot", { email: form.elements.email.value.trim(), lang: lang() });
      said.textContent = t("mail.forgotSent");
    } catch (error) {
      said.textContent = refusal(error);
    }
  });
  return form;
}

// My mail address, to get a forgotten password back: given, confirmed by its link, or
// removed; nothing when the site sends no mail.
async function addressSection() {
  const { mail } = await site();
  if (!mail) return null;
  const section = h("section", { id: "address", class: "account-form" });
  const render = async (said = "") => {
    const { email, confirmed, about, refused } = await api("/api/me/email");
    const choices = h("fieldset", { class: "mail-about", id: "mail-about" },
      ["challenge", "tournament"].map((kind) => h("label", { class: "check" },
        h("input", { type: "checkbox", name: kind, checked: about.includes(kind), onchange: async () => {
          const chosen = [...choices.querySelectorAll("input:checked")].map((box) => box.name);
          await api("/api/me/email/about", { about: chosen }, "PUT").catch(() => null);
        } }), " ", t(`mail.about.${kind}`))));
    const form = h("form", {},
      h("label", { class: "name" }, t("mail.address"),
        h("input", { name: "email", type: "email", required: true, maxlength: 254, autocomplete: "email",
                     value: email || "" })),
      h("button", { type: "submit" }, email ? t("mail.change") : t("mail.give")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await api("/api/me/email", { email: form.elements.email.value.trim(), lang: lang() }, "PUT");
        render(t("mail.sentTo"));
      } catch (error) {
        render(refusal(error, { 409: "mail.refused" }));
      }
    });
    fill(section, h("h2", {}, t("mail.title")), h("p", {}, t("mail.note")),
      email ? h("p", { id: "address-state" }, email, " ",
        h("small", { class: "badge" }, confirmed ? t("mail.confirmed") : t("mail.unconfirmed"))) : null,
      refused ? h("p", { id: "address-refused", class: "form-error" }, t("mail.bounced")) : null,
      form,
      confirmed ? choices : null,
      email ? h("button", { type: "button", id: "address-remove", onclick: async () => {
        await api("/api/me/email", undefined, "DELETE");
        render();
      } }, t("mail.remove")) : null,
      h("p", { class: "form-error", role: "status" }, said));
  };
  await render();
  return section;
}

// The page of a confirming link mailed to an address (`/confirm#TOKEN`).
export async function confirmScreen(root) {
  const said = h("p", { id: "confirmed", role: "status" });
  root.replaceChildren(h("section", { class: "account" }, h("h2", {}, t("mail.title")), said));
  try {
    const { email } = await api("/api/email/confirm", { token: location.hash.slice(1) });
    said.textContent = t("mail.confirmedNow", { email });
  } catch (error) {
    said.textContent = refusal(error, { 404: "reset.gone" });
  }
  history.replaceState({}, "", "/confirm");
}

// The page of a one-time link the operator gave or a mail carried (`/reset#TOKEN`): a
// new password, and the player is signed in with it; `done()` once they are.
export function resetScreen(root, done) {
  const token = location.hash.slice(1);
  const form = h("form", { id: "reset", class: "account-form" },
    h("h2", {}, t("reset.title")),
    h("label", { class: "name" }, t("newPassword"),
      h("input", { name: "new", type: "password", required: true, minlength: 8, maxlength: 128,
                   autocomplete: "new-password" })),
    h("p", { class: "form-error", role: "alert" }),
    h("button", { type: "submit", class: "primary" }, t("reset.title")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api("/api/password/reset", { token, new: form.elements.new.value });
      history.replaceState({}, "", "/");
      await signIn();
      done();
    } catch (error) {
      form.querySelector(".form-error").textContent = refusal(error, { 404: "reset.gone" });
    }
  });
  root.replaceChildren(h("section", { class: "account" }, form));
}
