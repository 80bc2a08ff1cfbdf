// Talking to the server, and what this browser keeps (seat tokens, settings, lobby choices).
import { t } from "./i18n.js";

export const store = {
  get(key, dflt) { try { const v = localStorage.getItem("ds." + key); return v === null ? dflt : JSON.parse(v); } catch { return dflt; } },
  set(key, val) { try { localStorage.setItem("ds." + key, JSON.stringify(val)); } catch { /* private mode */ } },
};

// a refused request: the problem document (RFC 9457) the server answered with
export class Problem extends Error {
  constructor(p) { super(p.detail || p.title || "error"); this.problem = p; }
}

export async function api(path, { method = "GET", token, body, timeout = 20000, headers: extra } = {}) {
  const headers = { ...(extra || {}) };
  if (token) headers.Authorization = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let resp;
  try {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), timeout);
    try {
      resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: ctl.signal });
    } finally { clearTimeout(timer); }
  } catch (e) {
    throw new Problem({ title: t("err.network"), detail: String(e.message || e), rule: "", network: true });
  }
  noteServerTime(resp.headers.get("Date"));
  const type = resp.headers.get("Content-Type") || "";
  if (!resp.ok) {
    let p = { title: resp.statusText, status: resp.status, detail: "" };
    try { p = type.includes("json") ? await resp.json() : { ...p, detail: await resp.text() }; } catch { /* keep */ }
    throw new Problem(p);
  }
  return type.includes("application/json") ? resp.json() : resp.text();
}

// The server's clock as this browser sees it: deadlines (TB-2.3) are the server's epoch times, and
// a browser whose clock is off by more than the Date header's second of rounding counts from the
// server's. Each answer's Date is at most one round trip old.
let serverOffsetMs = 0;
function noteServerTime(header) {
  const at = header ? Date.parse(header) : NaN;
  if (Number.isNaN(at)) return;
  const off = at - Date.now(); // in [true offset - 1 s - round trip, true offset]
  serverOffsetMs = Math.abs(off) > 2000 ? off + 500 : 0;
}
export function serverNow() { return Date.now() + serverOffsetMs; }

export function randomSeed() {
  const b = new Uint8Array(8); crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

export const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
export const $ = (sel, root = document) => root.querySelector(sel);

// the seat tokens this browser holds for a deal, and the first of its seats
export function tokensOf(deal) { return store.get("tokens." + deal, {}) || {}; }
export function ownSeat(deal) {
  const seats = Object.keys(tokensOf(deal)).map(Number).sort((a, b) => a - b);
  return seats.length ? seats[0] : null;
}
