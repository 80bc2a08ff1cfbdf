// This browser's player key (issue 24, "My games"): made once here with crypto.getRandomValues
// and kept in localStorage; the server learns only its digest. It travels in request bodies
// ("player_key" when a seat is created or taken) and in the X-Player-Key header of the list of
// this player's deals, never in a URL (a URL ends up in logs and histories).
import { store } from "./net.js";

const KEY = "player.key";
const VALID = /^[A-Za-z0-9_-]{16,128}$/; // what the server accepts (DS-26)

function makeKey() {
  const b = new Uint8Array(32);
  crypto.getRandomValues(b);
  let s = "";
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""); // base64url, 43 characters
}

/** The player key of this browser, made on first use. */
export function playerKey() {
  const k = store.get(KEY, null);
  if (typeof k === "string" && VALID.test(k)) return k;
  const made = makeKey();
  store.set(KEY, made);
  return made;
}

/** A create or join body with this browser's player key in it. */
export const withKey = (body) => ({ ...body, player_key: playerKey() });

/** The header that names this player to GET /players/me/deals. */
export const keyHeaders = () => ({ "X-Player-Key": playerKey() });
