// dealstream web table: lobby, table (Paohuzi / MCR), replay viewer, rules pages, settings.
import { t, setLang, getLang, LANGS, isRtl } from "./i18n.js";
import { pieceHtml, phKindFromName, phKindLabel, mcTileName, phCardName, hasCjk } from "./cards.js";
import { fairnessCheck, parseLog } from "./fair.js";
import { RULES, ruleText } from "./rules.js";
import { FANS, fanName } from "./fans.js";

const $ = (sel, root = document) => root.querySelector(sel);
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const app = () => $("#app");

// ------------------------------------------------------------------ storage
const store = {
  get(key, dflt) { try { const v = localStorage.getItem("ds." + key); return v === null ? dflt : JSON.parse(v); } catch { return dflt; } },
  set(key, val) { try { localStorage.setItem("ds." + key, JSON.stringify(val)); } catch { /* private mode */ } },
};

// ------------------------------------------------------------------ HTTP
class Problem extends Error {
  constructor(p) { super(p.detail || p.title || "error"); this.problem = p; }
}
async function api(path, { method = "GET", token, body, timeout = 20000 } = {}) {
  const headers = {};
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
    throw new Problem({ title: t("err.network"), detail: String(e.message || e), rule: "" });
  }
  const type = resp.headers.get("Content-Type") || "";
  if (!resp.ok) {
    let p = { title: resp.statusText, status: resp.status, detail: "" };
    try { p = type.includes("json") ? await resp.json() : { ...p, detail: await resp.text() }; } catch { /* keep */ }
    throw new Problem(p);
  }
  return type.includes("application/json") ? resp.json() : resp.text();
}

// ------------------------------------------------------------------ messages (refusals, info)
function toast(html, kind = "error") {
  const el = $("#toast");
  el.className = "toast " + kind;
  el.innerHTML = html + ` <button type="button" class="close" aria-label="${t("close")}">×</button>`;
  el.hidden = false;
  $(".close", el).onclick = () => { el.hidden = true; };
  clearTimeout(toast.timer);
  if (kind !== "error") toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
}
function showProblem(err, game) {
  const p = err.problem || { detail: String(err.message || err) };
  const rule = p.rule ? `<span class="rule-id">${esc(p.rule)}</span>` : "";
  const explain = p.rule && ruleText(game, p.rule) ? `<div class="explain">${esc(ruleText(game, p.rule))}</div>` : "";
  toast(`<strong>${t("refused")}</strong> ${rule} <span class="detail">${esc(p.detail || p.title)}</span>${explain}`, "error");
}

// one polite live region outside the re-rendered table, so screen readers hear each move once
function announce(text) {
  const el = $("#announce");
  if (el && text) el.textContent = text;
}

// ------------------------------------------------------------------ visual settings
const SETTINGS = ["contrast", "grain", "temperature"];
function applySettings() {
  const v = Object.fromEntries(SETTINGS.map((k) => [k, store.get("set." + k, 50)]));
  const contrast = 0.6 + (v.contrast / 100) * 0.8; // 50 % -> 1.0
  document.body.style.setProperty("--contrast", contrast.toFixed(3));
  $("#stage").style.filter = `contrast(${contrast.toFixed(3)})`;
  $("#grain").style.opacity = ((v.grain / 100) * 0.7).toFixed(3);
  const temp = (v.temperature - 50) / 50; // -1 cool .. +1 warm
  const a = Math.abs(temp) * 0.5;
  $("#tint").style.backgroundColor = temp >= 0 ? `rgba(255, 140, 40, ${a.toFixed(3)})` : `rgba(60, 140, 255, ${a.toFixed(3)})`;
  for (const k of SETTINGS) {
    const input = $("#set-" + k);
    if (input) { input.value = v[k]; $("#out-" + k).textContent = v[k] + " %"; }
  }
}
function bindSettings() {
  for (const k of SETTINGS) {
    $("#set-" + k).addEventListener("input", (e) => { store.set("set." + k, Number(e.target.value)); applySettings(); });
  }
  $("#set-reset").onclick = () => { for (const k of SETTINGS) store.set("set." + k, 50); applySettings(); };
  $("#settings-toggle").onclick = () => {
    const panel = $("#settings");
    panel.hidden = !panel.hidden;
    $("#settings-toggle").setAttribute("aria-expanded", String(!panel.hidden));
  };
}

// ------------------------------------------------------------------ chrome (header, language)
function renderChrome() {
  document.documentElement.lang = getLang();
  document.documentElement.dir = isRtl() ? "rtl" : "ltr";
  document.title = t("app.title");
  $("#brand").textContent = t("app.title");
  $("#nav-lobby").textContent = t("nav.lobby");
  $("#nav-rules-ph").textContent = t("nav.rules.paohuzi");
  $("#nav-rules-mcr").textContent = t("nav.rules.mcr");
  $("#lang-label").textContent = t("language");
  $("#settings-toggle").textContent = t("settings");
  $("#settings-title").textContent = t("settings.title");
  for (const k of SETTINGS) $("#lbl-" + k).textContent = t("settings." + k);
  $("#set-reset").textContent = t("settings.reset");
  $("#skip").textContent = t("skip");
  const sel = $("#lang");
  sel.innerHTML = LANGS.map(([code, name]) => `<option value="${code}"${code === getLang() ? " selected" : ""}>${name}</option>`).join("");
}

// ------------------------------------------------------------------ seats and names
const SEATS = { paohuzi: 3, mcr: 4 };
function seatName(kinds, i, me) {
  if (i === me) return t("you");
  const k = (kinds && kinds[i]) || "";
  if (k.startsWith("bot:")) return t("seat.bot", { n: i, level: t("level." + k.slice(4)) });
  return t("seat.human", { n: i });
}
function pieceName(game, id) { return game === "paohuzi" ? phCardName(id) : mcTileName(id); }

// ------------------------------------------------------------------ lobby
function renderLobby() {
  const game = store.get("lobby.game", "paohuzi");
  const seats = store.get("lobby.seats." + game, null) || defaultSeats(game);
  const seed = store.get("lobby.seed", null) || randomSeed();
  store.set("lobby.seed", seed);
  const seatRows = seats.map((kind, i) => `
    <div class="seat-choice">
      <label for="seat-${i}">${t("seat.n", { n: i })}${i === 0 ? " · " + t("you") : ""}</label>
      <select id="seat-${i}" data-seat="${i}">
        ${["human", "bot:greedy", "bot:random"].map((k) => `<option value="${k}"${k === kind ? " selected" : ""}>${k === "human" ? t("human") : t("bot.level", { level: t("level." + k.slice(4)) })}</option>`).join("")}
      </select>
    </div>`).join("");
  const resume = store.get("last", null);
  app().innerHTML = `
  <section class="lobby card-panel" aria-labelledby="lobby-title">
    <h1 id="lobby-title">${t("lobby.title")}</h1>
    <p class="lead">${t("lobby.lead")}</p>
    <fieldset class="games"><legend>${t("lobby.game")}</legend>
      ${["paohuzi", "mcr"].map((g) => `<label class="game-choice ${g === game ? "chosen" : ""}"><input type="radio" name="game" value="${g}"${g === game ? " checked" : ""}>
        <span class="game-icon">${g === "paohuzi" ? pieceHtml("paohuzi", 73) + pieceHtml("paohuzi", 6) : pieceHtml("mcr", 16) + pieceHtml("mcr", 128)}</span>
        <span><strong>${t("game." + g)}</strong><small>${t("game." + g + ".short")}</small></span></label>`).join("")}
    </fieldset>
    <fieldset class="seats"><legend>${t("lobby.seats")}</legend>${seatRows}</fieldset>
    <div class="seed-row">
      <label for="client-seed">${t("lobby.seed")}</label>
      <input id="client-seed" value="${esc(seed)}" maxlength="200" spellcheck="false" aria-describedby="seed-help">
      <button type="button" id="new-seed" class="secondary">${t("lobby.newseed")}</button>
      <p id="seed-help" class="help">${t("lobby.seedhelp")}</p>
    </div>
    <div class="actions"><button type="button" id="start" class="primary">${t("lobby.start")}</button>
      ${resume ? `<a class="button secondary" id="resume" href="#/play/${esc(resume.deal)}/${resume.seat}">${t("lobby.resume")}</a>` : ""}</div>
  </section>
  <section class="card-panel recent" aria-labelledby="recent-title">
    <h2 id="recent-title">${t("lobby.recent")}</h2>
    <form id="open-replay" class="seed-row"><label for="replay-id">${t("lobby.replayid")}</label>
      <input id="replay-id" spellcheck="false" placeholder="0123456789abcdef"><button class="secondary">${t("lobby.openreplay")}</button></form>
    <ul id="recent-list" class="recent-list"><li>…</li></ul>
  </section>`;
  for (const r of app().querySelectorAll('input[name="game"]')) {
    r.onchange = () => { store.set("lobby.game", r.value); renderLobby(); };
  }
  for (const s of app().querySelectorAll("select[data-seat]")) {
    s.onchange = () => {
      const cur = [...app().querySelectorAll("select[data-seat]")].map((x) => x.value);
      store.set("lobby.seats." + game, cur);
    };
  }
  $("#client-seed").oninput = (e) => store.set("lobby.seed", e.target.value);
  $("#new-seed").onclick = () => { store.set("lobby.seed", randomSeed()); renderLobby(); };
  $("#start").onclick = () => startDeal(game);
  $("#open-replay").onsubmit = (e) => { e.preventDefault(); const id = $("#replay-id").value.trim(); if (id) location.hash = "#/replay/" + id; };
  loadRecent();
}
function defaultSeats(game) { return game === "paohuzi" ? ["human", "bot:greedy", "bot:greedy"] : ["human", "bot:greedy", "bot:greedy", "bot:greedy"]; }
function randomSeed() {
  const b = new Uint8Array(8); crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
async function loadRecent() {
  try {
    const { deals } = await api("/deals?count=8");
    const list = $("#recent-list");
    if (!list) return;
    list.innerHTML = deals.length ? deals.map((d) => {
      const id = typeof d === "string" ? d : d.deal_id;
      const game = typeof d === "object" && d.game ? t("game." + d.game) : "";
      return `<li><a href="#/replay/${esc(id)}">${esc(id)}</a> <span class="muted">${esc(game)}</span></li>`;
    }).join("") : `<li class="muted">${t("lobby.norecent")}</li>`;
  } catch { const list = $("#recent-list"); if (list) list.innerHTML = ""; }
}
async function startDeal(game) {
  const seats = [...app().querySelectorAll("select[data-seat]")].map((x) => x.value);
  const clientSeed = $("#client-seed").value;
  if (!clientSeed.trim()) { toast(t("lobby.seedneeded"), "error"); return; }
  const btn = $("#start"); btn.disabled = true;
  try {
    const allBots = !seats.includes("human");
    const created = await api("/deals", { method: "POST", body: { game, seats, client_seed: clientSeed } });
    store.set("tokens." + created.deal_id, created.tokens);
    store.set("seed." + created.deal_id, clientSeed);
    store.set("lobby.seed", randomSeed());
    if (allBots) { location.hash = "#/replay/" + created.deal_id; return; }
    const seat = Number(Object.keys(created.tokens).sort()[0]);
    const token = created.tokens[String(seat)];
    await api(`/deals/${created.deal_id}/commands`, { method: "POST", token, body: { command_id: "start-" + randomSeed(), command: { type: "StartDeal", seat, client_seed: clientSeed } } });
    store.set("last", { deal: created.deal_id, seat });
    location.hash = `#/play/${created.deal_id}/${seat}`;
  } catch (e) { showProblem(e, game); btn.disabled = false; }
}

// ------------------------------------------------------------------ table models
function modelFromSeatView(game, v, kinds) {
  if (game === "paohuzi") {
    return {
      game, n: 3, me: v.seat, kinds, dealer: v.dealer, faceUp: v.face_up, started: v.dealer !== null,
      // once the deal is over every seat's cards and kan are shown (PH-7.3)
      hands: [0, 1, 2].map((i) => (i === v.seat ? v.hand : v.result && v.result.hands && v.result.hands.length ? v.result.hands[i] : v.concealed[i])),
      kans: [0, 1, 2].map((i) => (i === v.seat ? v.kans : v.result && v.result.kans && v.result.kans.length ? v.result.kans[i] : [])),
      melds: v.melds, rows: v.rows, stock: v.stock_left, table: v.table, turn: v.turn, window: v.window,
      lastRes: v.last_resolution, dead: v.dead, chou: v.chou, result: v.result, phase: v.phase,
      legal: v.legal_actions || [], prompt: v.prompt, version: v.version, myAnswer: v.my_answer,
    };
  }
  const started = v.seats && v.seats.length > 0;
  return {
    game, n: 4, me: v.seat, kinds, dealer: v.dealer, started,
    winds: started ? v.seats.map((s) => s.wind) : [0, 1, 2, 3],
    // once the deal is over every concealed hand is shown (MC-5.3)
    hands: [0, 1, 2, 3].map((i) => (i === v.seat ? v.hand : v.result && v.result.hands ? v.result.hands[i] : started ? v.seats[i].hand_count : 0)),
    flowers: started ? v.seats.map((s) => s.flowers) : [[], [], [], []],
    melds: started ? v.seats.map((s) => s.melds) : [[], [], [], []],
    discards: started ? v.seats.map((s) => s.discards) : [[], [], [], []],
    wall: v.wall_count, turn: v.turn, window: v.window, drawn: v.drawn, phase: v.phase,
    result: v.result ? { exhausted: v.result.exhausted, win: v.result.win, hands: v.result.hands } : null,
    legal: v.legal_actions || [], prompt: v.prompt, version: v.version, prevailing: v.prevailing_wind,
  };
}
function modelFromFullView(game, f, kinds) {
  if (game === "paohuzi") {
    return {
      game, n: 3, me: null, kinds, dealer: f.dealer >= 0 ? f.dealer : null, faceUp: f.face_up >= 0 ? f.face_up : null,
      started: f.dealer >= 0, hands: f.hands, kans: f.kans, melds: f.melds, rows: f.rows, stock: f.stock.length,
      table: f.table === null || f.table === undefined ? null : { card: f.table, source: null, seat: null },
      turn: null, window: null, lastRes: null, dead: f.dead, chou: [], result: f.result, phase: f.phase, legal: [],
    };
  }
  const started = f.hands && f.hands.length > 0;
  return {
    game, n: 4, me: null, kinds, dealer: f.dealer, started, winds: started ? f.seat_winds : [0, 1, 2, 3],
    hands: started ? f.hands : [0, 0, 0, 0], flowers: started ? f.flowers : [[], [], [], []],
    melds: started ? f.melds : [[], [], [], []], discards: started ? f.discards : [[], [], [], []],
    wall: f.wall_count, turn: f.turn, window: f.window, drawn: null, phase: f.phase,
    result: f.phase === "over" ? { exhausted: f.exhausted, win: f.result, hands: f.hands } : null, legal: [],
  };
}

// position of seat i around the table, seen from `bottom`
function position(n, bottom, i) {
  const rel = (i - (bottom ?? 0) + n) % n;
  if (n === 3) return ["bottom", "right", "left"][rel];
  return ["bottom", "right", "top", "left"][rel];
}

function piecesHtml(game, ids, cls = "") {
  return ids.map((id) => pieceHtml(game, id, { cls })).join("");
}
function backsHtml(game, count, cls = "") {
  const shown = Math.min(count, 8);
  let h = "";
  for (let i = 0; i < shown; i++) h += pieceHtml(game, null, { back: true, cls });
  return h;
}

function meldHtml(game, m) {
  if (game === "paohuzi") {
    return `<span class="meld" role="group" aria-label="${t("meld." + m.meld)}: ${m.cards.map(phCardName).join(", ")}"><span class="meld-tag">${t("meld." + m.meld)}</span>${piecesHtml(game, m.cards, "sm")}</span>`;
  }
  const hidden = m.kind === "concealed_kong" && (!m.tiles || !m.tiles.length);
  const tiles = hidden ? backsHtml(game, 4, "sm") : piecesHtml(game, m.tiles, "sm");
  const label = t("meld." + m.kind) + (hidden ? "" : ": " + m.tiles.map(mcTileName).join(", "));
  return `<span class="meld" role="group" aria-label="${esc(label)}"><span class="meld-tag">${t("meld." + m.kind)}</span>${tiles}</span>`;
}

function seatHtml(m, i) {
  const pos = position(m.n, m.bottom ?? m.me, i);
  const game = m.game;
  const badges = [];
  if (m.dealer === i) badges.push(`<span class="badge dealer">${t("dealer")}</span>`);
  if (game === "mcr" && m.started) badges.push(`<span class="badge wind">${t("tile.wind" + (m.winds[i] + 1))}</span>`);
  if (m.turn === i && !m.result && m.started) badges.push(`<span class="badge turn">${t("turn")}</span>`);
  if (game === "paohuzi" && m.dead && m.dead[i]) badges.push(`<span class="badge dead">${t("dead")}</span>`);
  const hand = m.hands[i];
  const isMe = i === m.me;
  let handHtml = "";
  if (!isMe) {
    if (Array.isArray(hand)) handHtml = `<div class="open-hand">${piecesHtml(game, hand, "sm")}${game === "paohuzi" && m.kans[i] ? m.kans[i].map((k) => `<span class="meld kan"><span class="meld-tag">${t("meld.kan")}</span>${piecesHtml(game, k, "sm")}</span>`).join("") : ""}</div>`;
    else handHtml = `<div class="backs" aria-label="${t("concealed", { n: hand })}">${backsHtml(game, hand, "xs")}<span class="count">${hand}</span></div>`;
  }
  const melds = (m.melds[i] || []).map((x) => meldHtml(game, x)).join("");
  const row = game === "paohuzi" ? m.rows[i] : m.discards[i];
  const flowers = game === "mcr" && m.flowers[i].length ? `<div class="flowers" aria-label="${t("flowers")}"><span class="meld-tag">${t("flowers")}</span>${piecesHtml(game, m.flowers[i], "xs")}</div>` : "";
  return `<section class="seat seat-${pos}${m.turn === i && !m.result ? " on-turn" : ""}" data-seat="${i}" aria-label="${esc(seatName(m.kinds, i, m.me))}">
    <header><strong>${esc(seatName(m.kinds, i, m.me))}</strong> ${badges.join(" ")}</header>
    ${handHtml}
    ${melds ? `<div class="melds">${melds}</div>` : ""}${flowers}
    <div class="row" aria-label="${t(game === "paohuzi" ? "row" : "discards")}">${row && row.length ? piecesHtml(game, row, "xs") : `<span class="muted">${t(game === "paohuzi" ? "row" : "discards")}: —</span>`}</div>
  </section>`;
}

function centerHtml(m) {
  const game = m.game;
  const parts = [];
  if (!m.started) { parts.push(`<p class="status">${t("waiting.start")}</p>`); return `<div class="center">${parts.join("")}</div>`; }
  parts.push(`<div class="stock"><span class="stock-pile">${pieceHtml(game, null, { back: true, cls: "sm" })}</span><span id="stock-count">${game === "paohuzi" ? t("stock", { n: m.stock }) : t("wall", { n: m.wall })}</span></div>`);
  if (game === "paohuzi" && m.faceUp !== null && m.faceUp !== undefined) {
    parts.push(`<div class="faceup">${pieceHtml(game, m.faceUp, { cls: "sm" })}<span>${t("faceup", { seat: seatName(m.kinds, m.dealer, m.me) })}</span></div>`);
  }
  if (game === "paohuzi" && m.table) {
    const src = m.table.source ? t("src." + m.table.source, { seat: seatName(m.kinds, m.table.seat, m.me) }) : "";
    parts.push(`<div class="table-card" aria-live="polite">${pieceHtml(game, m.table.card, { cls: "lg" })}<span>${esc(src)}</span></div>`);
  }
  if (game === "mcr" && m.window) {
    parts.push(`<div class="table-card" aria-live="polite">${pieceHtml(game, m.window.card, { cls: "lg" })}<span>${t("src." + (m.window.source === "added_kong" ? "added_kong" : "discard"), { seat: seatName(m.kinds, m.window.source_seat, m.me) })}</span></div>`);
  }
  let status = "";
  if (m.result) status = t("status.over");
  else if (m.prompt === "claim") status = t("status.claim");
  else if (m.prompt) status = t("status.yourturn");
  else if (game === "paohuzi" && m.window !== null && m.window !== undefined) status = m.myAnswer ? t("status.answered") : t("status.window");
  else if (game === "mcr" && m.window) status = m.window.answer ? t("status.answered") : t("status.window");
  else if (m.turn !== null && m.turn !== undefined) status = t("status.waiting", { seat: seatName(m.kinds, m.turn, m.me) });
  if (status) parts.push(`<p class="status" id="status" aria-live="polite">${esc(status)}</p>`);
  if (game === "paohuzi" && m.lastRes && m.lastRes.seat !== null) {
    parts.push(`<p class="last-res">${t("lastres", { seat: seatName(m.kinds, m.lastRes.seat, m.me), claim: t("claim." + m.lastRes.claim) })} <span class="rule-id">${esc(m.lastRes.rule_id)}</span></p>`);
  }
  return `<div class="center">${parts.join("")}</div>`;
}

function tableHtml(m) {
  const seats = [];
  for (let i = 0; i < m.n; i++) if (i !== m.me) seats.push(seatHtml(m, i));
  return `<div class="felt felt-${m.game} n${m.n}">${seats.join("")}${centerHtml(m)}${m.me !== null ? seatHtml(m, m.me) : ""}</div>`;
}

// ------------------------------------------------------------------ my hand + actions
function groupHand(game, ids) {
  const sorted = [...ids].sort((a, b) => a - b);
  const groups = [];
  const key = game === "paohuzi" ? (id) => (id >> 2) % 10 : (id) => (id >= 136 ? 99 : id < 108 ? Math.floor((id >> 2) / 9) : 3 + ((id >> 2) >= 31 ? 1 : 0));
  // Paohuzi: one column per rank (small and big together); MCR: one group per suit / honours
  if (game === "paohuzi") sorted.sort((a, b) => ((a >> 2) % 10) - ((b >> 2) % 10) || a - b);
  for (const id of sorted) {
    const k = key(id);
    if (!groups.length || groups[groups.length - 1].k !== k) groups.push({ k, ids: [] });
    groups[groups.length - 1].ids.push(id);
  }
  return groups;
}

function myHandHtml(m, ctx) {
  if (m.me === null || !m.started) return "";
  const hand = m.hands[m.me];
  const discardable = new Set(m.legal.filter((a) => a.type === "Discard").map((a) => (m.game === "paohuzi" ? a.card : a.tile)));
  const groups = groupHand(m.game, hand);
  const sel = ctx.selected;
  const cards = groups.map((g) => `<span class="hand-group">${g.ids.map((id) => {
    const ok = discardable.has(id);
    const drawn = (m.game === "mcr" && m.drawn === id) || (m.game === "paohuzi" && m.faceUp === id);
    return pieceHtml(m.game, id, {
      tag: "button",
      cls: `${ok ? "can" : ""}${sel === id ? " selected" : ""}${drawn ? " drawn" : ""}`,
      attrs: `type="button" data-card="${id}" aria-pressed="${sel === id}" ${ok ? "" : 'aria-disabled="true"'}`,
    });
  }).join("")}</span>`).join("");
  const kans = m.game === "paohuzi" && m.kans[m.me].length
    ? `<div class="kans" aria-label="${t("meld.kan")}">${m.kans[m.me].map((k) => `<span class="meld kan" role="group" aria-label="${t("meld.kan")}: ${phKindLabel(k[0] >> 2)}"><span class="meld-tag">${t("meld.kan")}</span>${piecesHtml(m.game, k, "sm")}</span>`).join("")}</div>` : "";
  const chou = m.game === "paohuzi" && m.chou && m.chou.length ? `<p class="chou">${t("chou")}: ${m.chou.map((k) => phKindLabel(phKindFromName(k))).join(", ")} <span class="rule-id">PH-6.7</span></p>` : "";
  return `<div class="my-hand" role="toolbar" aria-label="${t("yourhand")}" id="my-hand">${cards}</div>${kans}${chou}`;
}

function actionLabel(game, a) {
  if (game === "paohuzi") {
    if (a.type === "Chi") {
      return a.groups.map((g, i) => `<span class="chi-group"><em>${i === 0 ? t("claim.chi") : t("bi")}</em>${g.map((k) => pieceHtml("paohuzi", phKindFromName(k) * 4, { cls: "xs" })).join("")}</span>`).join("");
    }
    return esc(t("claim." + a.type.toLowerCase()));
  }
  if (a.type === "Claim") return `<em>${t("claim." + a.claim)}</em>${piecesHtml("mcr", a.tiles, "xs")}`;
  if (a.type === "ConcealedKong") return `<em>${t("claim.concealed_kong")}</em>${piecesHtml("mcr", a.tiles, "xs")}`;
  if (a.type === "AddedKong") return `<em>${t("claim.added_kong")}</em>${piecesHtml("mcr", [a.tile], "xs")}`;
  if (a.type === "DeclareWin") return `<em>${t("claim.selfdrawn")}</em>`;
  return esc(t("claim." + a.type.toLowerCase()));
}
function actionAria(game, a) {
  if (game === "paohuzi" && a.type === "Chi") return t("claim.chi") + ": " + a.groups.map((g, i) => (i ? t("bi") + " " : "") + g.map((k) => phKindLabel(phKindFromName(k))).join(" ")).join("; ");
  if (a.type === "Claim") return t("claim." + a.claim) + ": " + a.tiles.map(mcTileName).join(", ");
  if (a.type === "ConcealedKong") return t("claim.concealed_kong") + ": " + a.tiles.map(mcTileName).join(", ");
  if (a.type === "AddedKong") return t("claim.added_kong") + ": " + mcTileName(a.tile);
  if (a.type === "DeclareWin") return t("claim.selfdrawn");
  return t("claim." + a.type.toLowerCase());
}

function actionsHtml(m, ctx) {
  if (m.me === null || m.result) return "";
  const out = [];
  if (m.prompt === "start") {
    const seed = store.get("seed." + ctx.deal, null) || store.get("lobby.seed", randomSeed());
    out.push(`<div class="prompt" role="group" aria-label="${t("prompt.start")}"><p>${t("prompt.start")}</p>
      <label for="start-seed">${t("lobby.seed")}</label> <input id="start-seed" value="${esc(seed)}">
      <button type="button" class="primary" id="do-start">${t("lobby.start")}</button></div>`);
    return out.join("");
  }
  const others = m.legal.map((a, i) => [a, i]).filter(([a]) => a.type !== "Discard")
    .sort(([a], [b]) => (a.type === "Pass") - (b.type === "Pass")); // claims first, pass last
  const discards = m.legal.filter((a) => a.type === "Discard");
  if (others.length) {
    const head = m.prompt === "claim" ? t("prompt.claim", { card: pieceName(m.game, m.game === "paohuzi" ? m.table?.card : m.window?.card) }) : t("prompt.options");
    out.push(`<div class="prompt" role="group" aria-labelledby="prompt-head"><p id="prompt-head">${esc(head)}</p><div class="options">
      ${others.map(([a, i]) => `<button type="button" class="option ${a.type === "Pass" ? "secondary" : "primary"}" data-action="${i}" data-kind="${a.type}${a.claim ? ":" + a.claim : ""}" aria-label="${esc(actionAria(m.game, a))}">${actionLabel(m.game, a)}</button>`).join("")}
    </div></div>`);
  }
  if (discards.length) {
    const sel = ctx.selected;
    const selOk = sel !== null && discards.some((a) => (m.game === "paohuzi" ? a.card : a.tile) === sel);
    out.push(`<div class="prompt discard-prompt"><p>${t(selOk ? "prompt.confirm" : "prompt.discard")}</p>
      <button type="button" class="primary" id="confirm" ${selOk ? "" : "disabled"}>${selOk ? t("discard.this", { card: pieceName(m.game, sel) }) : t("discard")}</button>
      ${selOk ? `<button type="button" class="secondary" id="unselect">${t("cancel")}</button>` : ""}</div>`);
  }
  return out.join("");
}

// ------------------------------------------------------------------ result sheet + fairness
// a fan in the page's language (fans.js); the calculator's English name when the table lacks it
function fanLabel(f) {
  const lang = FANS[f.name_en]?.[getLang()] ? getLang() : "en";
  const title = lang === "en" ? "" : ` title="${esc(f.name_en)}"`;
  return `<span class="fan-name" lang="${lang}"${title}>${esc(fanName(f, lang))}</span>`;
}
function resultHtml(m, ctx) {
  if (!m.result) return "";
  const game = m.game;
  const name = (i) => esc(seatName(m.kinds, i, m.me));
  let body = "";
  let payments = null;
  if (game === "paohuzi") {
    const r = m.result;
    if (r.outcome === "won") {
      payments = r.payments;
      body = `<p class="verdict">${t("result.won", { seat: seatName(m.kinds, r.winner, m.me) })}${r.heavenly ? " · " + t("result.heavenly") : ""} <span class="rule-id">${esc(r.rule_id)}</span></p>
      ${r.card !== null ? `<p>${t("result.card")}: ${pieceHtml(game, r.card, { cls: "sm" })} ${r.from_seat !== null && r.from_seat !== undefined ? t("result.from", { seat: seatName(m.kinds, r.from_seat, m.me) }) : ""}</p>` : ""}
      <table class="split"><caption>${t("result.split")}</caption><thead><tr><th>${t("result.group")}</th><th>${t("result.cards")}</th><th>${t("result.huxi")}</th></tr></thead><tbody>
      ${r.groups.map((g) => `<tr><td>${t("meld." + g.group)}${g.exposed ? "" : " · " + t("concealed.short")}</td><td>${piecesHtml(game, g.cards, "xs")}</td><td class="num">${g.huxi}</td></tr>`).join("")}
      </tbody><tfoot><tr><th colspan="2">${t("result.huxi")}</th><td class="num" id="res-huxi">${r.huxi}</td></tr><tr><th colspan="2">${t("result.tun")} <span class="rule-id">PH-8.3</span></th><td class="num" id="res-tun">${r.tun}</td></tr></tfoot></table>`;
    } else {
      body = `<p class="verdict">${t("result.drawn")} <span class="rule-id">${esc(r.rule_id)}</span></p>`;
      payments = r.payments;
    }
    if (r.hands && r.hands.length) {
      const kanHtml = (k) => ` <span class="meld kan" role="group" aria-label="${t("meld.kan")}: ${phKindLabel(k[0] >> 2)}"><span class="meld-tag">${t("meld.kan")}</span>${piecesHtml(game, k, "xs")}</span>`;
      body += `<details class="hands" id="res-hands"><summary>${t("result.hands")} <span class="rule-id">PH-7.3</span></summary>${r.hands.map((h, i) => `<div data-seat="${i}"><strong>${name(i)}</strong> ${piecesHtml(game, h, "xs")}${((r.kans && r.kans[i]) || []).map(kanHtml).join("")}</div>`).join("")}</details>`;
    }
  } else {
    const r = m.result;
    if (r.win) {
      const w = r.win;
      payments = w.payments;
      body = `<p class="verdict">${t(w.self_drawn ? "result.selfdrawn" : "result.won", { seat: seatName(m.kinds, w.seat, m.me) })}${w.from_seat !== null && w.from_seat !== undefined ? " · " + t("result.from", { seat: seatName(m.kinds, w.from_seat, m.me) }) : ""}</p>
      <p>${t("result.card")}: ${pieceHtml(game, w.tile, { cls: "sm" })}</p>
      <table class="fans"><caption>${t("result.fans")}</caption><thead><tr><th>${t("result.fan")}</th><th>${t("result.points")}</th></tr></thead><tbody>
      ${w.fans.map((f) => `<tr data-fan="${esc(f.name_en)}"><td>${hasCjk() ? `<span lang="zh">${esc(f.name_zh)}</span> · ` : ""}${fanLabel(f)}${f.count > 1 ? ` ×${f.count}` : ""}</td><td class="num">${f.points * f.count}</td></tr>`).join("")}
      </tbody><tfoot><tr><th>${t("result.fanpoints")} <span class="rule-id">MC-4.3</span></th><td class="num">${w.fan_points}</td></tr><tr><th>${t("result.flowerpoints")} <span class="rule-id">MC-2.5</span></th><td class="num">${w.flower_points}</td></tr><tr><th>${t("result.total")}</th><td class="num" id="res-total">${w.total}</td></tr></tfoot></table>`;
    } else {
      body = `<p class="verdict">${t("result.exhausted")} <span class="rule-id">MC-3.6</span></p>`;
      payments = [0, 0, 0, 0];
    }
    if (r.hands) body += `<details class="hands"><summary>${t("result.hands")}</summary>${r.hands.map((h, i) => `<div><strong>${name(i)}</strong> ${piecesHtml(game, h, "xs")}</div>`).join("")}</details>`;
  }
  const pay = payments ? `<table class="payments"><caption>${t("result.payments")} <span class="rule-id">${game === "paohuzi" ? "PH-8.4" : "MC-4.4"}</span></caption><tbody>
    ${payments.map((p, i) => `<tr><th>${name(i)}</th><td class="num ${p > 0 ? "plus" : p < 0 ? "minus" : ""}">${p > 0 ? "+" : ""}${p}</td></tr>`).join("")}</tbody></table>` : "";
  const links = ctx.deal && !ctx.inReplay ? `<p class="links"><a class="button secondary" href="#/replay/${esc(ctx.deal)}" id="to-replay">${t("result.replay")}</a> <a class="button secondary" href="#/">${t("result.again")}</a></p>` : "";
  return `<section class="result card-panel" aria-labelledby="result-title" id="result"><h2 id="result-title">${t("result.title")}</h2>${body}${pay}${links}
    <div class="fair-box">${fairBoxHtml(ctx)}</div></section>`;
}

function fairBoxHtml(ctx) {
  const f = ctx.fair;
  const inputs = f && f.records ? (() => {
    const rev = f.records[f.records.length - 1].data;
    const v = f.inputs || {};
    return `<div class="fair-inputs">
      <label>${t("fair.commitment")} <input readonly value="${esc(f.records[0].data.commitment)}" id="fair-commitment"></label>
      <label>${t("fair.serverseed")} <input id="fair-server" value="${esc(v.server_seed ?? rev.server_seed)}" spellcheck="false"></label>
      <label>${t("fair.clientseed")} <input id="fair-client" value="${esc(v.client_seed ?? rev.client_seed)}" spellcheck="false"></label>
      <label>${t("fair.seed")} <input id="fair-seed" value="${esc(v.seed ?? rev.seed)}" spellcheck="false"></label></div>`;
  })() : "";
  const steps = f && f.report ? `<ol class="fair-steps">${f.report.steps.map((s) => `<li class="${s.ok ? "ok" : "bad"}" data-step="${s.id}"><span aria-hidden="true">${s.ok ? "✔" : "✘"}</span> ${t("fair.step." + s.id)} <code>${esc(String(s.detail).slice(0, 64))}</code> <span class="sr-only">${s.ok ? t("fair.pass") : t("fair.fail")}</span></li>`).join("")}</ol>
    <p id="fair-verdict" class="fair-verdict ${f.report.ok ? "pass" : "fail"}" role="status">${f.report.ok ? t("fair.ok") : t("fair.bad")}</p>` : "";
  return `<h3>${t("fair.title")}</h3><p class="help">${t("fair.help")}</p>${inputs}${steps}
    <button type="button" class="primary" id="fair-run">${f && f.report ? t("fair.again") : t("fair.run")}</button>`;
}

async function runFairness(ctx, rerender) {
  try {
    if (!ctx.fair || !ctx.fair.records) {
      const text = await api(`/deals/${ctx.deal}/log`);
      ctx.fair = { records: parseLog(typeof text === "string" ? text : JSON.stringify(text)) };
    } else {
      ctx.fair.inputs = { server_seed: $("#fair-server").value.trim(), client_seed: $("#fair-client").value, seed: $("#fair-seed").value.trim() };
    }
    ctx.fair.report = await fairnessCheck(ctx.game, ctx.fair.records, ctx.fair.inputs);
  } catch (e) { showProblem(e, ctx.game); }
  rerender();
  const v = $("#fair-verdict"); if (v) v.focus?.();
}

// ------------------------------------------------------------------ play page
let live = null; // the current table's context
function stopLive() {
  if (live) { live.closed = true; if (live.es) live.es.close(); clearInterval(live.poll); }
  live = null;
}

async function renderPlay(deal, seatStr) {
  const tokens = store.get("tokens." + deal, {});
  const seat = Number(seatStr ?? Object.keys(tokens)[0]);
  const token = tokens[String(seat)];
  if (!token) {
    app().innerHTML = `<section class="card-panel"><h1>${t("play.notoken")}</h1><p><a href="#/replay/${esc(deal)}">${t("result.replay")}</a> · <a href="#/">${t("nav.lobby")}</a></p></section>`;
    return;
  }
  const ctx = { deal, seat, token, selected: null, view: null, kinds: null, game: null, closed: false };
  live = ctx;
  store.set("last", { deal, seat });
  app().innerHTML = `<p class="loading">${t("loading")}</p>`;
  try {
    const summary = await api(`/deals/${deal}`);
    ctx.kinds = summary.seats; ctx.game = summary.game;
    await refresh(ctx);
  } catch (e) { showProblem(e, ctx.game); return; }
  if (ctx.closed) return;
  openStream(ctx);
  // a slow safety net under the live stream (a dropped connection, a proxy that buffers SSE)
  ctx.poll = setInterval(() => { if (!ctx.busy && !ctx.over) refresh(ctx); }, 4000);
}

function openStream(ctx) {
  if (ctx.over) return;
  const es = new EventSource(`/deals/${ctx.deal}/events/stream?token=${encodeURIComponent(ctx.token)}&after=${ctx.view ? ctx.view.version : 0}`);
  ctx.es = es;
  es.addEventListener("deal-event", (e) => {
    try { const d = JSON.parse(e.data); if (d.event) announce(describeEvent(ctx.game, d.event, ctx.kinds, ctx.seat)); } catch { /* ignore */ }
    scheduleRefresh(ctx, 200); // cancelled by the `view` message that follows each batch
  });
  es.addEventListener("view", (e) => {
    try {
      const d = JSON.parse(e.data); const v = d.view || d;
      if (v && Array.isArray(v.legal_actions)) {
        clearTimeout(ctx.pending); ctx.pending = null;
        if (!ctx.view || v.version >= ctx.view.version) applyView(ctx, v);
      } else scheduleRefresh(ctx);
    } catch { scheduleRefresh(ctx); }
  });
  es.addEventListener("deal-over", () => { es.close(); scheduleRefresh(ctx); });
  // the store holds less than this page has seen (Redis came back older): start again from it
  es.addEventListener("reset", async () => { es.close(); ctx.view = null; await refresh(ctx); if (!ctx.closed) openStream(ctx); });
}
function scheduleRefresh(ctx, delay = 30) {
  if (ctx.pending) return;
  ctx.pending = setTimeout(() => { ctx.pending = null; refresh(ctx); }, delay);
}
async function refresh(ctx) {
  if (ctx.closed) return;
  try {
    const v = await api(`/deals/${ctx.deal}/view`, { token: ctx.token });
    if (!ctx.view || v.version >= ctx.view.version) applyView(ctx, v);
  } catch (e) { if (!ctx.view) showProblem(e, ctx.game); }
}
function applyView(ctx, v) {
  // views arrive from three places (command answers, the stream, refetches): never go back in time
  if (ctx.closed || (ctx.view && v.version < ctx.view.version)) return;
  const changed = !ctx.view || ctx.view.version !== v.version;
  ctx.view = v;
  const over = ctx.game === "paohuzi" ? !!(v.result && v.result.server_seed) : v.phase === "over";
  if (over && !ctx.over) { ctx.over = true; if (ctx.es) ctx.es.close(); clearInterval(ctx.poll); }
  if (changed || !ctx.rendered) renderTable(ctx);
}

function renderTable(ctx) {
  const m = modelFromSeatView(ctx.game, ctx.view, ctx.kinds);
  const legalDiscards = new Set(m.legal.filter((a) => a.type === "Discard").map((a) => (m.game === "paohuzi" ? a.card : a.tile)));
  if (ctx.selected !== null && !legalDiscards.has(ctx.selected)) ctx.selected = null;
  const focusCard = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : undefined;
  ctx.rendered = true;
  app().innerHTML = `<div class="play-page" data-game="${m.game}" data-version="${m.version}" data-phase="${esc(m.phase)}" data-busy="${ctx.busy ? 1 : 0}">
    <h1 class="sr-only">${t("game." + m.game)}</h1>${otherSeatsHtml(ctx)}
    <div class="table-wrap">${tableHtml(m)}</div>
    <div class="me-zone">${actionsHtml(m, ctx)}${myHandHtml(m, ctx)}</div>
    ${resultHtml(m, ctx)}
  </div>`;
  bindTable(ctx, m);
  if (ctx.busy) for (const b of app().querySelectorAll(".me-zone button")) b.disabled = true;
  if (focusCard !== undefined) { const el = app().querySelector(`[data-card="${focusCard}"]`); if (el) el.focus(); }
  else if (m.prompt === "claim") { const b = app().querySelector("[data-action]"); if (b) b.focus({ preventScroll: true }); }
}

// several human seats in one browser (people sharing a screen, or testing): one link per seat
function otherSeatsHtml(ctx) {
  const seats = Object.keys(store.get("tokens." + ctx.deal, {})).map(Number).filter((s) => s !== ctx.seat);
  if (!seats.length) return "";
  return `<nav class="seat-links" aria-label="${t("play.seats")}">${t("play.seats")}: ${seats.map((s) => `<a href="#/play/${esc(ctx.deal)}/${s}">${esc(t("seat.n", { n: s }))}</a>`).join(" · ")}</nav>`;
}

function bindTable(ctx, m) {
  const root = app();
  for (const b of root.querySelectorAll("[data-action]")) {
    b.onclick = () => send(ctx, m.legal[Number(b.dataset.action)]);
  }
  const options = root.querySelector(".options");
  if (options) {
    options.addEventListener("keydown", (e) => { // ←/→ between claim options, Enter/Space answers
      if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
      const list = [...options.querySelectorAll("button")];
      const i = list.indexOf(document.activeElement);
      if (i < 0) return;
      e.preventDefault();
      const step = (e.key === "ArrowRight" ? 1 : -1) * (isRtl() ? -1 : 1);
      list[(i + step + list.length) % list.length].focus();
    });
  }
  const hand = $("#my-hand");
  if (hand) {
    const buttons = () => [...hand.querySelectorAll("button[data-card]")];
    hand.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-card]");
      if (!b) return;
      const id = Number(b.dataset.card);
      if (b.getAttribute("aria-disabled") === "true") { toast(t("notdiscardable", { card: pieceName(m.game, id) }) + (m.game === "paohuzi" && m.prompt === "discard" ? "" : ""), "info"); return; }
      if (ctx.selected === id) { confirmDiscard(ctx, m); return; }
      ctx.selected = id; renderTable(ctx);
      const again = app().querySelector(`[data-card="${id}"]`); if (again) again.focus();
    });
    hand.addEventListener("keydown", (e) => {
      const list = buttons();
      const i = list.indexOf(document.activeElement);
      if (i < 0) return;
      const fwd = isRtl() ? -1 : 1;
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        e.preventDefault();
        const step = (e.key === "ArrowRight" ? 1 : -1) * fwd;
        list[(i + step + list.length) % list.length].focus();
      } else if (e.key === "Home") { e.preventDefault(); list[0].focus(); } else if (e.key === "End") { e.preventDefault(); list[list.length - 1].focus(); } else if (e.key === "Escape") {
        ctx.selected = null; renderTable(ctx);
      }
    });
  }
  const confirm = $("#confirm");
  if (confirm) confirm.onclick = () => confirmDiscard(ctx, m);
  const unselect = $("#unselect");
  if (unselect) unselect.onclick = () => { ctx.selected = null; renderTable(ctx); };
  const start = $("#do-start");
  if (start) start.onclick = () => {
    const seed = $("#start-seed").value;
    if (!seed.trim()) { toast(t("lobby.seedneeded"), "error"); return; }
    store.set("seed." + ctx.deal, seed);
    send(ctx, { ...m.legal.find((a) => a.type === "StartDeal"), client_seed: seed });
  };
  const fair = $("#fair-run");
  if (fair) fair.onclick = () => runFairness(ctx, () => renderTable(ctx));
}

function confirmDiscard(ctx, m) {
  const sel = ctx.selected;
  const a = m.legal.find((x) => x.type === "Discard" && (m.game === "paohuzi" ? x.card : x.tile) === sel);
  if (!a) return;
  send(ctx, a);
}

async function send(ctx, command) {
  if (ctx.busy) return;
  ctx.busy = true;
  for (const b of app().querySelectorAll(".me-zone button")) b.disabled = true;
  const page = $(".play-page"); if (page) page.dataset.busy = "1";
  try {
    const answer = await api(`/deals/${ctx.deal}/commands`, { method: "POST", token: ctx.token, body: { command_id: "web-" + randomSeed(), command, return_view: true } });
    ctx.selected = null;
    ctx.busy = false;
    if (answer && answer.view && Array.isArray(answer.view.legal_actions)) applyView(ctx, answer.view);
    else await refresh(ctx);
  } catch (e) { ctx.busy = false; showProblem(e, ctx.game); await refresh(ctx); }
  renderTable(ctx);
}
// for tests and the console
window.dealstream = {
  send: (cmd) => live && send(live, cmd),
  state: () => live && { deal: live.deal, version: live.view?.version, over: !!live.over, busy: !!live.busy, closed: !!live.closed, pending: !!live.pending, stream: live.es ? live.es.readyState : null },
};

// ------------------------------------------------------------------ replay viewer
const ICON = {
  first: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M4 4v12M16 4L7 10l9 6z" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>',
  prev: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M14 4L6 10l8 6z" fill="currentColor"/></svg>',
  play: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M6 3l11 7-11 7z" fill="currentColor"/></svg>',
  pause: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M5 3h4v14H5zM11 3h4v14h-4z" fill="currentColor"/></svg>',
  next: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M6 4l8 6-8 6z" fill="currentColor"/></svg>',
  last: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M16 4v12M4 4l9 6-9 6z" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>',
};
async function renderReplay(deal) {
  const tokens = store.get("tokens." + deal, {});
  const ownSeat = Object.keys(tokens).length ? Number(Object.keys(tokens).sort()[0]) : null;
  const ctx = { deal, step: 0, total: 0, perspective: null, playing: null, audit: null, inReplay: true, closed: false };
  live = ctx;
  app().innerHTML = `<p class="loading">${t("loading")}</p>`;
  let summary;
  try { summary = await api(`/deals/${deal}`); } catch (e) { showProblem(e); app().innerHTML = `<section class="card-panel"><h1>${t("replay.title")}</h1><p>${esc(e.message)}</p><a href="#/">${t("nav.lobby")}</a></section>`; return; }
  ctx.game = summary.game; ctx.kinds = summary.seats; ctx.over = summary.over;
  if (!summary.over && ownSeat === null) {
    app().innerHTML = `<section class="card-panel"><h1>${t("replay.title")}</h1><p id="replay-wait">${t("replay.inprogress", { v: summary.version })}</p></section>`;
    ctx.poll = setInterval(async () => {
      if (ctx.closed) return;
      try { const s = await api(`/deals/${deal}`); if (s.over) { clearInterval(ctx.poll); if (!ctx.closed) renderReplay(deal); } else { const p = $("#replay-wait"); if (p) p.textContent = t("replay.inprogress", { v: s.version }); } } catch { /* retry */ }
    }, 500);
    return;
  }
  ctx.token = ownSeat !== null ? tokens[String(ownSeat)] : null;
  ctx.perspective = summary.over ? "all" : String(ownSeat);
  ctx.ownSeat = ownSeat;
  await loadFrame(ctx, summary.version);
  if (summary.over) {
    try { ctx.audit = await api(`/deals/${deal}/audit`); } catch { ctx.audit = null; }
    drawReplay(ctx);
  }
}

async function loadFrame(ctx, step) {
  try {
    const q = `/deals/${ctx.deal}/replay?step=${step}&perspective=${ctx.perspective}`;
    const f = await api(q, { token: ctx.token });
    if (ctx.closed) return;
    ctx.frame = f; ctx.step = f.step; ctx.total = f.total;
    drawReplay(ctx);
  } catch (e) { showProblem(e, ctx.game); }
}

function describeEvent(game, ev, kinds, me) {
  if (!ev) return t("ev.begin");
  const nm = (s) => seatName(kinds, s, me);
  const card = (id) => (id === undefined || id === null ? t("hidden") : pieceName(game, id));
  const key = "ev." + ev.type;
  const p = { seat: ev.seat !== undefined ? nm(ev.seat) : "", card: card(ev.card ?? ev.tile), rule: ev.rule_id || "" };
  switch (ev.type) {
    case "DealStarted": return t(key, { seat: nm(ev.dealer) });
    case "MeldMade": return t(key, { seat: nm(ev.seat), meld: t("meld." + ev.meld), cards: ev.cards.map((c) => card(c)).join(", "), rule: ev.rule_id });
    case "SetClaimed": return t(key, { seat: nm(ev.seat), meld: t("meld." + ev.meld), card: card(ev.card) });
    case "ClaimWindowOpened": return t(key, { window: ev.window, card: card(ev.card), seat: nm(ev.source_seat) });
    case "ClaimAnswered": return t(key, { window: ev.window, seat: nm(ev.seat), answer: t("claim." + ev.answer) });
    case "ClaimWindowResolved": return ev.seat === null ? t("ev.ClaimWindowResolved.none", { window: ev.window, rule: ev.rule_id }) : t(key, { window: ev.window, seat: nm(ev.seat), claim: t("claim." + ev.claim), rule: ev.rule_id });
    case "FlowerReplaced": return t(key, { seat: nm(ev.seat), card: card(ev.flower) });
    case "TilesDealt": return t(key, { seat: nm(ev.seat), n: ev.tiles ? ev.tiles.length : ev.count });
    case "ChouMarked": return t(key, { seat: nm(ev.seat), card: phKindLabel(phKindFromName(ev.kind)) });
    case "DealWon": case "HandWon": return t(key, { seat: nm(ev.seat) });
    default: { const s = t(key, p); return s === key ? ev.type : s; }
  }
}

function claimPanelHtml(ctx) {
  const a = ctx.audit;
  if (!a) return `<p class="muted">${t(ctx.over ? "replay.noaudit" : "replay.auditlater")}</p>`;
  const wins = a.claim_windows || [];
  if (!wins.length) return `<p class="muted">${t("replay.nowindows")}</p>`;
  const game = ctx.game;
  const nm = (s) => seatName(ctx.kinds, Number(s), null);
  const optText = (o) => {
    if (o === "pass") return t("claim.pass");
    if (o.type) return actionAria(game, o);
    return t("claim." + o.claim) + (o.tiles && o.tiles.length ? " (" + o.tiles.map(mcTileName).join(", ") + ")" : "");
  };
  return `<ol class="windows">${wins.map((w) => {
    const res = w.resolution || {};
    const current = ctx.step >= w.opened_at_version && ctx.step <= (res.version ?? w.opened_at_version);
    const opts = Object.entries(w.options || {}).map(([s, list]) => `<li>${esc(nm(s))}: ${list.map((o) => esc(optText(o))).join(" · ")}</li>`).join("");
    const ans = (w.answers || []).map((x) => `<li>${esc(nm(x.seat))} → ${esc(t("claim." + x.answer))}</li>`).join("");
    const verdict = res.seat === null || res.seat === undefined ? t("replay.res.none") : t("replay.res", { seat: nm(res.seat), claim: t("claim." + res.claim) });
    const claims = (w.answers || []).filter((x) => x.answer !== "pass");
    let why;
    if (res.seat === null || res.seat === undefined) why = (w.answers || []).length ? t("replay.why.none") : t("replay.why.nobody");
    else if (claims.length <= 1) why = t("replay.why.only", { seat: nm(res.seat) });
    else {
      const others = claims.filter((x) => x.seat !== res.seat).map((x) => `${nm(x.seat)} (${t("claim." + x.answer)})`).join(", ");
      why = t("replay.why.priority", { seat: nm(res.seat), others });
    }
    return `<li class="window${current ? " current" : ""}${w.consistent ? "" : " inconsistent"}" data-window="${w.window}">
      <button type="button" class="linkish" data-jump="${res.version ?? w.opened_at_version}">${t("replay.window", { n: w.window })}: ${pieceHtml(game, w.card, { cls: "xs" })} ${esc(pieceName(game, w.card))} · ${esc(t("src." + (w.source === "added_kong" ? "added_kong" : w.source), { seat: nm(w.source_seat) }))}</button>
      <div class="why"><strong>${esc(verdict)}</strong> <span class="rule-id">${esc(res.rule_id || "")}</span>
      <p class="why-line">${esc(why)}</p>
      <p class="explain">${esc(ruleText(game, res.rule_id) || "")}</p>
      <details><summary>${t("replay.options")}</summary><ul>${opts}</ul><p>${t("replay.answers")}</p><ul>${ans || `<li>—</li>`}</ul></details>
      <p class="${w.consistent ? "ok" : "bad"}">${w.consistent ? "✔ " + t("replay.consistent") : "✘ " + t("replay.inconsistentmsg")}</p></div></li>`;
  }).join("")}</ol>`;
}

function drawReplay(ctx) {
  if (ctx.closed || !ctx.frame) return;
  const f = ctx.frame;
  const m = f.perspective === "all" ? modelFromFullView(ctx.game, f.view, ctx.kinds) : modelFromSeatView(ctx.game, f.view, ctx.kinds);
  if (f.perspective === "all") m.me = null;
  m.legal = []; m.prompt = null;
  const bottom = f.perspective === "all" ? 0 : Number(f.perspective);
  const persp = [...Array(SEATS[ctx.game]).keys()].map((i) => `<option value="${i}"${String(i) === f.perspective ? " selected" : ""}>${esc(seatName(ctx.kinds, i, null))}</option>`).join("");
  const showResult = m.result && ctx.step === ctx.total;
  const ev = f.event;
  if (ctx.game === "paohuzi" && m.table && ev && ev.card === m.table.card && (ev.type === "CardRevealed" || ev.type === "CardDiscarded")) {
    m.table = { card: ev.card, source: ev.type === "CardRevealed" ? "reveal" : "discard", seat: ev.seat };
  }
  if (ev && typeof ev.seat === "number" && !m.result) m.turn = ev.seat;
  const mm = { ...m, me: null, bottom };
  const felt = `<div class="felt felt-${mm.game} n${mm.n}">${[...Array(mm.n).keys()].map((i) => seatHtml(mm, i)).join("")}${centerHtml(mm)}</div>`;
  const playing = !!ctx.playing;
  app().innerHTML = `<div class="replay-page" data-step="${ctx.step}" data-total="${ctx.total}">
    <h1>${t("replay.title")} <small>${esc(ctx.deal)} · ${t("game." + ctx.game)}</small></h1>
    <div class="replay-controls" role="group" aria-label="${t("replay.controls")}">
      <button type="button" id="rp-first" aria-label="${t("replay.first")}">${ICON.first}</button>
      <button type="button" id="rp-prev" aria-label="${t("replay.prev")}">${ICON.prev}</button>
      <button type="button" id="rp-play" aria-label="${playing ? t("replay.pause") : t("replay.play")}" aria-pressed="${playing}">${playing ? ICON.pause : ICON.play}</button>
      <button type="button" id="rp-next" aria-label="${t("replay.next")}">${ICON.next}</button>
      <button type="button" id="rp-last" aria-label="${t("replay.last")}">${ICON.last}</button>
      <input type="range" id="rp-slider" min="0" max="${ctx.total}" value="${ctx.step}" aria-label="${t("replay.step")}" aria-valuetext="${t("replay.stepof", { n: ctx.step, total: ctx.total })}">
      <output id="rp-step">${t("replay.stepof", { n: ctx.step, total: ctx.total })}</output>
      <label for="rp-persp">${t("replay.perspective")}</label>
      <select id="rp-persp" ${ctx.over ? "" : "disabled"}><option value="all"${f.perspective === "all" ? " selected" : ""}>${t("replay.all")}</option>${persp}</select>
    </div>
    <p class="event-line" id="rp-event">${esc(describeEvent(ctx.game, f.event, ctx.kinds, null))}</p>
    <div class="replay-grid"><div class="table-wrap">${felt}</div>
    <aside class="claims card-panel" aria-labelledby="claims-title"><h2 id="claims-title">${t("replay.claims")}</h2>${claimPanelHtml(ctx)}</aside></div>
    ${showResult ? resultHtml(mm, ctx) : ""}
  </div>`;
  const go = (s) => { s = Math.max(0, Math.min(ctx.total, s)); if (s !== ctx.step) loadFrame(ctx, s); };
  announce(describeEvent(ctx.game, f.event, ctx.kinds, null));
  $("#rp-first").onclick = () => go(0);
  $("#rp-prev").onclick = () => go(ctx.step - 1);
  $("#rp-next").onclick = () => go(ctx.step + 1);
  $("#rp-last").onclick = () => go(ctx.total);
  $("#rp-slider").onchange = (e) => go(Number(e.target.value));
  $("#rp-play").onclick = () => {
    if (ctx.playing) { clearInterval(ctx.playing); ctx.playing = null; drawReplay(ctx); return; }
    if (ctx.step >= ctx.total) ctx.step = -1;
    ctx.playing = setInterval(() => {
      if (ctx.closed || ctx.step >= ctx.total) { clearInterval(ctx.playing); ctx.playing = null; if (!ctx.closed) drawReplay(ctx); return; }
      loadFrame(ctx, ctx.step + 1);
    }, 450);
    drawReplay(ctx);
  };
  $("#rp-persp").onchange = (e) => { ctx.perspective = e.target.value; loadFrame(ctx, ctx.step); };
  for (const b of app().querySelectorAll("[data-jump]")) b.onclick = () => go(Number(b.dataset.jump));
  const fair = $("#fair-run");
  if (fair) fair.onclick = () => runFairness(ctx, () => drawReplay(ctx));
  const page = $(".replay-page");
  page.onkeydown = (e) => {
    if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.target.tagName === "SELECT") return;
    if (e.key === " " && e.target.tagName !== "BUTTON") { e.preventDefault(); $("#rp-play").click(); }
    if (e.key === "ArrowRight" && e.target.type !== "range") go(ctx.step + (isRtl() ? -1 : 1));
    if (e.key === "ArrowLeft" && e.target.type !== "range") go(ctx.step - (isRtl() ? -1 : 1));
  };
}

// ------------------------------------------------------------------ rules pages
function renderRules(game) {
  const g = RULES[game] ? game : "paohuzi";
  const doc = RULES[g][getLang()] || RULES[g].en;
  app().innerHTML = `<article class="rules card-panel" aria-labelledby="rules-title">
    <h1 id="rules-title">${esc(doc.title)}</h1><p class="lead">${esc(doc.intro)}</p>
    ${g === "paohuzi" ? `<div class="sample" aria-hidden="true">${[0, 4, 8, 40, 44, 48, 20, 64, 76].map((c) => pieceHtml("paohuzi", c, { cls: "sm" })).join("")}</div>`
      : `<div class="sample" aria-hidden="true">${[0, 40, 76, 108, 112, 124, 128, 132, 136].map((c) => pieceHtml("mcr", c, { cls: "sm" })).join("")}</div>`}
    <nav class="toc" aria-label="${t("rules.toc")}"><ol>${doc.sections.map((s, i) => `<li><a href="#/rules/${g}/${i}">${esc(s.h)}</a></li>`).join("")}</ol></nav>
    ${doc.sections.map((s, i) => `<section id="sec-${i}"><h2>${esc(s.h)}</h2>${s.p ? `<p>${esc(s.p)}</p>` : ""}<dl>${s.items.map(([id, text]) => `<dt id="${id}"><span class="rule-id">${id}</span></dt><dd>${esc(text)}</dd>`).join("")}</dl></section>`).join("")}
    ${g === "paohuzi" ? `<section><h2>${t("rules.cards")}</h2><ul class="names">${[...Array(20).keys()].map((k) => `<li>${pieceHtml("paohuzi", k * 4, { cls: "xs" })} ${esc(phKindLabel(k))}</li>`).join("")}</ul></section>`
      : `<section><h2>${t("rules.tiles")}</h2><ul class="names">${[...Array(34).keys()].map((k) => `<li>${pieceHtml("mcr", k * 4, { cls: "xs" })} ${esc(mcTileName(k * 4))}</li>`).join("")}${[136, 137].map((k) => `<li>${pieceHtml("mcr", k, { cls: "xs" })} ${esc(mcTileName(k))}</li>`).join("")}</ul></section>`}
  </article>`;
}

// ------------------------------------------------------------------ router
function route() {
  stopLive();
  $("#toast").hidden = true;
  const parts = (location.hash || "#/").slice(2).split("/").filter(Boolean);
  for (const a of document.querySelectorAll("header nav a")) a.removeAttribute("aria-current");
  if (parts[0] === "play" && parts[1]) return renderPlay(parts[1], parts[2]);
  if (parts[0] === "replay" && parts[1]) return renderReplay(parts[1]);
  if (parts[0] === "rules") {
    renderRules(parts[1] || "paohuzi");
    const a = $(parts[1] === "mcr" ? "#nav-rules-mcr" : "#nav-rules-ph"); if (a) a.setAttribute("aria-current", "page");
    if (parts[2] !== undefined) { const s = $("#sec-" + parts[2]); if (s) s.scrollIntoView(); }
    return;
  }
  $("#nav-lobby").setAttribute("aria-current", "page");
  return renderLobby();
}

function init() {
  const saved = store.get("lang", null);
  const browser = (navigator.language || "en").slice(0, 2);
  setLang(saved || (LANGS.some(([c]) => c === browser) ? browser : "en"));
  renderChrome();
  bindSettings();
  applySettings();
  $("#lang").onchange = (e) => {
    setLang(e.target.value); store.set("lang", e.target.value); renderChrome();
    if (live && live.view && !live.inReplay) renderTable(live);
    else if (live && live.inReplay && live.frame) drawReplay(live);
    else route();
  };
  window.addEventListener("hashchange", route);
  route();
}
init();
