// The account panel of the lobby: sign up, sign in (with a password, or a code shown on another
// device), sign out (here or everywhere), and the code for another device. The session is an
// HttpOnly cookie the page never reads; the page only asks GET /accounts/me who is signed in.
// A sign-up or sign-in sends this browser's player key (X-Player-Key), so the games played here
// before join the account. On another device, a seat of the account is opened with
// POST /deals/<id>/my-seat, which hands this device a token of that seat.
import { t } from "./i18n.js";
import { api, esc, $, store, tokensOf } from "./net.js";
import { playerKey } from "./player_key.js";

let account; // undefined: not asked yet; else a promise of null (nobody signed in) or {name, ratings}

/** Who is signed in (asked once per page load, and again after every change). */
export function currentAccount() {
  if (account === undefined) account = api("/accounts/me").catch(() => null);
  return account;
}

function problemText(err) {
  const p = err && err.problem;
  if (!p) return t("acct.failed");
  const rule = p.rule || "";
  const known = { "DS-35": "acct.wrong", "DS-36": "acct.taken", "DS-37": "acct.short", "DS-38": "acct.slow", "TB-1.3": "acct.badname" };
  return known[rule] ? t(known[rule]) : `${p.title || ""} ${p.detail || ""}`.trim();
}

async function keyHeader() {
  try { return { "X-Player-Key": await playerKey() }; } catch { return {}; }
}

/** The panel, drawn into the lobby (filled by bindAccountPanel). */
export function accountPanelHtml() {
  return `<section class="card-panel account" aria-labelledby="acct-title" id="account">
    <h2 id="acct-title">${esc(t("acct.title"))}</h2>
    <div id="acct-body" aria-busy="true"><p class="muted">…</p></div>
    <p id="acct-note" role="status" class="muted"></p></section>`;
}

function signedOutHtml() {
  return `<p class="help">${esc(t("acct.help"))}</p>
    <form id="acct-form" class="acct-form">
      <label for="acct-name">${esc(t("acct.name"))}</label>
      <input id="acct-name" autocomplete="username" maxlength="24" spellcheck="false">
      <label for="acct-password">${esc(t("acct.password"))}</label>
      <input id="acct-password" type="password" autocomplete="current-password" minlength="8">
      <button id="acct-signin" type="submit">${esc(t("acct.signin"))}</button>
      <button id="acct-signup" type="button" class="secondary">${esc(t("acct.signup"))}</button>
    </form>
    <form id="acct-code-form" class="acct-form">
      <label for="acct-code">${esc(t("acct.codelabel"))}</label>
      <input id="acct-code" autocomplete="one-time-code" spellcheck="false" placeholder="XXXXX-XXXXX">
      <button id="acct-code-go" type="submit" class="secondary">${esc(t("acct.codesignin"))}</button>
    </form>`;
}

function signedInHtml(me) {
  return `<p id="acct-who">${esc(t("acct.signedin", { name: me.name }))}</p>
    <p><a id="acct-ratings" href="#/player/${encodeURIComponent(me.name)}">${esc(t("rate.mine"))}</a> ·
      <a id="acct-board" href="#/ratings">${esc(t("rate.board"))}</a></p>
    <p><button id="acct-device" type="button" class="secondary">${esc(t("acct.newcode"))}</button>
      <button id="acct-signout" type="button" class="secondary">${esc(t("acct.signout"))}</button>
      <button id="acct-signout-all" type="button" class="secondary">${esc(t("acct.signoutall"))}</button></p>
    <p id="acct-code-shown" hidden></p>`;
}

/** Fill the panel and bind its buttons; ``changed()`` redraws what depends on the account. */
export async function bindAccountPanel(changed) {
  const body = $("#acct-body");
  if (!body) return;
  const me = await currentAccount();
  if (!body.isConnected) return; // the page moved on while the account was asked for
  body.removeAttribute("aria-busy");
  const note = (text) => { const el = $("#acct-note"); if (el) el.textContent = text; };
  const after = () => { account = undefined; changed(); };
  if (!me) {
    body.innerHTML = signedOutHtml();
    const send = async (path, payload, ok) => {
      try {
        await api(path, { method: "POST", body: payload, headers: await keyHeader() });
        after();
        return ok;
      } catch (e) { note(problemText(e)); return null; }
    };
    const creds = () => ({ name: $("#acct-name").value, password: $("#acct-password").value });
    $("#acct-form").onsubmit = (e) => { e.preventDefault(); send("/sessions", creds()); };
    $("#acct-signup").onclick = () => send("/accounts", creds());
    $("#acct-code-form").onsubmit = (e) => { e.preventDefault(); send("/sessions", { device_code: $("#acct-code").value }); };
    return;
  }
  body.innerHTML = signedInHtml(me);
  $("#acct-signout").onclick = async () => { try { await api("/sessions/current", { method: "DELETE" }); } catch { /* gone already */ } after(); };
  $("#acct-signout-all").onclick = async () => { try { await api("/sessions", { method: "DELETE" }); } catch { /* gone already */ } after(); };
  $("#acct-device").onclick = async () => {
    try {
      const made = await api("/accounts/me/device-codes", { method: "POST" });
      const shown = $("#acct-code-shown");
      shown.hidden = false;
      shown.innerHTML = `${esc(t("acct.codeis", { minutes: Math.round(made.expires_in / 60) }))} <strong id="acct-code-value" dir="ltr">${esc(made.device_code)}</strong>`;
    } catch (e) { note(problemText(e)); }
  };
}

/** A token of the account's seat of ``deal`` for this device, kept beside the others this
 * browser holds; null when nobody is signed in or the account does not sit there. */
export async function seatFromAccount(deal, seatStr) {
  const held = tokensOf(deal);
  if (seatStr !== undefined ? held[String(Number(seatStr))] : Object.keys(held).length) return null;
  if (!(await currentAccount())) return null;
  try {
    const mine = await api(`/deals/${encodeURIComponent(deal)}/my-seat`, { method: "POST" });
    if (seatStr !== undefined && Number(seatStr) !== mine.seat) return null;
    store.set("tokens." + deal, { ...held, [String(mine.seat)]: mine.token });
    return mine;
  } catch { return null; }
}
