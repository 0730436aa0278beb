// Checks a finished game's deals against the commitment shown before its first move:
// the same steps as bones.fair (and `bones verify`), in the browser.

const ALGORITHM = "bones-fair-v1";
const TILES = [];
for (let high = 0; high <= 6; high += 1) for (let low = 0; low <= high; low += 1) TILES.push(`${high}-${low}`);

const fromHex = (text) => Uint8Array.from(text.match(/../g).map((pair) => parseInt(pair, 16)));
const toHex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
const u32 = (n) => Uint8Array.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);

async function sha256(...parts) {
  const joined = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) { joined.set(part, at); at += part.length; }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", joined));
}

async function order(seed, number) {
  const words = [];
  let block = 0;
  const next = async () => {
    if (words.length === 0) {
      const digest = await sha256(seed, u32(number), u32(block));
      block += 1;
      for (let i = 0; i < 32; i += 4) {
        words.push(((digest[i] << 24) >>> 0) + (digest[i + 1] << 16) + (digest[i + 2] << 8) + digest[i + 3]);
      }
    }
    return words.shift();
  };
  const tiles = [...Array(28).keys()];
  for (let i = 27; i > 0; i -= 1) {
    const bound = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % bound);
    let word = await next();
    while (word >= limit) word = await next();
    const j = word % bound;
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  return tiles;
}

function deal(rules, tiles) {
  const size = rules.hand_size;
  const hands = [];
  for (let seat = 0; seat < rules.players; seat += 1) {
    hands.push(tiles.slice(seat * size, (seat + 1) * size).sort((a, b) => b - a).map((i) => TILES[i]));
  }
  const draws = rules.variant === "draw" || rules.variant === "allfives";
  const boneyard = draws ? tiles.slice(rules.players * size).map((i) => TILES[i]) : [];
  return { hands, boneyard };
}

// The tiles left to draw as the k-th assist of the game, an undo, ordered them.
async function undoOrder(seed, k, tiles) {
  const undo = new TextEncoder().encode("undo");
  const keyed = await Promise.all(tiles.map(async (tile) => [
    toHex(await sha256(seed, undo, u32(k), Uint8Array.of(TILES.indexOf(tile)))), tile]));
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return keyed.map(([, tile]) => tile);
}

// The committed deals as the record lists them: each boneyard in the order its tiles
// were drawn, once the game's undos reordered it.
async function asPlayed(seed, record, promised) {
  const undos = (record.assists || []).map((a, k) => [k, a]).filter(([, a]) => a.kind === "undo");
  if (!undos.length) return promised;
  const counts = record.results.map((r) => r.move_count);
  const starts = [0];
  for (const c of counts) starts.push(starts[starts.length - 1] + c);
  const rounds = record.deals.map((d, n) => [n, d]).filter(([, d]) => !("void" in d)).map(([n]) => n);
  for (const [number, dealt] of rounds.entries()) {
    const mine = undos.filter(([, a]) => a.round === number).map(([k, a]) => [k, a.at]);
    if (!mine.length) continue;
    const end = number < counts.length ? starts[number + 1] : record.moves.length;
    let left = [...promised[dealt].boneyard];
    const drawn = [];
    for (const [at, move] of [...record.moves.slice(starts[number], end), null].entries()) {
      const latest = mine.filter(([, where]) => where <= at);
      if (latest.length) left = await undoOrder(seed, latest[latest.length - 1][0], left);
      if (move === "draw") drawn.push(left.shift());
    }
    promised[dealt].boneyard = [...drawn, ...left];
  }
  return promised;
}

// {ok, deals} or {ok: false, problem}; `shown` is the commitment seen before the game.
export async function verifyRecord(record, shown) {
  const fair = record.fair;
  if (!fair || fair.algorithm !== ALGORITHM) return { ok: false, problem: "no commitment" };
  const seed = fromHex(fair.seed);
  const salt = fromHex(fair.salt);
  const commitment = toHex(await sha256(new TextEncoder().encode(`${ALGORITHM}\n`), salt, seed));
  if (commitment !== fair.commitment) return { ok: false, problem: "seed and salt do not give the commitment" };
  if (shown && shown !== commitment) return { ok: false, problem: "not the commitment shown before the game" };
  const committed = [];
  for (const number of record.deals.keys()) committed.push(deal(record.rules, await order(seed, number)));
  const played = await asPlayed(seed, record, committed);
  for (const [number, stated] of record.deals.entries()) {
    const promised = played[number];
    const same = JSON.stringify(promised.hands) === JSON.stringify(stated.hands)
      && JSON.stringify(promised.boneyard) === JSON.stringify(stated.boneyard);
    if (!same) return { ok: false, problem: `deal ${number + 1} differs` };
  }
  return { ok: true, deals: record.deals.length };
}
