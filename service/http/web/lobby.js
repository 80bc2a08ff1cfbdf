// The lobby (#/): the game, who sits where (bot levels as GET /games lists them, or a seat left
// open for a friend), the pace, the clock, the seed; open tables to join, deals in progress to
// watch and finished deals to replay.
import { t } from "./i18n.js";
import { games as registered, gameUi } from "./registry.js";
import { api, store, esc, $, randomSeed } from "./net.js";
import { enterDeal } from "./play.js";
import { toast, showProblem } from "./ui.js";
import { NAME_MAX, nameProblem, openTablesHtml } from "./people.js";
import { postWithKey } from "./player_key.js";
import { matchChoiceHtml, bindMatchChoice, matchRequest } from "./matches.js";
import { myGamesHtml, loadMyGames } from "./mygames.js";
import { accountPanelHtml, bindAccountPanel } from "./account.js";
import { quickPlayHtml, bindQuickPlay } from "./quickplay.js";

const PACES = ["slow", "normal", "fast"];
// TB-2.1: the server's defaults for a deal with people, and its bounds
const CLOCK = { move_s: [20, 2, 600], claim_s: [10, 2, 600], bank_s: [60, 0, 600] };
let games = null; // GET /games, once per page load
let refreshTimer = null;
export function stopLobby() { clearInterval(refreshTimer); refreshTimer = null; }

async function loadGames() {
  if (games) return games;
  try {
    const answer = await api("/games");
    games = {};
    for (const g of answer.games || []) {
      const levels = Array.isArray(g.levels) && g.levels.length
        ? g.levels
        : (g.bots || []).map((level) => ({ level, default: false, strength: null }));
      if (!levels.some((l) => l.default)) { // an older server names no default: the strongest it has
        const pick = ["strong", "greedy"].find((n) => levels.some((l) => l.level === n)) || (levels[0] && levels[0].level);
        for (const l of levels) l.default = l.level === pick;
      }
      games[g.game] = { seats: g.seats, levels };
    }
  } catch {
    games = null;
  }
  return games;
}

function fallbackGame(game) {
  return { seats: gameUi(game).seats, levels: [{ level: "greedy", default: true, strength: null }, { level: "random", default: false, strength: null }] };
}

function strengthText(l) {
  const s = l.strength;
  const name = t("level." + l.level);
  if (!s) return t("lobby.strength.none", { level: name });
  const f = (x) => (x > 0 ? "+" : "") + Number(x).toFixed(2);
  const [lo, hi] = s.ci95 || [null, null];
  return t("lobby.strength", { level: name, mean: f(s.mean_net_per_deal), unit: t("unit." + (s.unit || "points")), vs: t("level." + (s.vs || "greedy")), lo: lo === null ? "?" : f(lo), hi: hi === null ? "?" : f(hi), walls: s.walls ?? "?" });
}

export async function renderLobby() {
  const asked = location.hash;
  const known = await loadGames();
  if (location.hash !== asked) return; // the page moved on while the games loaded: draw nothing over it
  const stored = store.get("lobby.game", null);
  const game = gameUi(stored) ? stored : registered()[0].name; // the first registered game by default
  const info = (known && known[game]) || fallbackGame(game);
  const levels = info.levels.map((l) => l.level);
  const dflt = (info.levels.find((l) => l.default) || info.levels[0]).level;
  const kinds = ["human", "open", ...levels.map((l) => "bot:" + l)];
  let seats = store.get("lobby.seats." + game, null);
  if (!Array.isArray(seats) || seats.length !== info.seats || seats.some((k) => !kinds.includes(k))) {
    seats = [...Array(info.seats).keys()].map((i) => (i === 0 ? "human" : "bot:" + dflt));
  }
  const pace = PACES.includes(store.get("lobby.pace", "normal")) ? store.get("lobby.pace", "normal") : "normal";
  const seed = store.get("lobby.seed", null) || randomSeed();
  store.set("lobby.seed", seed);
  const seatRows = seats.map((kind, i) => `
    <div class="seat-choice">
      <label for="seat-${i}">${t("seat.n", { n: i })}${i === 0 ? " · " + t("you") : ""}</label>
      <select id="seat-${i}" data-seat="${i}">
        ${kinds.map((k) => `<option value="${k}"${k === kind ? " selected" : ""}>${k === "human" ? t("human") : k === "open" ? esc(t("lobby.openseat")) : esc(t("bot.level", { level: t("level." + k.slice(4)) }))}</option>`).join("")}
      </select>
    </div>`).join("");
  const resume = store.get("last", null);
  const clock = store.get("lobby.clock", null) || {};
  const clockRows = Object.entries(CLOCK).map(([k, [d, lo, hi]]) => `<label class="clock-field" for="clock-${k}">${t("lobby." + k)}
      <input type="number" id="clock-${k}" min="${lo}" max="${hi}" step="1" value="${esc(clock[k] ?? d)}"></label>`).join("");
  document.getElementById("app").innerHTML = `
  <section class="lobby card-panel" aria-labelledby="lobby-title">
    <h1 id="lobby-title">${t("lobby.title")}</h1>
    <p class="lead">${t("lobby.lead")}</p>
    ${quickPlayHtml()}
    <fieldset class="games"><legend>${t("lobby.game")}</legend>
      ${registered().map((ui) => ui.name).map((g) => `<label class="game-choice ${g === game ? "chosen" : ""}"><input type="radio" name="game" value="${g}"${g === game ? " checked" : ""}>
        <span class="game-icon" dir="ltr">${gameUi(g).iconHtml()}</span>
        <span><strong>${t("game." + g)}</strong><small>${t("game." + g + ".short")}</small></span></label>`).join("")}
    </fieldset>
    <fieldset class="seats"><legend>${t("lobby.seats")}</legend>${seatRows}
      <div class="seat-extra">
        <p class="help">${t("lobby.openhelp")} <span class="rule-id">TB-1.1</span></p>
        <span class="name-field"><label for="my-name">${t("lobby.name")}</label> <input id="my-name" maxlength="${NAME_MAX}" autocomplete="nickname" spellcheck="false" value="${esc(store.get("my.name", ""))}"></span>
        <label class="check"><input type="checkbox" id="list-lobby"${store.get("lobby.list", false) ? " checked" : ""}> ${t("lobby.list")}</label>
      </div>
      <details class="strengths"><summary>${t("lobby.levels")}</summary><ul id="strengths">${info.levels.map((l) => `<li data-level="${esc(l.level)}">${esc(strengthText(l))}</li>`).join("")}</ul></details>
    </fieldset>
    <fieldset class="pace"><legend>${t("lobby.pace")}</legend>
      ${PACES.map((p) => `<label class="pace-choice"><input type="radio" name="pace" value="${p}"${p === pace ? " checked" : ""}> ${t("pace." + p)}</label>`).join("")}
      <p class="help">${t("lobby.pacehelp")}</p>
      <label class="check"><input type="checkbox" id="spectators"${store.get("lobby.spectators", false) ? " checked" : ""}> ${t("lobby.spectators")}</label>
      <label class="check"><input type="checkbox" id="rated"> ${t("rate.lobby")} <a href="#/ratings/${esc(game)}">${t("rate.board")}</a></label>
    </fieldset>
    ${matchChoiceHtml(game)}
    <fieldset class="clock" id="clock-set"><legend>${t("lobby.clock")}</legend>
      <label class="check"><input type="checkbox" id="use-clock"${store.get("lobby.useclock", false) ? " checked" : ""}> ${t("lobby.useclock")}</label>
      ${clockRows}
      <p class="help">${t("lobby.clockhelp")} <span class="rule-id">TB-2.1</span></p>
    </fieldset>
    <div class="seed-row">
      <label for="client-seed">${t("lobby.seed")}</label>
      <input id="client-seed" value="${esc(seed)}" maxlength="200" spellcheck="false" aria-describedby="seed-help">
      <button type="button" id="new-seed" class="secondary">${t("lobby.newseed")}</button>
      <p id="seed-help" class="help">${t("lobby.seedhelp")}</p>
    </div>
    <div class="actions"><button type="button" id="start" class="primary">${t("lobby.start")}</button>
      ${resume ? `<a class="button secondary" id="resume" href="#/play/${esc(resume.deal)}/${resume.seat}">${t("lobby.resume")}</a>` : ""}</div>
  </section>
  <section class="card-panel recent" aria-labelledby="open-title">
    <h2 id="open-title">${t("open.title")}</h2>
    <ul id="open-list" class="deal-list"><li class="muted">…</li></ul>
    <h2 id="live-title">${t("lobby.live")}</h2>
    <ul id="live-list" class="deal-list"><li class="muted">…</li></ul>
    <h2 id="recent-title">${t("lobby.recent")}</h2>
    <form id="open-replay" class="seed-row"><label for="replay-id">${t("lobby.replayid")}</label>
      <input id="replay-id" spellcheck="false" placeholder="0123456789abcdef"><button class="secondary">${t("lobby.openreplay")}</button></form>
    <ul id="recent-list" class="deal-list"><li>…</li></ul>
  </section>
  <section class="card-panel" aria-labelledby="tn-lobby-title"><h2 id="tn-lobby-title">${esc(t("tn.lobby"))}</h2>
    <p class="help">${esc(t("tn.lobbyhelp"))}</p><a class="button secondary" id="tn-new-link" href="#/tournament/new">${esc(t("tn.new"))}</a></section>
  ${accountPanelHtml()}
  ${myGamesHtml()}`;
  for (const r of document.querySelectorAll('input[name="game"]')) {
    r.onchange = () => { store.set("lobby.game", r.value); renderLobby(); };
  }
  for (const r of document.querySelectorAll('input[name="pace"]')) r.onchange = () => store.set("lobby.pace", r.value);
  $("#spectators").onchange = (e) => store.set("lobby.spectators", e.target.checked);
  for (const s of document.querySelectorAll("select[data-seat]")) {
    s.onchange = () => store.set("lobby.seats." + game, [...document.querySelectorAll("select[data-seat]")].map((x) => x.value));
  }
  $("#client-seed").oninput = (e) => store.set("lobby.seed", e.target.value);
  $("#my-name").oninput = (e) => store.set("my.name", e.target.value);
  $("#list-lobby").onchange = (e) => store.set("lobby.list", e.target.checked);
  $("#use-clock").onchange = (e) => store.set("lobby.useclock", e.target.checked);
  for (const k of Object.keys(CLOCK)) $("#clock-" + k).oninput = () => store.set("lobby.clock", clockValue());
  $("#new-seed").onclick = () => { store.set("lobby.seed", randomSeed()); renderLobby(); };
  bindMatchChoice(game);
  bindQuickPlay();
  $("#start").onclick = () => startDeal(game);
  $("#open-replay").onsubmit = (e) => { e.preventDefault(); const id = $("#replay-id").value.trim(); if (id) location.hash = "#/replay/" + id; };
  loadDeals();
  loadMyGames();
  bindAccountPanel(() => { const y = window.scrollY; renderLobby(); window.scrollTo(0, y); });
  stopLobby();
  refreshTimer = setInterval(loadDeals, 5000);
}

function clockValue() {
  return Object.fromEntries(Object.keys(CLOCK).map((k) => [k, Number($("#clock-" + k).value)]));
}

async function loadOpenTables() {
  const list = $("#open-list");
  if (!list) return;
  let tables;
  try { ({ tables } = await api("/lobby?count=20")); } catch { tables = null; }
  if ($("#open-list")) $("#open-list").innerHTML = tables ? openTablesHtml(tables) : "";
}

async function loadDeals() {
  loadOpenTables();
  let deals;
  try { ({ deals } = await api("/deals?count=40")); } catch { deals = null; }
  const live = $("#live-list");
  const done = $("#recent-list");
  if (!live || !done) { stopLobby(); return; }
  if (!deals) { live.innerHTML = ""; done.innerHTML = ""; return; }
  const row = (d, href, action) => {
    const when = d.created_ms ? new Date(d.created_ms).toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" }) : "";
    return `<li data-deal="${esc(d.deal_id)}"><a href="${href}${esc(d.deal_id)}">${esc(action)}</a> <span>${esc(d.game ? t("game." + d.game) : "")}</span> <bdi class="deal-id">${esc(d.deal_id)}</bdi> <span class="muted">${esc(when)}</span></li>`;
  };
  const going = deals.filter((d) => !d.over && d.spectators); // listed to join is not open to watch
  const over = deals.filter((d) => d.over).slice(0, 12);
  live.innerHTML = going.length ? going.map((d) => row(d, "#/watch/", t("lobby.watch"))).join("") : `<li class="muted">${t("lobby.nolive")}</li>`;
  done.innerHTML = over.length ? over.map((d) => row(d, "#/replay/", t("lobby.openreplay"))).join("") : `<li class="muted">${t("lobby.norecent")}</li>`;
}

async function startDeal(game) {
  const seats = [...document.querySelectorAll("select[data-seat]")].map((x) => x.value);
  const clientSeed = $("#client-seed").value;
  if (!clientSeed.trim()) { toast(t("lobby.seedneeded"), "error"); return; }
  const pace = (document.querySelector('input[name="pace"]:checked') || {}).value || "normal";
  const spectators = $("#spectators").checked;
  const btn = $("#start"); btn.disabled = true;
  try {
    const allBots = !seats.includes("human") && !seats.includes("open");
    const body = { game, seats, client_seed: clientSeed, pace }; // sent with this browser's key: "My games" lists it
    const match = matchRequest(game); // a match (TB-5): POST /matches, whose answer is its first deal's
    if (spectators && !allBots) body.spectators = true;
    if ($("#rated").checked) body.rated = true; // signed in: its person seat, house bots and open seats for accounts (DS-41)
    const open = seats.includes("open");
    const name = $("#my-name").value;
    if (name && !allBots) {
      if (nameProblem(name)) { toast(esc(t("join.badname")) + ' <span class="rule-id">TB-1.3</span>', "error"); btn.disabled = false; return; }
      body.name = name;
    }
    if (open && $("#list-lobby").checked) body.lobby = true;
    if (open || $("#use-clock").checked) body.clock = clockValue(); // TB-2.1: with people always
    if (match) Object.assign(body, match);
    const path = match ? "/matches" : "/deals";
    let created;
    try {
      created = await postWithKey(path, {}, body);
    } catch (e) { // a server without paces: deal without one
      if (!(e.problem && e.problem.rule === "DS-5" && /pace/.test(e.problem.detail || ""))) throw e;
      delete body.pace;
      created = await postWithKey(path, {}, body);
    }
    store.set("lobby.seed", clientSeed);
    if (allBots) {
      store.set("seed." + created.deal_id, clientSeed);
      store.set("lobby.seed", randomSeed());
      location.hash = "#/watch/" + created.deal_id;
      return;
    }
    await enterDeal(created);
  } catch (e) { showProblem(e, game); btn.disabled = false; }
}
