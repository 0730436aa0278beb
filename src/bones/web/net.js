// Talking to the bones server: REST for tables, one WebSocket per seat that comes back
// by itself after a drop or a reload (the seat token is kept in localStorage).

// The release this page is of: the version in the path it was loaded from
// (`/static/{version}/net.js`). It goes with every call and socket, so that while an
// upgrade has two releases side by side the page talks to its own release's API only.
export const RELEASE = new URL(import.meta.url).pathname.match(/^\/static\/([0-9a-f]{16})\//)?.[1] ?? null;
const ASKS = 6;  // times a call turned away by another release's process is asked again

// GET without a body, POST with one, or the `method` given; `headers` besides.
export async function api(path, body = undefined, method = body === undefined ? "GET" : "POST",
  headers = {}) {
  const sent = { ...headers, ...(RELEASE ? { "bones-release": RELEASE } : {}) };
  let response, data;
  for (let ask = 1; ; ask += 1) {
    response = await fetch(path, body === undefined ? { method, headers: sent } : {
      method, headers: { ...sent, "content-type": "application/json" }, body: JSON.stringify(body),
    });
    data = response.status === 204 ? null : await response.json().catch(() => ({}));
    if (response.status !== 503 || data.code !== "release") break;
    if (ask === ASKS) {  // no process has this page's release any more: load the new one
      location.reload();
      break;
    }
    await new Promise((done) => setTimeout(done, 200 * ask));
  }
  if (!response.ok) {  // the English detail is for programs; the page says it by `status`
    const detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail;
    // A sanction's refusal carries its `code` (banned, suspended, muted) and `until`.
    throw Object.assign(new Error(detail || response.statusText),
      { status: response.status, code: data.code, until: data.until });
  }
  return data;
}

// The table the page shows (its path `/t/{id}`), or null.
export function tableInPath() {
  return location.pathname.match(/^\/t\/([\w-]+)$/)?.[1] ?? null;
}

export const seats = {
  get(table) {
    try { return JSON.parse(localStorage.getItem(`bones.seat.${table}`)); } catch { return null; }
  },
  // `invite`: the link friends join by (a private table's carries its secret).
  set(table, seat, token, invite) {
    localStorage.setItem(`bones.seat.${table}`, JSON.stringify({ seat, token, invite }));
  },
};

// What opens a private table's finished game to this browser, as headers (never in the
// address): the seat's token kept here, and the invite's secret from the page's fragment
// or from the invite link kept with the seat.
export function gameSecrets(table) {
  const seat = seats.get(table);
  const fragment = (link) => new URLSearchParams((link || "").split("#")[1] || "").get("invite");
  const invite = fragment(location.hash) || fragment(seat?.invite);
  return { ...(seat?.token ? { "bones-seat": seat.token } : {}), ...(invite ? { "bones-invite": invite } : {}) };
}

// A finished game's `part` (record, analysis...), read with what opens a private one.
export function readGame(table, part) {
  return api(`/api/games/${table}/${part}`, undefined, "GET", gameSecrets(table));
}

export class Connection {
  // `table`: a table's id, "lobby" for the lobby's list (`onLobby`), "seek/{ticket}"
  // for a quick match's ticket (`onSeeking`, then `onMatched`), "me" for the
  // player's own notices (`onNotice`, and `onPaired` when a tournament seats them), or
  // "tournament/{id}" for a tournament's page
  // (`onTournament`, and its chat); `onEnd(code)`: the
  // server closed it for good (4401 not signed in, 4403 not yours, 4404 gone, 4409 the
  // seat was opened on another device, 4451 the account is banned).
  constructor(table, token, handlers) {
    Object.assign(this, { table, token, ...handlers });
    this.delay = 250;
    this.closed = false;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // A private table is watched with its invite's secret (the link's fragment). A
    // seat's token or that secret goes in the subprotocol header, never in the URL,
    // which proxies write to their logs.
    const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
    const secret = this.token ? `bones.token.${this.token}` : invite ? `bones.invite.${invite}` : null;
    const offered = ["bones", ...(secret ? [secret] : []), ...(RELEASE ? [`bones.release.${RELEASE}`] : [])];
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${this.table}`, offered);
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.onStatus?.(true);
    };
    ws.onmessage = (event) => {
      this.delay = 250;  // served: the next drop comes back quickly (one turned away at once backs off)
      const message = JSON.parse(event.data);
      if (message.type === "state") this.onState?.(message);
      else if (message.type === "error") this.onError?.(message);
      else if (message.type === "hint") this.onHint?.(message);
      else if (message.type === "rematch") this.onRematch?.(message);
      else if (message.type === "lobby") this.onLobby?.(message);
      else if (message.type === "chat") this.onChat?.(message);
      else if (message.type === "seeking") this.onSeeking?.(message);
      else if (message.type === "matched") this.onMatched?.(message);
      else if (message.type === "notice") this.onNotice?.(message);
      else if (message.type === "tournament") this.onTournament?.(message);
      else if (message.type === "paired") this.onPaired?.(message);
    };
    ws.onclose = (event) => {
      this.onStatus?.(false);
      if (this.closed) return;
      if ([4401, 4403, 4404, 4409, 4451].includes(event.code)) {
        this.onEnd?.(event.code);
        return;
      }
      // Never opened: perhaps no process has this page's release any more; a call finds
      // out (and loads the new release if so).
      if (!opened) api("/api/site").catch(() => null);
      this.retry = setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }

  send(message) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ v: 1, ...message }));
  }

  close() {
    this.closed = true;
    clearTimeout(this.retry);  // a reconnect on its way would draw over the next screen
    this.ws.close();
  }
}
