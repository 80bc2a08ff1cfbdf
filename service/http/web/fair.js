// The fairness check (docs/design.md, the shuffle) done in the browser with crypto.subtle and BigInt.
import { gameUi } from "./registry.js";

export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-f]/i.test(hex)) throw new Error("not hex");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}
export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
export async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}
function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

const U64 = 1n << 64n;

// sha256(seed || counter_be64) blocks read as 8-byte big-endian words.
class SeedStream {
  constructor(seed) { this.seed = seed; this.counter = 0n; this.words = []; }
  async next() {
    if (!this.words.length) {
      const ctr = new Uint8Array(8);
      new DataView(ctr.buffer).setBigUint64(0, this.counter, false);
      this.counter += 1n;
      const block = await sha256(concat(this.seed, ctr));
      const dv = new DataView(block.buffer);
      for (let i = 0; i < 4; i++) this.words.push(dv.getBigUint64(i * 8, false));
    }
    return this.words.shift();
  }
  async uniform(n) {
    const N = BigInt(n);
    const limit = (U64 / N) * N;
    for (;;) {
      const x = await this.next();
      if (x < limit) return Number(x % N);
    }
  }
}

export async function dealerAndDeck(seed, size, seats) {
  const s = new SeedStream(seed);
  const dealer = await s.uniform(seats);
  const deck = Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const j = await s.uniform(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return { dealer, deck };
}

export function parseLog(text) {
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

export const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

// What the log says was dealt, compared with the deck the seed gives (each game's own
// compareDeal, games/*.js). Returns [ok, detail].
function compareDeal(game, records, dealer, deck) {
  return gameUi(game).compareDeal(records.map((r) => r.data), dealer, deck);
}

// The client seed as the check's input shows it: one seed as it is; with several people
// (TB-3.1) every seed in seat order, as a JSON list.
export function clientSeedText(revealed) {
  return Array.isArray(revealed.client_seeds) ? JSON.stringify(revealed.client_seeds) : revealed.client_seed;
}

// TB-3.1: one person: sha256(server_seed || utf8(seed)), as always; several people:
// sha256(server_seed || sha256(utf8(seed_1)) || sha256(utf8(seed_2)) || ...), in seat order.
async function dealSeed(serverSeed, clientSeed, several) {
  const utf8 = (s) => new TextEncoder().encode(s);
  if (!several) return sha256(concat(serverSeed, utf8(clientSeed)));
  let seeds;
  try { seeds = JSON.parse(clientSeed); } catch { seeds = null; }
  if (!Array.isArray(seeds) || !seeds.every((s) => typeof s === "string")) seeds = [String(clientSeed)];
  let all = serverSeed;
  for (const s of seeds) all = concat(all, await sha256(utf8(s)));
  return sha256(all);
}

// Runs every step; `inputs` lets the player (or a test) change the revealed values.
export async function fairnessCheck(game, records, inputs) {
  const created = records[0].data;
  const revealed = records[records.length - 1].data;
  const started = records.find((r) => r.data.type === "DealStarted");
  const serverSeedHex = inputs?.server_seed ?? revealed.server_seed;
  const clientSeed = inputs?.client_seed ?? clientSeedText(revealed);
  const seedHex = inputs?.seed ?? revealed.seed;
  const steps = [];
  let serverSeed;
  try { serverSeed = hexToBytes(serverSeedHex); } catch { serverSeed = null; }
  if (!serverSeed) {
    steps.push({ id: "commitment", ok: false, detail: "server seed is not hex" });
    return { ok: false, steps, commitment: created.commitment };
  }
  const commit = bytesToHex(await sha256(serverSeed));
  steps.push({ id: "commitment", ok: commit === created.commitment, detail: commit });
  const seed = await dealSeed(serverSeed, clientSeed, Array.isArray(revealed.client_seeds));
  const seedOk = bytesToHex(seed) === String(seedHex).toLowerCase();
  steps.push({ id: "seed", ok: seedOk, detail: bytesToHex(seed) });
  const size = gameUi(game).deckSize, seats = gameUi(game).seats;
  const { dealer, deck } = await dealerAndDeck(seed, size, seats);
  const dealerOk = started ? started.data.dealer === dealer : false;
  steps.push({ id: "dealer", ok: dealerOk, detail: String(dealer) });
  const [dealOk, detail] = compareDeal(game, records, dealer, deck);
  steps.push({ id: "deck", ok: dealOk, detail, deck });
  return { ok: steps.every((s) => s.ok), steps, commitment: created.commitment, deck };
}
