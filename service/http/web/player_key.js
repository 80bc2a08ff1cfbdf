// This browser's player key ("My games"): minted by the server (POST /players/keys,
// 128 random bits and the server's tag) on first use and kept in localStorage; the server accepts
// no other key (DS-26), so nobody reads a list by guessing its key. It travels in request bodies
// ("player_key" when a seat is created or taken) and in the X-Player-Key header of the list of
// this player's deals, never in a URL (a URL ends up in logs and histories). A key this browser
// once made itself (43 characters) is replaced by a minted one before it is sent; a key the
// server refuses (DS-26: a store that was reset) is replaced once and the request sent again.
import { api, store } from "./net.js";

const KEY = "player.key";
const MINTED = /^[A-Za-z0-9_-]{44}$/; // what the server mints: 16 random bytes and a 16-byte tag
let minting = null;

async function mintKey() {
  if (!minting) {
    minting = api("/players/keys", { method: "POST" })
      .then((answer) => { store.set(KEY, answer.player_key); return answer.player_key; })
      .finally(() => { minting = null; });
  }
  return minting;
}

/** The player key of this browser, minted by the server on first use. */
export async function playerKey() {
  const k = store.get(KEY, null);
  if (typeof k === "string" && MINTED.test(k)) return k;
  return mintKey();
}

/** `send(key)` with this browser's key; once more with a newly minted key if the server
 * refuses the key (DS-26). */
export async function withPlayerKey(send) {
  try {
    return await send(await playerKey());
  } catch (e) {
    if (!(e.problem && e.problem.rule === "DS-26")) throw e;
    store.set(KEY, null);
    return send(await mintKey());
  }
}

/** A create or join request with this browser's player key in its body. */
export const postWithKey = (path, options, body) =>
  withPlayerKey((key) => api(path, { ...options, method: "POST", body: { ...body, player_key: key } }));

/** The header that names this player to GET /players/me/deals. */
export const keyHeaders = (key) => ({ "X-Player-Key": key });
