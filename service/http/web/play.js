// The live table: a seat's page (#/play/<deal>/<seat>) and the spectator's (#/watch/<deal>).
// Both follow the deal's event stream from its first event, so the move log is the server's
// log as this viewer may see it, rebuilt the same way after a reload.
import { t } from "./i18n.js";
import { api, store, esc, $, randomSeed, tokensOf, ownSeat } from "./net.js";
import { awayBannerHtml, bindWaitingRoom, clockBadgeHtml, roomLevels, tickClocks, waitingRoomHtml } from "./people.js";
import { LogBook, entryHtml, namer, pieceName } from "./words.js";
import { gameUi } from "./registry.js";
import {
  modelFromSeatView, feltHtml, myHandHtml, actionsHtml, heldPromptHtml, resultHtml, runFairness, keepFairEdits, mySeatHtml, lastActionHtml,
  focusHtml, lastLaid,
} from "./table.js";
import { toast, showProblem, announce } from "./ui.js";
import { tone } from "./sound.js";
import { switchesHtml, autoCommand, setNoCalls, setAutoWin } from "./switches.js";
import { coachOn, setCoach, coachBoxHtml, coachDetailHtml, coachHintHtml } from "./coach.js";
import { mountMatch, drawMatchStrip, matchDealOver, matchLinksHtml, bindMatchLinks } from "./matches.js";
import { postWithKey } from "./player_key.js";
import { mountChat } from "./chat.js";
import { currentAccount } from "./account.js";
import { ratingChangeHtml } from "./ratings.js";

export const HOLD_MS = 2200; // a prompt whose window closed stays at least this long, disabled, with the reason
export const GUARD_MS = 450; // and the prompt after it ignores clicks this long

let live = null; // the current live page
export function currentLive() { return live; }
export function stopLive() {
  if (live) {
    live.closed = true;
    if (live.es) live.es.close();
    clearInterval(live.poll);
    clearInterval(live.ticker);
    clearTimeout(live.holdTimer);
    clearTimeout(live.guardTimer);
    if (live.resize) live.resize.disconnect();
  }
  document.documentElement.style.removeProperty("--me-h");
  document.documentElement.style.removeProperty("--dock-top");
  live = null;
}

const app = () => $("#app");
const app$ = (sel) => app().querySelector(sel);

// ------------------------------------------------------------------ entry points
export async function renderPlay(deal, seatStr) {
  const tokens = tokensOf(deal);
  const seat = seatStr !== undefined ? Number(seatStr) : ownSeat(deal);
  const token = seat !== null ? tokens[String(seat)] : undefined;
  if (!token) {
    app().innerHTML = `<section class="card-panel"><h1>${t("play.notoken")}</h1><p><a href="#/watch/${esc(deal)}">${t("watch.open")}</a> · <a href="#/replay/${esc(deal)}">${t("result.replay")}</a> · <a href="#/">${t("nav.lobby")}</a></p></section>`;
    return;
  }
  store.set("last", { deal, seat });
  await startLive({ deal, seat, token, mode: "play" });
}

export async function renderWatch(deal) {
  await startLive({ deal, seat: null, token: null, mode: "watch" });
}

async function startLive(init) {
  const ctx = { ...init, selected: null, view: null, closed: false, sent: new Set(), hold: null, guardUntil: 0, promptKey: null };
  live = ctx;
  app().innerHTML = `<p class="loading">${t("loading")}</p>`;
  try {
    ctx.summary = await api(`/deals/${ctx.deal}`, { token: ctx.token });
  } catch (e) {
    showProblem(e);
    app().innerHTML = `<section class="card-panel"><h1>${t("watch.missing")}</h1><p><a href="#/">${t("nav.lobby")}</a></p></section>`;
    return;
  }
  if (ctx.closed) return;
  if (ctx.mode === "watch" && !ctx.summary.over && !ctx.summary.spectators) { // its stream is for its seats only (DS-8)
    app().innerHTML = `<section class="card-panel" id="watch-closed"><h1>${esc(t("watch.closed"))}</h1><p><span class="rule-id">DS-8</span> <a href="#/">${t("nav.lobby")}</a></p></section>`;
    return;
  }
  ctx.kinds = ctx.summary.seats; ctx.game = ctx.summary.game; ctx.names = ctx.summary.names || [];
  ctx.coachAllowed = ctx.mode === "play" && !!ctx.summary.coach; // the deal says so at creation (DS-16)
  ctx.log = new LogBook(ctx.game, ctx.kinds, ctx.seat, ctx.names);
  ctx.levels = await roomLevels(ctx.game);
  buildPage(ctx);
  await mountMatch(ctx, () => renderTable(ctx)); // a match's deal: its strip (TB-5)
  if (ctx.closed) return;
  if (ctx.token) await refresh(ctx);
  if (ctx.closed) return;
  openStream(ctx);
  // a slow safety net under the stream (a dropped connection, a proxy that buffers SSE)
  if (ctx.token) ctx.poll = setInterval(() => { if (!ctx.busy && !ctx.over) refresh(ctx); }, 4000);
  ctx.ticker = setInterval(() => tick(ctx), 250);
}

// the clocks count down between views; the person's own sounds once at 5 s left (TB-2.2)
function tick(ctx) {
  if (ctx.closed) return;
  const left = tickClocks();
  const mine = ctx.view && ctx.view.seating && (ctx.view.seating.deadlines || []).find((d) => d.seat === ctx.seat);
  if (left === null || !mine || ctx.over) return;
  const key = mine.wait + ":" + mine.own_deadline_ms;
  if (left <= 5000 && left > 0 && ctx.clockToneKey !== key) {
    ctx.clockToneKey = key;
    tone("clock");
    announce(t("clock.low"));
  }
}

// ------------------------------------------------------------------ the page
function buildPage(ctx) {
  const name = namer(ctx.kinds, ctx.seat);
  const head = ctx.mode === "watch"
    ? `<h1 class="watch-title">${esc(t("watch.title", { game: t("game." + ctx.game) }))} <small><bdi>${esc(ctx.deal)}</bdi></small></h1>
       <p class="muted" id="watch-note">${t("watch.live")}${ownSeat(ctx.deal) !== null ? ` · <a href="#/play/${esc(ctx.deal)}/${ownSeat(ctx.deal)}">${t("watch.play")}</a>` : ""}</p>`
    : `<h1 class="sr-only">${t("game." + ctx.game)}</h1>`;
  const seats = ctx.mode === "play" ? Object.keys(tokensOf(ctx.deal)).map(Number).filter((s) => s !== ctx.seat) : [];
  const links = seats.length ? `<nav class="seat-links" aria-label="${t("play.seats")}">${t("play.seats")}: ${seats.map((s) => `<a href="#/play/${esc(ctx.deal)}/${s}">${esc(t("seat.n", { n: s }))}</a>`).join(" · ")}</nav>` : "";
  const pace = ctx.summary.pace ? ` · ${t("lobby.pace")}: ${t("pace." + ctx.summary.pace)}` : "";
  const rematch = ctx.summary.rematch_of ? ` · ${t("rematch.of")} <a href="#/replay/${esc(ctx.summary.rematch_of)}" id="rematch-of"><bdi>${esc(ctx.summary.rematch_of)}</bdi></a>` : "";
  app().innerHTML = `<div class="play-page" data-game="${ctx.game}" data-mode="${ctx.mode}" data-version="0" data-phase="" data-busy="0" data-armed="1">
    ${head}${links}
    <p class="deal-line muted">${esc(t("game." + ctx.game))} · <bdi>${esc(ctx.deal)}</bdi>${esc(pace)}${rematch}</p>
    <div id="match-slot"></div>
    <div class="play-grid">
      <div class="table-col">
        <div id="result-slot"></div>
        <div id="room-slot"></div>
        <div class="table-wrap" id="table-slot"></div>
      </div>
      <aside class="log-panel card-panel" aria-labelledby="log-title">
        <h2 id="log-title">${t("log.title")}</h2>
        <ol id="move-log" class="move-log" role="log" aria-live="off" aria-relevant="additions" tabindex="0" aria-labelledby="log-title"></ol>
      </aside>
    </div>
    ${ctx.mode === "play" ? `<div class="me-zone" id="me-zone" aria-label="${esc(name(ctx.seat))}"></div>` : ""}
  </div>`;
  fillLog(ctx);
  watchZone(ctx);
  drawMatchStrip(ctx);
  ctx.resultShown = false;
  if (ctx.view) renderTable(ctx);
}

function fillLog(ctx) {
  const ol = $("#move-log");
  if (!ol) return;
  ol.innerHTML = ctx.log.entries.length ? ctx.log.entries.map(entryHtml).join("") : `<li class="muted empty">${t("log.empty")}</li>`;
  ol.scrollTop = ol.scrollHeight;
  // the newest line stays in view (when the panel below grows the log gets shorter) unless the
  // person scrolled up to read
  ctx.logPinned = true;
  ol.addEventListener("scroll", () => { ctx.logPinned = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 12; }, { passive: true });
}
function pinLog(ctx) {
  const ol = $("#move-log");
  if (ol && ctx.logPinned !== false) ol.scrollTop = ol.scrollHeight;
}

function appendLog(ctx, entry) {
  const ol = $("#move-log");
  if (!ol) return;
  const empty = ol.querySelector(".empty");
  if (empty) empty.remove();
  const pinned = ctx.logPinned !== false;
  ol.insertAdjacentHTML("beforeend", entryHtml(entry));
  if (pinned) { ol.scrollTop = ol.scrollHeight; ctx.logPinned = true; }
  const last = $("#last-action");
  if (last) last.textContent = entry.text;
}

// the height of the panel pinned at the bottom (hand, prompt, own seat), for the move log to end
// above it (style.css: --me-h)
function watchZone(ctx) {
  if (ctx.resize) ctx.resize.disconnect();
  const zone = $("#me-zone");
  const page = $(".play-page");
  const set = () => {
    document.documentElement.style.setProperty("--me-h", (zone && !zone.classList.contains("settled") ? zone.offsetHeight : 0) + "px");
    // where the page starts, for the docked column's panel to end at the window's bottom
    if (page) document.documentElement.style.setProperty("--dock-top", Math.round(page.getBoundingClientRect().top + window.scrollY) + "px");
    pinLog(ctx);
  };
  set();
  if (zone && window.ResizeObserver) { ctx.resize = new ResizeObserver(set); ctx.resize.observe(zone); if (page) ctx.resize.observe(page); }
}

// the language changed: the same page, every sentence again
export function relabelLive() {
  if (!live || !live.log) return;
  live.log.retell();
  buildPage(live);
}

// ------------------------------------------------------------------ stream and views
// a seat's stream opens with a single-use ticket, never its token in the URL: URLs
// reach logs. A reconnect the browser makes by itself reuses the spent ticket and is refused:
// the stream then closes, and a new ticket opens it again.
async function openStream(ctx) {
  if (ctx.closed) return;
  let q = "";
  if (ctx.token) {
    try {
      const { ticket } = await api(`/deals/${ctx.deal}/stream-ticket`, { method: "POST", token: ctx.token });
      q = `ticket=${encodeURIComponent(ticket)}&`;
    } catch { setTimeout(() => openStream(ctx), 2000); return; }
    if (ctx.closed) return;
  }
  // resume from the last message's id (version.tag: the server tells a history a rollback made
  // again from the one this page saw), or from the log's last version
  const idVersion = ctx.lastId ? Number(ctx.lastId.split(".")[0]) : -1;
  const after = idVersion >= ctx.log.last ? ctx.lastId : String(ctx.log.last);
  const es = new EventSource(`/deals/${ctx.deal}/events/stream?${q}after=${encodeURIComponent(after)}`);
  ctx.es = es;
  mountChat(ctx, es);
  es.addEventListener("error", () => {
    if (ctx.streamDone) { es.close(); return; } // after the end: the summary's look finds what follows
    if (es.readyState === EventSource.CLOSED && ctx.es === es && !ctx.closed) {
      setTimeout(() => { if (ctx.es === es) openStream(ctx); }, 1000);
    }
  });
  es.addEventListener("deal-event", (e) => {
    if (e.lastEventId) ctx.lastId = e.lastEventId;
    try { const d = JSON.parse(e.data); onEvent(ctx, d.version, d.event); } catch { /* ignore a bad message */ }
    if (ctx.token) scheduleRefresh(ctx, 250); // cancelled by the `view` message that follows each batch
  });
  es.addEventListener("view", (e) => {
    if (e.lastEventId) ctx.lastId = e.lastEventId;
    try {
      const d = JSON.parse(e.data); const v = d.view || d;
      if (v && typeof v.version === "number") {
        clearTimeout(ctx.pending); ctx.pending = null;
        applyView(ctx, v);
      }
    } catch { if (ctx.token) scheduleRefresh(ctx); }
    const ol = $("#move-log"); if (ol) ol.setAttribute("aria-live", "polite"); // the backlog is in: read out what follows
  });
  // at a table of people a seat's stream stays open past the end: the server tells this seat
  // where it sits in the deal that follows (Play again, a match's next deal) with a token of it
  es.addEventListener("deal-over", () => {
    ctx.streamDone = true;
    if (!(ctx.token && peopleDeal(ctx.kinds || []))) es.close();
    if (ctx.token) scheduleRefresh(ctx);
  });
  es.addEventListener("rematch", (e) => { es.close(); onRematchMessage(ctx, e.data); });
  // the store holds less than this page has seen (Redis came back older): start again from it
  es.addEventListener("reset", async () => {
    es.close(); ctx.view = null; ctx.over = false; ctx.lastId = ""; ctx.log.clear(); fillLog(ctx);
    if (ctx.token) await refresh(ctx);
    if (!ctx.closed) openStream(ctx);
  });
  // the server is stopping (a restart): open the stream again, from the last event, on another process
  es.addEventListener("retry", () => { es.close(); if (!ctx.closed) openStream(ctx); });
}

const ROOM_EVENTS = new Set(["SeatReady", "SeatJoined", "SeatFilled"]);
function onEvent(ctx, version, ev) {
  if (!ev) return;
  const entry = ctx.log.add(version, ev);
  if (!entry) return;
  appendLog(ctx, entry);
  // the waiting room reads who is ready from the log: a person's own SeatReady may arrive after
  // the view of its version (the command's answer brought it), which then changes nothing
  if (ROOM_EVENTS.has(ev.type) && ctx.view && version <= ctx.view.version) renderTable(ctx);
  if (ctx.view && version > ctx.view.version) soundFor(ctx, ev); // live moves only, not the backlog
  // only a window closing now holds its prompt: one the log replays (a reload, the backlog of a
  // deal joined late) is older than the view on screen and is history, told in the log
  const now = ctx.view && version > ctx.view.version;
  const holding = ctx.hold && ctx.hold.window === ev.window;
  if (ev.type === "ClaimWindowResolved" && entry.missed && !ctx.sent.has(ev.window) && (now || holding)) {
    const w = ctx.log.window(ev.window) || {};
    startHold(ctx, { window: ev.window, card: w.card, resolution: { ...ev, card: w.card } });
  }
}

function scheduleRefresh(ctx, delay = 30) {
  if (ctx.pending) return;
  ctx.pending = setTimeout(() => { ctx.pending = null; refresh(ctx); }, delay);
}
async function refresh(ctx) {
  if (ctx.closed || !ctx.token) return;
  try {
    const v = await api(`/deals/${ctx.deal}/view`, { token: ctx.token });
    applyView(ctx, v);
  } catch (e) { if (!ctx.view) showProblem(e, ctx.game); }
}

const claimWindow = (game, v) => (v && v.prompt === "claim" ? gameUi(game).claimWindow(v) : null);
const myAnswer = (game, v) => gameUi(game).myAnswer(v);

function applyView(ctx, v) {
  // views arrive from three places (command answers, the stream, refetches): never go back in time
  if (ctx.closed || (ctx.view && v.version < ctx.view.version)) return;
  const prev = ctx.view;
  const changed = !prev || prev.version !== v.version;
  if (ctx.seat !== null && prev && changed) {
    const w = claimWindow(ctx.game, prev);
    if (w !== null && w !== undefined && claimWindow(ctx.game, v) !== w && !ctx.sent.has(w) && !myAnswer(ctx.game, prev)) {
      // the prompt went away without an answer from here: its window closed under the person
      const res = gameUi(ctx.game).closedBy(v, w);
      const card = gameUi(ctx.game).claimCard(prev);
      startHold(ctx, { window: w, card, resolution: res ? { ...res, card } : null }, false);
    }
  }
  // who has a stream open is not in the log: a view of the same version may still change it
  const presence = (x) => JSON.stringify((x && x.seating && x.seating.connected) || []);
  const marks = !prev || presence(prev) !== presence(v);
  ctx.view = v;
  if (v.seating) { // seats are joined and filled before the start: names and kinds follow the view
    ctx.kinds = v.seating.kinds; ctx.names = v.seating.names;
    if (ctx.log.setSeating(ctx.kinds, ctx.names)) { fillLog(ctx); drawMatchStrip(ctx); }
  }
  const over = v.phase === "over" && !!v.result;
  if (over && !ctx.over) {
    ctx.over = true;
    clearInterval(ctx.poll);
    if (ctx.match) matchDealOver(ctx); else loadRematch(ctx);
  }
  if (changed || marks || !ctx.rendered) renderTable(ctx);
}

// ------------------------------------------------------------------ held prompts
function startHold(ctx, info, render = true) {
  if (ctx.seat === null) return;
  if (ctx.hold && ctx.hold.window === info.window) {
    if (info.resolution && !ctx.hold.resolution) ctx.hold.resolution = info.resolution;
    if (render) renderTable(ctx);
    return;
  }
  const shown = ctx.promptShown && ctx.promptShown.window === info.window;
  ctx.hold = { window: info.window, card: info.card, resolution: info.resolution, legal: shown ? ctx.promptShown.legal : [], shown: !!shown };
  clearTimeout(ctx.holdTimer);
  ctx.holdTimer = setTimeout(() => {
    if (!ctx.hold) return;
    ctx.hold.expired = true;
    if (!ctx.closed) renderTable(ctx);
  }, HOLD_MS);
  if (render) renderTable(ctx);
}
// After its moment a held prompt gives way to the next question (or the result); with nothing
// to ask it stays, still disabled, as the last word on that window.
function releaseHold(ctx, m) {
  if (!ctx.hold || !ctx.hold.expired || !(m.prompt || m.result)) return;
  ctx.hold = null;
  ctx.guardUntil = performance.now() + GUARD_MS;
  clearTimeout(ctx.guardTimer);
  ctx.guardTimer = setTimeout(() => { const p = $(".play-page"); if (p) p.dataset.armed = "1"; }, GUARD_MS);
}
const armed = (ctx) => !ctx.hold && performance.now() >= ctx.guardUntil;

// ------------------------------------------------------------------ rendering
function renderTable(ctx) {
  if (ctx.closed || !ctx.view || !$("#table-slot")) return;
  const m = modelFromSeatView(ctx.game, ctx.view, ctx.kinds);
  if (ctx.seat === null) { m.me = null; m.bottom = 0; m.legal = []; m.prompt = null; }
  m.live = !ctx.over;
  const seating = ctx.view.seating || null;
  m.people = ctx.names; m.away = seating ? seating.away : []; m.deadlines = seating && m.live ? seating.deadlines : [];
  // "not connected" only while the deal is being played: before it is dealt the waiting room says
  // who is in, and after the end (between a match's hands too) nobody's stream need be open
  m.connected = seating && m.live && m.started ? seating.connected : null;
  const banked = !!(seating && seating.clock && seating.clock.bank_s > 0);
  m.clockBadge = (d, mine) => clockBadgeHtml(d, mine, banked);
  m.coach = adviceFor(ctx);
  ensureAdvice(ctx);
  releaseHold(ctx, m);
  const latest = ctx.log.latest();
  const lastText = latest ? latest.text : t("last.none");
  m.mineApart = ctx.seat !== null; // the own seat is drawn beside the hand
  m.ownClockApart = m.mineApart; // and its clock once, above the hand
  m.lastText = m.mineApart ? "" : lastText;
  m.lastPiece = m.started ? lastLaid(m, ctx.log.events) : null; // the newest card played, marked
  const legalDiscards = new Set(m.legal.filter((a) => a.type === "Discard").map(gameUi(m.game).actionPiece));
  if (ctx.selected !== null && !legalDiscards.has(ctx.selected)) ctx.selected = null;
  const focusCard = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : undefined;
  ctx.rendered = true;
  const page = $(".play-page");
  page.dataset.version = m.version; page.dataset.phase = m.phase || ""; page.dataset.busy = ctx.busy ? "1" : "0";
  page.dataset.prompt = (ctx.seat !== null && m.prompt) || "";
  page.dataset.held = ctx.hold ? "1" : "0";
  page.dataset.armed = armed(ctx) ? "1" : "0";
  page.classList.toggle("docked", !!$("#me-zone") && !ctx.over); // on a laptop the panel is a column beside the felt (style.css)
  $("#table-slot").innerHTML = feltHtml(m);
  const zone = $("#me-zone");
  if (zone) {
    zone.classList.toggle("settled", !!ctx.over); // after the end the result sheet leads, the hand stops following
    zone.classList.toggle("claiming", m.prompt === "claim" && !ctx.hold); // a short screen draws the hand smaller then
    const mineClock = m.deadlines.find((d) => d.seat === ctx.seat);
    const away = (m.live && m.away.includes(ctx.seat) ? awayBannerHtml() : "")
      + (mineClock ? `<p class="my-clock" id="my-clock">${esc(t("clock.yours"))} ${clockBadgeHtml(mineClock, true)} <span class="rule-id">TB-2.3</span></p>` : "");
    // top to bottom: the card on offer or the newest played and the own seat (a strip of felt),
    // the newest log line, the switches and coach, then the prompt right above the hand
    const board = (m.started ? `<div class="board-strip" dir="ltr">${focusHtml(m)}${mySeatHtml(m)}</div>` : "") + (m.started ? lastActionHtml(lastText) : "");
    const switches = m.started && !ctx.over ? switchesHtml() : "";
    const tools = `<div class="zone-tools">${coachBoxHtml(m, ctx)}${switches}</div>`;
    if (ctx.hold) zone.innerHTML = away + board + tools + heldPromptHtml(m, ctx.hold) + myHandHtml(m, ctx, false);
    else zone.innerHTML = away + board + tools + actionsHtml(m, ctx, store.get("seed." + ctx.deal, null) || store.get("lobby.seed", randomSeed())) + myHandHtml(m, ctx);
    // in the laptop's column a prompt too long for the height draws the hand smaller (style.css)
    zone.classList.remove("tight");
    if (page.classList.contains("docked") && zone.scrollHeight > zone.clientHeight + 1) {
      zone.classList.add("tight");
      const mine = zone.querySelector(".board-strip > .my-seat"); // its row, newest card last, in view
      if (mine) mine.scrollTop = mine.scrollHeight;
    }
    const dock = zone.classList.contains("settled") ? 0 : zone.offsetHeight;
    document.documentElement.style.setProperty("--me-h", dock + "px");
    pinLog(ctx);
  }
  renderResult(ctx, m);
  renderRoom(ctx, m);
  bindTable(ctx, m);
  if (ctx.busy) for (const b of document.querySelectorAll("#me-zone button")) b.disabled = true;
  notePrompt(ctx, m);
  autoStart(ctx, m);
  autoAnswer(ctx, m);
  if (focusCard !== undefined) { const el = app$(`[data-card="${focusCard}"]`); if (el) el.focus({ preventScroll: true }); }
  else if (m.prompt === "claim" && !ctx.hold) { const b = app$("[data-action]"); if (b) b.focus({ preventScroll: true }); }
}

// ------------------------------------------------------------------ the switches and sounds
// "No calls" and "win automatically" answer a prompt at once with an ordinary command, once per
// prompt; never while a held prompt is on screen, never for a spectator.
function autoAnswer(ctx, m) {
  if (ctx.seat === null || ctx.over || ctx.busy || ctx.hold || !m.live) return;
  const key = `${m.prompt}:${m.version}`;
  if (ctx.autoKey === key) return;
  const auto = autoCommand(m, gameUi(m.game).isWin);
  if (!auto) return;
  ctx.autoKey = key;
  setTimeout(async () => {
    if (ctx.closed || ctx.busy || !ctx.view || ctx.view.version !== m.version) { if (ctx.autoKey === key) ctx.autoKey = null; return; }
    announce(t(auto.why));
    await send(ctx, auto.command);
  }, 0);
}

// a discard by someone else and a claim taken sound as they happen (the person's own discard
// sounds on the click)
function soundFor(ctx, ev) {
  if (ev.type === gameUi(ctx.game).discardEvent && ev.seat !== ctx.seat) tone("discard");
  else if (ev.type === "ClaimWindowResolved" && ev.seat !== null && ev.seat !== undefined) tone("call");
}

// ------------------------------------------------------------------ people at the table
const peopleDeal = (kinds) => kinds.includes("open") || kinds.filter((k) => k === "human").length > 1;

// before the start of a deal with several people: who has sat down, invites, bots for open seats
function renderRoom(ctx, m) {
  const slot = $("#room-slot");
  if (!slot) return;
  const seating = ctx.view.seating;
  if (m.started || m.result || !seating || !peopleDeal(seating.kinds) || ctx.seat === null) { slot.innerHTML = ""; return; }
  slot.innerHTML = waitingRoomHtml(ctx, ctx.levels || []);
  bindWaitingRoom(ctx, () => refresh(ctx));
}

// A person who sat down by the lobby or a link sends StartDeal with its seed as soon as the deal
// asks for it (TB-1.4: once no seat is open), so the deal starts when everyone is in.
function autoStart(ctx, m) {
  const seed = store.get("ready." + ctx.deal, null);
  if (m.prompt !== "start" || !seed || ctx.startSent || ctx.busy) return;
  const a = m.legal.find((x) => x.type === "StartDeal");
  if (!a) return;
  ctx.startSent = true;
  setTimeout(async () => {
    await send(ctx, { ...a, client_seed: seed });
    // refused or lost (a network error): the next view that still asks for it sends it again
    if (ctx.view && ctx.view.prompt === "start") ctx.startSent = false;
  }, 0);
}

// ------------------------------------------------------------------ the coach
// The advice shown is the one for the view on screen; a newer view asks again (the server
// keeps one answer per version, so asking is cheap). A refusal (DS-16) hides the coach.
function adviceFor(ctx) {
  const a = ctx.advice;
  return a && ctx.view && a.version === ctx.view.version ? a : null;
}

async function ensureAdvice(ctx) {
  if (!ctx.coachAllowed || !coachOn() || ctx.over || !ctx.view || ctx.closed || !ctx.token) return;
  const want = ctx.view.version;
  if (ctx.advice && ctx.advice.version >= want) return; // a newer view is on its way
  if (ctx.coachFailedAt === want) return; // asked for this version already, and failed
  if (ctx.coachBusy) { ctx.coachAgain = true; return; }
  ctx.coachBusy = true;
  try {
    const a = await api(`/deals/${ctx.deal}/coach`, { token: ctx.token });
    if (!ctx.advice || a.version >= ctx.advice.version) ctx.advice = a;
    ctx.coachError = null;
  } catch (e) {
    if (e.problem && e.problem.rule === "DS-16") ctx.coachAllowed = false;
    else { ctx.coachError = e; ctx.coachFailedAt = want; }
  } finally { ctx.coachBusy = false; }
  ctx.coachAgain = false;
  if (!ctx.closed) renderTable(ctx); // asks again if the view moved on meanwhile
}

function showCoachDetail(ctx, m) {
  const el = $("#coach-detail");
  if (!el) return;
  el.innerHTML = coachDetailHtml(m, m.coach, ctx.coachHover ?? ctx.selected) || coachHintHtml();
}

function bindCoach(ctx, m) {
  const toggle = $("#coach-toggle");
  if (toggle) toggle.onchange = () => { setCoach(toggle.checked); renderTable(ctx); const again = $("#coach-toggle"); if (again) again.focus({ preventScroll: true }); };
  const hand = $("#my-hand");
  if (!hand || !m.coach) return;
  const over = (e) => {
    const b = e.target.closest && e.target.closest("button[data-card]");
    if (!b) return;
    ctx.coachHover = Number(b.dataset.card);
    showCoachDetail(ctx, m);
  };
  const out = () => { ctx.coachHover = null; showCoachDetail(ctx, m); };
  hand.addEventListener("mouseover", over);
  hand.addEventListener("focusin", over);
  hand.addEventListener("mouseleave", out);
  hand.addEventListener("focusout", (e) => { if (!hand.contains(e.relatedTarget)) out(); });
}

// remember what the person is being asked (for a hold), and sound the tone for a new question
function notePrompt(ctx, m) {
  if (ctx.seat === null || ctx.hold) return;
  const w = claimWindow(m.game, m);
  if (m.prompt === "claim") ctx.promptShown = { window: w, legal: m.legal };
  const key = m.prompt ? `${m.prompt}:${m.prompt === "claim" ? "w" + w : "v" + m.version}` : null;
  if (key && key !== ctx.promptKey) {
    ctx.promptKey = key;
    if (m.prompt !== "start") {
      tone("turn"); // a claim offered or the own turn: the table waits on the person
      announce(m.prompt === "claim" ? t("status.claim") : t("status.yourturn"));
    }
  }
  if (!key) ctx.promptKey = null;
}

function renderResult(ctx, m) {
  const slot = $("#result-slot");
  if (!slot) return;
  if (!m.result || !ctx.over) { slot.innerHTML = ""; return; }
  const open = slot.querySelector("#res-hands")?.open;
  keepFairEdits(ctx);
  ctx.resultLinks = resultLinks(ctx);
  slot.innerHTML = resultHtml({ ...m, me: ctx.seat }, ctx);
  if (open) slot.querySelector("#res-hands").open = true;
  if (ctx.ratingLine) slot.querySelector("#result").insertAdjacentHTML("beforeend", ctx.ratingLine);
  const fair = $("#fair-run");
  if (fair) fair.onclick = () => runFairness(ctx, () => renderTable(ctx));
  const again = $("#play-again");
  if (again) again.onclick = () => playAgain(ctx);
  bindMatchLinks(ctx);
  if (!ctx.resultShown) {
    ctx.resultShown = true;
    showRatingChange(ctx);
    slot.querySelector("#result").scrollIntoView({ block: "start" });
    announce(slot.querySelector("#verdict")?.textContent || t("status.over"));
  }
}

/** The signed-in account's rating change on the result sheet, once known (a rated deal only). */
async function showRatingChange(ctx) {
  const me = await currentAccount();
  const line = await ratingChangeHtml(ctx.deal, me && me.name);
  if (!line || ctx.ratingLine) return;
  ctx.ratingLine = line;
  const sheet = $("#result");
  if (sheet && !sheet.querySelector("#rating-change")) sheet.insertAdjacentHTML("beforeend", line);
}

function resultLinks(ctx) {
  if (ctx.match) return matchLinksHtml(ctx); // a match's deal: the next hand or the standings, no rematch
  const parts = [`<a class="button secondary" href="#/replay/${esc(ctx.deal)}" id="to-replay">${t("result.replay")}</a>`];
  const next = ctx.rematchedBy;
  if (next) {
    const seat = ownSeat(next);
    const href = seat !== null ? `#/play/${esc(next)}/${seat}` : `#/watch/${esc(next)}`;
    parts.push(`<a class="button primary" href="${href}" id="rematched-by">${esc(t("rematch.by"))} <bdi>${esc(next)}</bdi></a>`);
  } else if (ctx.token) {
    parts.push(`<button type="button" class="primary" id="play-again">${t("result.playagain")}</button>`);
  }
  parts.push(`<a class="button secondary" href="#/">${t("result.again")}</a>`);
  return `<p class="links">${parts.join(" ")}</p>`;
}

// After the end a seat's page looks for a "Play again" made from another page (a friend's, or
// another tab): at a table of people it follows to the new deal, in its own seat; a spectator
// looks once.
const REMATCH_POLL_MS = 2000;
const REMATCH_LOOK_MS = 30 * 60 * 1000;
const STREAM_GRACE_MS = 15000; // how long the page lets its open stream bring the new seat first
async function loadRematch(ctx) {
  const until = Date.now() + REMATCH_LOOK_MS;
  while (!ctx.closed && !ctx.rematchedBy) {
    try {
      const s = await api(`/deals/${ctx.deal}`, { token: ctx.token });
      // the seat's stream is still open: it names this seat's place in the new deal in a moment
      const streamWaits = ctx.es && ctx.es.readyState !== EventSource.CLOSED;
      if (s.rematched_by && streamWaits && ctx.token && !ctx.match) {
        ctx.rematchSeenAt = ctx.rematchSeenAt || Date.now();
        if (Date.now() - ctx.rematchSeenAt < STREAM_GRACE_MS) { await new Promise((r) => setTimeout(r, 500)); continue; }
      }
      if (s.rematched_by && !ctx.closed && !ctx.following) {
        ctx.rematchedBy = s.rematched_by;
        if (ctx.token && peopleDeal(ctx.kinds) && !ctx.following) await playAgain(ctx);
        else renderTable(ctx);
        return;
      }
    } catch { /* the sheet works without the link */ }
    if (!ctx.token || Date.now() > until) return;
    await new Promise((r) => setTimeout(r, REMATCH_POLL_MS));
  }
}

// "Play again": the same people in the same seats with their names, the same levels and pace,
// the dealer moved on by one (server side). The first seat to ask makes the deal; every other
// seat's request reaches the same deal with its own seat and a token for it.
async function playAgain(ctx) {
  if (ctx.following) return;
  ctx.following = true;
  const btn = $("#play-again"); if (btn) btn.disabled = true;
  try {
    // this browser's player key: the new deal is in "My games" like any deal it creates
    const made = await postWithKey(`/deals/${ctx.deal}/rematch`, { token: ctx.token }, {});
    followRematch(ctx, made);
  } catch (e) {
    ctx.following = false;
    const p = e.problem || {};
    if (p.rematched_by) { // played again already without this seat (DS-15): offer that deal
      ctx.rematchedBy = p.rematched_by;
      const seat = ownSeat(p.rematched_by);
      location.hash = seat !== null ? `#/play/${p.rematched_by}/${seat}` : `#/watch/${p.rematched_by}`;
      return;
    }
    showProblem(e, ctx.game);
    if (btn) btn.disabled = false;
    if (ctx.rematchedBy) renderTable(ctx);
  }
}

// the seat's stream named the deal that follows, with this seat's token of it: a Play again
// follows there in this seat (no request needed); a match's next deal keeps the token for its link
function onRematchMessage(ctx, data) {
  let m;
  try { m = JSON.parse(data); } catch { return; }
  if (!m || typeof m.deal_id !== "string" || typeof m.seat !== "number" || ctx.closed) return;
  if (m.token) store.set("tokens." + m.deal_id, { ...tokensOf(m.deal_id), [String(m.seat)]: m.token });
  if (ctx.match || ctx.following) return;
  ctx.following = true;
  ctx.rematchedBy = m.deal_id;
  followRematch(ctx, { deal_id: m.deal_id, seat: m.seat, tokens: m.token ? { [String(m.seat)]: m.token } : {} });
}

// into the new deal in this seat: every seat token this browser holds of the finished deal holds
// the same seat in the new one; the page deals it with a fresh seed of its own (TB-3.1) as soon
// as every person is in
function followRematch(ctx, made) {
  const next = made.deal_id;
  store.set("tokens." + next, { ...tokensOf(next), ...tokensOf(ctx.deal), ...(made.tokens || {}) });
  const seed = randomSeed();
  store.set("seed." + next, seed);
  store.set("ready." + next, seed);
  const creator = store.get("creator." + ctx.deal, null);
  if (creator !== null) store.set("creator." + next, creator);
  if (made.join_links && Object.keys(made.join_links).length) store.set("invites." + next, made.join_links);
  store.set("last", { deal: next, seat: made.seat });
  location.hash = `#/play/${next}/${made.seat}`;
}

// store a new deal's tokens, deal it with a fresh seed of ours, open the seat; a deal with seats
// left open for others waits for them in the waiting room, and deals when all are in (TB-1.4)
export async function enterDeal(created, preferredSeat = null) {
  const tokens = created.tokens || {};
  store.set("tokens." + created.deal_id, tokens);
  const seats = Object.keys(tokens).map(Number).sort((a, b) => a - b);
  if (!seats.length) { location.hash = "#/watch/" + created.deal_id; return; }
  const seat = seats.includes(preferredSeat) ? preferredSeat : seats[0];
  const seed = store.get("lobby.seed", null) || randomSeed();
  store.set("seed." + created.deal_id, seed);
  store.set("lobby.seed", randomSeed());
  const open = (created.seats || []).includes("open");
  if (open || created.invites) {
    store.set("creator." + created.deal_id, seat);
    store.set("invites." + created.deal_id, created.join_links || {});
    store.set("ready." + created.deal_id, seed);
    store.set("last", { deal: created.deal_id, seat });
    location.hash = `#/play/${created.deal_id}/${seat}`;
    return;
  }
  await api(`/deals/${created.deal_id}/commands`, { method: "POST", token: tokens[String(seat)], body: { command_id: "start-" + randomSeed(), command: { type: "StartDeal", seat, client_seed: seed } } });
  store.set("last", { deal: created.deal_id, seat });
  location.hash = `#/play/${created.deal_id}/${seat}`;
}

// ------------------------------------------------------------------ controls
function bindTable(ctx, m) {
  if (ctx.seat === null) return;
  const zone = $("#me-zone");
  if (!zone) return;
  bindCoach(ctx, m);
  for (const b of zone.querySelectorAll("[data-action]")) {
    if (b.id === "confirm") continue; // the Discard confirm: bound below
    b.onclick = () => { if (armed(ctx) && !b.disabled) send(ctx, m.legal[Number(b.dataset.action)]); };
  }
  const options = zone.querySelector(".options");
  if (options) {
    options.addEventListener("keydown", (e) => { // ←/→ between claim options (the prompt is page chrome: it mirrors)
      if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
      const list = [...options.querySelectorAll("button")];
      const i = list.indexOf(document.activeElement);
      if (i < 0) return;
      e.preventDefault();
      const step = (e.key === "ArrowRight" ? 1 : -1) * (document.documentElement.dir === "rtl" ? -1 : 1);
      list[(i + step + list.length) % list.length].focus();
    });
  }
  const hand = $("#my-hand");
  if (hand && !ctx.hold) {
    const buttons = () => [...hand.querySelectorAll("button[data-card]")];
    hand.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-card]");
      if (!b || !armed(ctx)) return;
      const id = Number(b.dataset.card);
      if (b.getAttribute("aria-disabled") === "true") { toast(esc(t("notdiscardable", { card: pieceName(m.game, id) })), "info"); return; }
      if (ctx.selected === id) { confirmDiscard(ctx, m); return; }
      ctx.selected = id; renderTable(ctx);
      const again = app$(`[data-card="${id}"]`); if (again) again.focus({ preventScroll: true });
    });
    hand.addEventListener("keydown", (e) => {
      const list = buttons();
      const i = list.indexOf(document.activeElement);
      if (i < 0) return;
      // the hand lies as on a real table in every language: → is the next card to the right
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        e.preventDefault();
        const step = e.key === "ArrowRight" ? 1 : -1;
        list[(i + step + list.length) % list.length].focus();
      } else if (e.key === "Home") { e.preventDefault(); list[0].focus(); } else if (e.key === "End") { e.preventDefault(); list[list.length - 1].focus(); } else if (e.key === "Escape") {
        ctx.selected = null; renderTable(ctx);
      }
    });
  }
  const confirm = $("#confirm");
  if (confirm) confirm.onclick = () => { if (armed(ctx)) confirmDiscard(ctx, m); };
  const unselect = $("#unselect");
  if (unselect) unselect.onclick = () => { ctx.selected = null; renderTable(ctx); };
  const noCalls = $("#sw-nocalls");
  if (noCalls) noCalls.onchange = () => { setNoCalls(noCalls.checked); renderTable(ctx); const again = $("#sw-nocalls"); if (again) again.focus({ preventScroll: true }); };
  const autoWin = $("#sw-autowin");
  if (autoWin) autoWin.onchange = () => { setAutoWin(autoWin.checked); renderTable(ctx); const again = $("#sw-autowin"); if (again) again.focus({ preventScroll: true }); };
  const back = $("#im-back");
  if (back) back.onclick = () => send(ctx, { type: "Back", seat: ctx.seat });
  const start = $("#do-start");
  if (start) start.onclick = () => {
    const seed = $("#start-seed").value;
    if (!seed.trim()) { toast(t("lobby.seedneeded"), "error"); return; }
    store.set("seed." + ctx.deal, seed);
    send(ctx, { ...m.legal.find((a) => a.type === "StartDeal"), client_seed: seed });
  };
}

function confirmDiscard(ctx, m) {
  const sel = ctx.selected;
  const a = m.legal.find((x) => x.type === "Discard" && gameUi(m.game).actionPiece(x) === sel);
  if (a) send(ctx, a);
}

async function send(ctx, command) {
  if (ctx.busy || !command) return;
  ctx.busy = true;
  if (command.type === "Discard") tone("discard");
  if (command.window !== undefined) ctx.sent.add(command.window);
  for (const b of document.querySelectorAll("#me-zone button")) b.disabled = true;
  const page = $(".play-page"); if (page) page.dataset.busy = "1";
  try {
    const answer = await api(`/deals/${ctx.deal}/commands`, { method: "POST", token: ctx.token, body: { command_id: "web-" + randomSeed(), command, return_view: true, ...seen(ctx) } });
    ctx.selected = null;
    ctx.busy = false;
    if (answer && answer.view && Array.isArray(answer.view.legal_actions)) applyView(ctx, answer.view);
    else await refresh(ctx);
  } catch (e) { ctx.busy = false; showProblem(e, ctx.game); await refresh(ctx); }
  renderTable(ctx);
}

// TB-2.8: the version the buttons were drawn from, so a click that crossed the table's own move
// for this seat is refused instead of answering a situation the person never saw
function seen(ctx) {
  const v = ctx.view && ctx.view.version;
  return Number.isInteger(v) && v >= 0 ? { seen_version: v } : {};
}

// for tests and the console
export function liveState() {
  const c = live;
  return c && {
    deal: c.deal, version: c.view?.version, over: !!c.over, busy: !!c.busy, closed: !!c.closed, pending: !!c.pending,
    stream: c.es ? c.es.readyState : null, held: !!c.hold, log: c.log ? c.log.entries.length : 0,
  };
}
export function liveSend(cmd) { return live && send(live, cmd); }
