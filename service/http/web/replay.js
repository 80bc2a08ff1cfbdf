// The replay viewer (#/replay/<deal>): one frame per step, a slider, perspectives, and the claim
// windows explained from the audit. Arrow keys work on the whole page, without a focused control.
import { t, isRtl } from "./i18n.js";
import { pieceHtml } from "./cards.js";
import { ruleText } from "./rules.js";
import { api, esc, $, ownSeat, tokensOf } from "./net.js";
import { Describer, namer, pieceName, windowNo, noun } from "./words.js";
import { gameUi } from "./registry.js";
import { modelFromSeatView, modelFromFullView, feltHtml, resultHtml, runFairness, actionAria } from "./table.js";
import { showProblem, announce } from "./ui.js";
import { initReview, stopReview, reviewBarHtml, decisionPanelHtml, sliderMarksHtml, bindReview, jumpMistake } from "./review.js";

let current = null;
export function stopReplay() {
  if (current) {
    current.closed = true;
    clearInterval(current.playing);
    clearInterval(current.poll);
    document.removeEventListener("keydown", current.onKey);
    stopReview(current);
  }
  current = null;
}
export function currentReplay() { return current; }

const ICON = {
  first: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M4 4v12M16 4L7 10l9 6z" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>',
  prev: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M14 4L6 10l8 6z" fill="currentColor"/></svg>',
  play: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M6 3l11 7-11 7z" fill="currentColor"/></svg>',
  pause: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M5 3h4v14H5zM11 3h4v14h-4z" fill="currentColor"/></svg>',
  next: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M6 4l8 6-8 6z" fill="currentColor"/></svg>',
  last: '<svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true"><path d="M16 4v12M4 4l9 6-9 6z" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/></svg>',
};
const app = () => $("#app");

export async function renderReplay(deal, viewer = null) {
  // the viewer's own seat: the one this browser holds a token for, else the seat the link named
  // (My games lists a player key's deals, possibly played in another browser)
  const held = ownSeat(deal);
  const seat = held !== null ? held : Number.isInteger(viewer) ? viewer : null;
  const ctx = { deal, step: 0, total: 0, perspective: null, playing: null, audit: null, inReplay: true, closed: false, ownSeat: seat };
  current = ctx;
  ctx.onKey = (e) => onKey(ctx, e);
  document.addEventListener("keydown", ctx.onKey);
  app().innerHTML = `<p class="loading">${t("loading")}</p>`;
  ctx.token = held !== null ? tokensOf(deal)[String(held)] : null;
  try { ctx.summary = await api(`/deals/${deal}`, { token: ctx.token }); } catch (e) {
    showProblem(e);
    app().innerHTML = `<section class="card-panel"><h1>${t("replay.title")}</h1><p>${esc(e.message)}</p><a href="#/">${t("nav.lobby")}</a></section>`;
    return;
  }
  if (ctx.closed) return;
  const summary = ctx.summary;
  ctx.game = summary.game; ctx.kinds = summary.seats; ctx.over = summary.over;
  if (!summary.over && held === null) {
    app().innerHTML = `<section class="card-panel"><h1>${t("replay.title")}</h1><p id="replay-wait">${t("replay.inprogress", { v: summary.version })}</p>
      <p><a class="button primary" href="#/watch/${esc(deal)}" id="watch-live">${t("watch.open")}</a></p></section>`;
    ctx.poll = setInterval(async () => {
      if (ctx.closed) return;
      try {
        const s = await api(`/deals/${deal}`);
        if (s.over) { clearInterval(ctx.poll); if (!ctx.closed) renderReplay(deal); } else { const p = $("#replay-wait"); if (p) p.textContent = t("replay.inprogress", { v: s.version }); }
      } catch { /* retry */ }
    }, 1000);
    return;
  }
  ctx.perspective = summary.over ? "all" : String(seat);
  // a review changes the marks (redraw) or, when it starts, the perspective (reload the frame)
  initReview(ctx, (reload) => { if (reload) loadFrame(ctx, ctx.step); else drawReplay(ctx); });
  // during the deal the audit shows the windows already closed, with this seat's own part only
  try { ctx.audit = await api(`/deals/${deal}/audit`, { token: ctx.token }); } catch { ctx.audit = null; }
  await loadFrame(ctx, summary.version);
}

async function loadFrame(ctx, step) {
  try {
    const f = await api(`/deals/${ctx.deal}/replay?step=${step}&perspective=${ctx.perspective}`, { token: ctx.token });
    if (ctx.closed) return;
    ctx.frame = f; ctx.step = f.step; ctx.total = f.total;
    drawReplay(ctx);
  } catch (e) { showProblem(e, ctx.game); }
}

// the step's event in words; a step the chosen seat did not see says what kind of step it was
function stepText(ctx) {
  const f = ctx.frame;
  const d = new Describer(ctx.game, ctx.kinds, ctx.ownSeat, ctx.summary && ctx.summary.names);
  for (const w of (ctx.audit && ctx.audit.claim_windows) || []) {
    const me = ctx.ownSeat;
    d.windows[w.window] = {
      card: w.card,
      asked: me !== null && Object.prototype.hasOwnProperty.call(w.options || {}, String(me)),
      answered: me !== null && (w.answers || []).some((a) => a.seat === me),
    };
  }
  if (!f.event) return ctx.step === 0 ? { text: t("ev.begin") } : { text: t("hidden.live") };
  return d.describe(f.event);
}

function claimPanelHtml(ctx) {
  const a = ctx.audit;
  if (!a) return `<p class="muted">${t(ctx.over ? "replay.noaudit" : "replay.auditlater")}</p>`;
  const wins = a.claim_windows || [];
  if (!wins.length) return `<p class="muted">${t("replay.nowindows")}</p>`;
  const game = ctx.game;
  const nm = namer(ctx.kinds, ctx.ownSeat, ctx.summary && ctx.summary.names);
  const optText = (o) => {
    if (o === "pass") return t("claim.pass");
    if (o.type) return actionAria(game, o);
    return t("claim." + o.claim) + (o.tiles && o.tiles.length ? " (" + o.tiles.map((id) => pieceName(game, id)).join(", ") + ")" : "");
  };
  return `<ol class="windows">${wins.map((w) => {
    const res = w.resolution || {};
    const current = ctx.step >= w.opened_at_version && ctx.step <= (res.version ?? w.opened_at_version);
    const answered = new Set((w.answers || []).map((x) => x.seat));
    const unanswered = Array.isArray(w.unanswered) ? w.unanswered : Object.keys(w.options || {}).map(Number).filter((s) => !answered.has(s));
    const opts = Object.entries(w.options || {}).map(([s, list]) => `<li>${esc(nm(Number(s)))}: ${list.map((o) => esc(optText(o))).join(" · ")}</li>`).join("");
    const ans = (w.answers || []).map((x) => `<li>${esc(nm(x.seat))} → ${esc(t("claim." + x.answer))}</li>`).join("");
    const missed = unanswered.map((s) => `<li class="not-answered" data-seat="${s}">${esc(t("replay.notanswered", { seat: nm(s) }))}</li>`).join("");
    const say = (key, seat, p = {}) => t(nm.isMe(seat) ? key + ".you" : key, { ...p, seat: nm(seat) });
    let verdict;
    if (res.seat === null || res.seat === undefined) verdict = t("replay.res.none");
    else if (res.claim === "win") verdict = say("replay.res.win", res.seat);
    else verdict = say("replay.res", res.seat, { claim: noun(res.claim) });
    const claims = (w.answers || []).filter((x) => x.answer !== "pass");
    let why;
    if (res.seat === null || res.seat === undefined) why = (w.answers || []).length ? t("replay.why.none") : t("replay.why.nobody");
    else if (claims.length <= 1) why = say("replay.why.only", res.seat);
    else {
      const others = claims.filter((x) => x.seat !== res.seat).map((x) => `${nm(x.seat)} (${noun(x.answer)})`).join(", ");
      why = say("replay.why.priority", res.seat, { others });
    }
    return `<li class="window${current ? " current" : ""}${w.consistent ? "" : " inconsistent"}" data-window="${w.window}">
      <button type="button" class="linkish" data-jump="${res.version ?? w.opened_at_version}">${esc(t("replay.window", { n: windowNo(game, w.window) }))}: ${pieceHtml(game, w.card, { cls: "xs" })} ${esc(pieceName(game, w.card))} · ${esc(t("src." + (w.source === "added_kong" ? "added_kong" : w.source), { seat: nm.obj(w.source_seat) }))}</button>
      <div class="why"><strong>${esc(verdict)}</strong> <span class="rule-id">${esc(res.rule_id || "")}</span>
      <p class="why-line">${esc(why)}</p>
      ${missed ? `<ul class="unanswered">${missed}</ul>` : ""}
      <p class="explain">${esc(ruleText(game, res.rule_id) || "")}</p>
      <details><summary>${t("replay.options")}</summary><ul>${opts}</ul><p>${t("replay.answers")}</p><ul>${ans || "<li>—</li>"}</ul></details>
      <p class="${w.consistent ? "ok" : "bad"}">${w.consistent ? "✔ " + t("replay.consistent") : "✘ " + t("replay.inconsistentmsg")}</p></div></li>`;
  }).join("")}</ol>`;
}

function linksHtml(ctx) {
  const s = ctx.summary || {};
  const parts = [];
  if (s.rematch_of) parts.push(`${t("rematch.of")} <a href="#/replay/${esc(s.rematch_of)}" id="rp-rematch-of"><bdi>${esc(s.rematch_of)}</bdi></a>`);
  if (s.rematched_by) parts.push(`${t("rematch.by")} <a href="#/replay/${esc(s.rematched_by)}" id="rp-rematched-by"><bdi>${esc(s.rematched_by)}</bdi></a>`);
  return parts.length ? `<p class="rematch-links">${parts.join(" · ")}</p>` : "";
}

export function drawReplay(ctx) {
  if (ctx.closed || !ctx.frame) return;
  const f = ctx.frame;
  const all = f.perspective === "all";
  const m = all ? modelFromFullView(ctx.game, f.view, ctx.kinds) : modelFromSeatView(ctx.game, f.view, ctx.kinds);
  m.me = null; m.legal = []; m.prompt = null;
  m.bottom = all ? (ctx.ownSeat ?? 0) : Number(f.perspective);
  m.you = ctx.ownSeat; m.people = ctx.summary && ctx.summary.names;
  const ev = f.event;
  gameUi(ctx.game).replayStep(m, ev); // what the game's table shows of this step beyond the view
  const said = stepText(ctx);
  m.lastText = "";
  const nm = namer(ctx.kinds, ctx.ownSeat, ctx.summary && ctx.summary.names);
  const persp = [...Array(gameUi(ctx.game).seats).keys()].map((i) => `<option value="${i}"${String(i) === f.perspective ? " selected" : ""}>${esc(nm(i))}</option>`).join("");
  const showResult = m.result && ctx.step === ctx.total;
  const playing = !!ctx.playing;
  const oldPanel = $(".claims");
  const keep = oldPanel ? oldPanel.scrollTop : 0;
  const oldSide = $(".replay-side");
  const keepSide = oldSide ? oldSide.scrollTop : 0;
  const oldList = $("#rv-list");
  const keepList = oldList ? oldList.scrollTop : 0;
  // a review control keeps the focus across the redraw (the step it jumped to is drawn anew)
  const focused = document.activeElement && /^rv-/.test(document.activeElement.id || "") ? document.activeElement.id : null;
  ctx.resultLinks = "";
  app().innerHTML = `<div class="replay-page" data-step="${ctx.step}" data-total="${ctx.total}">
    <h1>${t("replay.title")} <small><bdi>${esc(ctx.deal)}</bdi> · ${t("game." + ctx.game)}</small></h1>
    ${linksHtml(ctx)}
    <div class="replay-controls" role="group" aria-label="${t("replay.controls")}">
      <button type="button" id="rp-first" aria-label="${t("replay.first")}">${ICON.first}</button>
      <button type="button" id="rp-prev" aria-label="${t("replay.prev")}">${ICON.prev}</button>
      <button type="button" id="rp-play" aria-label="${playing ? t("replay.pause") : t("replay.play")}" aria-pressed="${playing}">${playing ? ICON.pause : ICON.play}</button>
      <button type="button" id="rp-next" aria-label="${t("replay.next")}">${ICON.next}</button>
      <button type="button" id="rp-last" aria-label="${t("replay.last")}">${ICON.last}</button>
      <span class="rp-track"><input type="range" id="rp-slider" min="0" max="${ctx.total}" value="${ctx.step}" aria-label="${t("replay.step")}" aria-valuetext="${t("replay.stepof", { n: ctx.step, total: ctx.total })}">${sliderMarksHtml(ctx)}</span>
      <output id="rp-step">${t("replay.stepof", { n: ctx.step, total: ctx.total })}</output>
      <label for="rp-persp">${t("replay.perspective")}</label>
      <select id="rp-persp" ${ctx.over ? "" : "disabled"}><option value="all"${all ? " selected" : ""}>${t("replay.all")}</option>${persp}</select>
    </div>
    <p class="event-line${said.hidden ? " hidden-step" : ""}" id="rp-event">${esc(said.text)}${said.rule ? ` <span class="rule-id">${esc(said.rule)}</span>` : ""}</p>
    ${reviewBarHtml(ctx)}
    <div class="replay-grid"><div class="table-wrap">${feltHtml(m)}</div>
    <div class="replay-side">${decisionPanelHtml(ctx)}
    <aside class="claims card-panel" aria-labelledby="claims-title"><h2 id="claims-title">${t("replay.claims")}</h2>${claimPanelHtml(ctx)}</aside></div></div>
    ${showResult ? resultHtml(m, ctx) : ""}
  </div>`;
  announce(said.text);
  const panel = $(".claims");
  if (panel) {
    panel.scrollTop = keep;
    const cur = panel.querySelector(".window.current");
    if (cur) { // the current window in view inside its panel (the page itself does not move)
      const top = cur.offsetTop;
      if (top < panel.scrollTop || top + cur.offsetHeight > panel.scrollTop + panel.clientHeight) panel.scrollTop = Math.max(0, top - 8);
    }
  }
  const side = $(".replay-side");
  if (side) { // on a wide screen the side column scrolls as one: the current window in view there
    side.scrollTop = keepSide;
    const cur = side.querySelector(".claims .window.current");
    if (cur && !$("#rv-here") && side.scrollHeight > side.clientHeight) {
      const top = cur.getBoundingClientRect().top - side.getBoundingClientRect().top + side.scrollTop;
      if (top < side.scrollTop || top + Math.min(cur.offsetHeight, side.clientHeight) > side.scrollTop + side.clientHeight) side.scrollTop = Math.max(0, top - 8);
    }
  }
  $("#rp-first").onclick = () => go(ctx, 0);
  $("#rp-prev").onclick = () => go(ctx, ctx.step - 1);
  $("#rp-next").onclick = () => go(ctx, ctx.step + 1);
  $("#rp-last").onclick = () => go(ctx, ctx.total);
  $("#rp-slider").onchange = (e) => go(ctx, Number(e.target.value));
  $("#rp-play").onclick = () => togglePlay(ctx);
  $("#rp-persp").onchange = (e) => { ctx.perspective = e.target.value; loadFrame(ctx, ctx.step); };
  for (const b of app().querySelectorAll("[data-jump]")) b.onclick = () => go(ctx, Number(b.dataset.jump), true);
  const fair = $("#fair-run");
  if (fair) fair.onclick = () => runFairness(ctx, () => drawReplay(ctx));
  const list = $("#rv-list");
  if (list) list.scrollTop = keepList;
  bindReview(ctx, go);
  if (focused) { const el = document.getElementById(focused); if (el) el.focus({ preventScroll: true }); }
  if (ctx.reveal) { ctx.reveal = false; revealPosition(); }
}

// `reveal` (a jump to a claim window, a mistake, a decision): the position and what explains it
// come into view together: the table's top at the top of the screen, the side column (sticky,
// as tall as the screen) showing the decision here or the current window
function go(ctx, s, reveal = false) {
  s = Math.max(0, Math.min(ctx.total, s));
  if (s !== ctx.step) { ctx.reveal = reveal; loadFrame(ctx, s); } else if (reveal) revealPosition();
}

function revealPosition() {
  const grid = $(".replay-grid");
  if (!grid) return;
  window.scrollTo({ top: Math.max(0, window.scrollY + grid.getBoundingClientRect().top - 4), behavior: "instant" });
  const side = $(".replay-side");
  const target = $("#rv-here") || $(".claims .window.current");
  if (side && target) {
    const top = target.getBoundingClientRect().top - side.getBoundingClientRect().top + side.scrollTop;
    if (top < side.scrollTop || top + Math.min(target.offsetHeight, side.clientHeight) > side.scrollTop + side.clientHeight) side.scrollTop = Math.max(0, top - 8);
  }
}

function togglePlay(ctx) {
  if (ctx.playing) { clearInterval(ctx.playing); ctx.playing = null; drawReplay(ctx); return; }
  if (ctx.step >= ctx.total) ctx.step = -1;
  ctx.playing = setInterval(() => {
    if (ctx.closed || ctx.step >= ctx.total) { clearInterval(ctx.playing); ctx.playing = null; if (!ctx.closed) drawReplay(ctx); return; }
    loadFrame(ctx, ctx.step + 1);
  }, 600);
  drawReplay(ctx);
}

// ←/→ step (mirrored with the page in Arabic), Home/End, space plays; typing in a field is left alone
function onKey(ctx, e) {
  if (ctx.closed || !ctx.frame || e.altKey || e.ctrlKey || e.metaKey) return;
  const el = e.target;
  const tag = el && el.tagName;
  if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && el.type !== "range")) return;
  if (tag === "INPUT" && el.type === "range") return; // the slider steps itself
  const fwd = isRtl() ? -1 : 1;
  if (e.key === "n" || e.key === "p") { // the next / previous mistake of the review
    if (jumpMistake(ctx, e.key === "n" ? 1 : -1, go)) e.preventDefault();
    return;
  }
  if (e.key === "ArrowRight") { e.preventDefault(); go(ctx, ctx.step + fwd); } else if (e.key === "ArrowLeft") { e.preventDefault(); go(ctx, ctx.step - fwd); } else if (e.key === "Home") { e.preventDefault(); go(ctx, 0); } else if (e.key === "End") { e.preventDefault(); go(ctx, ctx.total); } else if (e.key === " " && tag !== "BUTTON" && tag !== "A" && tag !== "SUMMARY") { e.preventDefault(); togglePlay(ctx); }
}
