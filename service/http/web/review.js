// The review of one seat of a finished deal in the replay viewer (POST /deals/{id}/reviews, then
// GET /deals/{id}/reviews/{seat} until done): the progress while the bot workers run it, then a
// mark on every decision of that seat (even / agrees / unclear / inaccuracy / mistake) in the step list and on the
// slider, the options and their values at the current step, a chart of the value lost per
// decision, and a jump to the next or previous mistake (keys n / p).
import { t, isRtl } from "./i18n.js";
import { pieceHtml } from "./cards.js";
import { actionLabel, actionAria } from "./table.js";
import { api, esc, $ } from "./net.js";
import { namer, pieceName } from "./words.js";
import { gameUi } from "./registry.js";
import { showProblem, announce } from "./ui.js";

const POLL_MS = 300;
// unclear: behind the best by an amount the evaluator cannot measure closely enough (never ✓: the
// review cannot vouch for it), within the floor by value or beyond it
// even: every play was within the inaccuracy floor of the best (no choice to judge; never ✓)
const MARK = { even: "=", agrees: "✓", unclear: "?", inaccuracy: "?!", mistake: "✗" };
const VERDICTS = ["even", "agrees", "unclear", "inaccuracy", "mistake"];
const fmt = (x) => (Math.round(x * 100) / 100).toFixed(2);

/** The review state kept on the replay's context. */
export function initReview(ctx, redraw) {
  ctx.rv = { seat: ctx.ownSeat ?? 0, state: null, timer: null, redraw };
  if (ctx.over) loadReview(ctx, ctx.rv.seat, true);
}

export function stopReview(ctx) {
  if (ctx && ctx.rv) { clearTimeout(ctx.rv.timer); ctx.rv.timer = null; }
}

const review = (ctx) => (ctx.rv && ctx.rv.state && ctx.rv.state.status === "done" ? ctx.rv.state : null);
export const reviewDecisions = (ctx) => (review(ctx) ? review(ctx).decisions : []);
// the moves the table made for the seat (its clock ran out, TB-2.5; it was away, TB-2.6): listed
// at their steps as the table's, never judged as the person's decisions
export const tableMoves = (ctx) => (review(ctx) ? review(ctx).table_moves || [] : []);
const tableMoveText = (nm, seat, tm) => t(`rv.table.${tm.by === "away" ? "away" : "clock"}${nm.isMe(seat) ? ".you" : ""}`, { seat: nm(seat) });
const tableRule = (tm) => (tm.by === "away" ? "TB-2.6" : "TB-2.5");

// a review already made (or running) for this seat: shown without asking for a new one; asked
// for only when the deal's list says it exists (a review never started would answer 404)
async function loadReview(ctx, seat, quiet) {
  try {
    const made = await api(`/deals/${ctx.deal}/reviews`);
    if (ctx.closed || ctx.rv.seat !== seat || !made.seats.includes(seat)) return;
    const s = await api(`/deals/${ctx.deal}/reviews/${seat}`);
    if (ctx.closed || ctx.rv.seat !== seat) return;
    accept(ctx, s);
  } catch (e) { if (!quiet) showProblem(e, ctx.game); }
}

async function startReview(ctx) {
  const seat = ctx.rv.seat;
  try {
    const s = await api(`/deals/${ctx.deal}/reviews`, { method: "POST", body: { seat } });
    if (ctx.closed || ctx.rv.seat !== seat) return;
    announce(t("rv.started", { seat: namer(ctx.kinds, ctx.ownSeat, ctx.summary && ctx.summary.names)(seat) }));
    // the review is from this seat's view: the table follows it
    if (ctx.perspective !== String(seat)) ctx.perspective = String(seat);
    accept(ctx, s, true);
  } catch (e) { showProblem(e, ctx.game); }
}

function accept(ctx, s, reload = false) {
  ctx.rv.state = s;
  clearTimeout(ctx.rv.timer);
  if (s.status === "running") {
    ctx.rv.timer = setTimeout(() => poll(ctx), POLL_MS);
  } else if (s.status === "done") {
    const counts = { decisions: t("count.decisions", { n: s.summary.decisions }), mistakes: t("count.mistakes", { n: s.summary.mistakes }) };
    announce(t("rv.ready", counts));
  }
  ctx.rv.redraw(reload);
}

async function poll(ctx) {
  if (ctx.closed || !ctx.rv) return;
  const seat = ctx.rv.seat;
  let s;
  try { s = await api(`/deals/${ctx.deal}/reviews/${seat}`); } catch { s = null; }
  if (ctx.closed || ctx.rv.seat !== seat) return;
  if (!s || s.status === "running") {
    if (s) {
      ctx.rv.state = s;
      const bar = $("#rv-progress"), text = $("#rv-progress-text");
      if (bar && text) { bar.max = Math.max(1, s.total); bar.value = s.done; text.textContent = t("rv.running", { done: s.done, total: s.total }); }
    }
    ctx.rv.timer = setTimeout(() => poll(ctx), POLL_MS);
    return;
  }
  accept(ctx, s);
}

// ------------------------------------------------------------------ labels
function optionHtml(game, a) {
  if (a.type === "Discard") {
    const id = gameUi(game).actionPiece(a);
    return `${pieceHtml(game, id, { cls: "xs" })} ${esc(t("discard.this", { card: pieceName(game, id) }))}`;
  }
  return actionLabel(game, a);
}
function optionText(game, a) {
  if (a.type === "Discard") return t("discard.this", { card: pieceName(game, gameUi(game).actionPiece(a)) });
  return actionAria(game, a);
}
// the unit of the game's score in words ("points" for a unit no string names)
const unitOf = (r) => { const k = "unit." + r.unit; const s = t(k); return s === k ? t("unit.points") : s; };
const verdictHtml = (v) => `<span class="verdict-tag v-${v}"><span aria-hidden="true">${MARK[v]}</span> ${esc(t("rv.v." + v))}</span>`;

// ------------------------------------------------------------------ the bar: start, progress, summary, chart
export function reviewBarHtml(ctx) {
  if (!ctx.rv) return "";
  if (!ctx.over) return "";
  const nm = namer(ctx.kinds, ctx.ownSeat, ctx.summary && ctx.summary.names);
  const s = ctx.rv.state;
  const seats = [...Array(gameUi(ctx.game).seats).keys()].map((i) => `<option value="${i}"${i === ctx.rv.seat ? " selected" : ""}>${esc(nm(i))}</option>`).join("");
  const running = s && s.status === "running";
  const start = `<div class="rv-start"><label for="rv-seat">${esc(t("rv.seat"))}</label> <select id="rv-seat"${running ? " disabled" : ""}>${seats}</select>
    <button type="button" class="primary" id="rv-go"${running || (s && s.status === "done") ? " disabled" : ""}>${esc(t("rv.start"))}</button></div>`;
  let body = `<p class="help">${esc(t("rv.lead"))}</p>`;
  if (running) {
    body = `<p class="rv-progress" role="status"><progress id="rv-progress" max="${Math.max(1, s.total)}" value="${s.done}"></progress> <span id="rv-progress-text">${esc(t("rv.running", { done: s.done, total: s.total }))}</span></p>`;
  } else if (s && s.status === "failed") {
    body = `<p class="bad" id="rv-failed">${esc(t("rv.failed", { error: s.error || "" }))}</p>`;
  } else if (review(ctx)) {
    body = summaryHtml(ctx, review(ctx));
  }
  return `<section class="review-bar card-panel" id="review" aria-labelledby="rv-title" data-status="${s ? esc(s.status) : "none"}">
    <h2 id="rv-title">${esc(t("rv.title"))}</h2>${start}${body}</section>`;
}

function summaryHtml(ctx, r) {
  const sm = r.summary;
  const unit = unitOf(r);
  const nm = namer(ctx.kinds, ctx.ownSeat, ctx.summary && ctx.summary.names);
  const mistakes = r.decisions.filter((d) => d.verdict === "mistake").length;
  const item = (id, label, value) => `<span class="rv-fig"><span class="rv-label">${esc(label)}</span> <strong id="${id}">${esc(value)}</strong></span>`;
  return `<div class="rv-summary" id="rv-summary" data-seat="${r.seat}">
      <p class="rv-figs"><strong>${esc(nm(r.seat))}</strong> ${item("rv-decisions", t("rv.decisions"), sm.decisions)}
      ${item("rv-agreement", t("rv.agreement"), Math.round(sm.agreement * 100) + " %")}
      ${item("rv-unclear", t("rv.unclear"), sm.unclear)}
      ${item("rv-even", t("rv.even"), sm.even ?? 0)}
      ${item("rv-inaccuracies", t("rv.inaccuracies"), sm.inaccuracies)}
      ${item("rv-mistakes", t("rv.mistakes"), sm.mistakes)}
      ${item("rv-loss", t("rv.totalloss", { unit }), fmt(sm.total_loss))}
      ${item("rv-mean", t("rv.meanloss", { unit }), fmt(sm.mean_loss))}</p>
      <p class="rv-nav"><button type="button" class="secondary" id="rv-prev-mistake"${mistakes ? "" : " disabled"}>${esc(t("rv.prevmistake"))}</button>
      <button type="button" class="secondary" id="rv-next-mistake"${mistakes ? "" : " disabled"}>${esc(t("rv.nextmistake"))}</button>
      <span class="muted">${esc(t(mistakes ? "rv.keys" : "rv.nomistakes"))}</span></p>
      <p class="help">${esc(t("rv.how", { floor: fmt(r.mistake_floor), ifloor: fmt(r.inaccuracy_floor), unit }))}</p>
    </div>${chartHtml(ctx, r)}`;
}

// Value lost per decision over the deal: x the step (mirrored with the slider in Arabic), y the
// loss; dashed, the mistake floor. Each point is a button to its step.
function chartHtml(ctx, r) {
  // as wide as the page allows (up to 900), so the points stay round and the labels legible
  const W = Math.round(Math.max(360, Math.min(900, (window.innerWidth || 900) - 60))), H = 130, top = 10, bottom = 18, gutter = 40, end = 10;
  const rtl = isRtl();
  const x0 = rtl ? end : gutter, x1 = rtl ? W - gutter : W - end;
  const total = Math.max(1, ctx.total);
  const x = (v) => (rtl ? x1 - ((x1 - x0) * v) / total : x0 + ((x1 - x0) * v) / total);
  const maxLoss = Math.max(r.mistake_floor * 1.5, ...r.decisions.map((d) => d.loss), 0.1);
  const y = (l) => top + (H - top - bottom) * (1 - l / maxLoss);
  const labelX = rtl ? W - gutter + 4 : gutter - 4;
  const anchor = rtl ? "start" : "end";
  const unit = unitOf(r);
  const line = r.decisions.map((d) => `${x(d.version).toFixed(1)},${y(d.loss).toFixed(1)}`).join(" ");
  const pts = r.decisions.map((d) => {
    const label = t("rv.point", { n: d.version, verdict: t("rv.v." + d.verdict), loss: fmt(d.loss), unit });
    return `<circle id="rv-pt-${d.version}" class="pt v-${d.verdict}${d.version === ctx.step ? " current" : ""}" cx="${x(d.version).toFixed(1)}" cy="${y(d.loss).toFixed(1)}" r="${d.verdict === "agrees" || d.verdict === "even" ? 3.5 : 5}" data-step="${d.version}" data-verdict="${d.verdict}" tabindex="0" role="button" aria-label="${esc(label)}"><title>${esc(label)}</title></circle>`;
  }).join("");
  const floorY = Number(y(r.mistake_floor).toFixed(1));
  return `<figure class="rv-chart-box"><svg id="rv-chart" class="rv-chart" viewBox="0 0 ${W} ${H}" role="group" aria-label="${esc(t("rv.chart", { unit }))}">
    <line class="axis" x1="${x0}" y1="${H - bottom}" x2="${x1}" y2="${H - bottom}"/>
    <line class="axis" x1="${rtl ? x1 : x0}" y1="${top}" x2="${rtl ? x1 : x0}" y2="${H - bottom}"/>
    <line class="floor" x1="${x0}" y1="${floorY}" x2="${x1}" y2="${floorY}"/>
    ${Math.abs(floorY - (H - bottom)) > 12 && Math.abs(floorY - (top + 4)) > 12 ? `<text class="tick" x="${labelX}" y="${floorY}" text-anchor="${anchor}" dominant-baseline="middle">${fmt(r.mistake_floor)}</text>` : ""}
    <text class="tick" x="${labelX}" y="${H - bottom}" text-anchor="${anchor}" dominant-baseline="middle">0</text>
    <text class="tick" x="${labelX}" y="${top + 4}" text-anchor="${anchor}" dominant-baseline="middle">${fmt(maxLoss)}</text>
    <line class="now" x1="${x(ctx.step).toFixed(1)}" y1="${top}" x2="${x(ctx.step).toFixed(1)}" y2="${H - bottom}"/>
    <polyline class="loss" points="${line}"/>${pts}
    <text class="tick" x="${((x0 + x1) / 2).toFixed(0)}" y="${H - 3}" text-anchor="middle">${esc(t("rv.chart.x"))}</text></svg>
    <figcaption class="help">${esc(t("rv.chart", { unit }))} · ${esc(t("rv.chart.floor"))}
    <span class="rv-legend" id="rv-legend">${VERDICTS.map((v) => `<span class="rv-key v-${v}" data-verdict="${v}"><span class="rv-mark" aria-hidden="true">${MARK[v]}</span> ${esc(t("rv.v." + v))} <strong>${r.decisions.filter((d) => d.verdict === v).length}</strong></span>`).join(" ")}</span></figcaption></figure>`;
}

// ------------------------------------------------------------------ marks on the slider
export function sliderMarksHtml(ctx) {
  const ds = reviewDecisions(ctx);
  const tms = tableMoves(ctx);
  if (!ds.length && !tms.length) return "";
  const total = Math.max(1, ctx.total);
  const at = (v) => `inset-inline-start: calc(8px + (100% - 16px) * ${(v / total).toFixed(5)})`;
  return `<span class="rp-marks" aria-hidden="true">${ds.map((d) => `<span class="mark v-${d.verdict}" data-step="${d.version}" data-verdict="${d.verdict}" style="${at(d.version)}"></span>`).join("")}${tms.map((tm) => `<span class="tmark" data-table-step="${tm.version}" data-by="${esc(tm.by)}" style="${at(tm.version)}"></span>`).join("")}</span>`;
}

// ------------------------------------------------------------------ the decision here, and the step list
export function decisionPanelHtml(ctx) {
  const r = review(ctx);
  if (!r) return "";
  const nm = namer(ctx.kinds, ctx.ownSeat, ctx.summary && ctx.summary.names);
  const unit = unitOf(r);
  const d = r.decisions.find((x) => x.version === ctx.step);
  const tm = tableMoves(ctx).find((x) => x.version === ctx.step);
  let here;
  if (tm && !d) { // the table's move, not the person's: said so, never judged
    here = `<div id="rv-here" data-verdict="" data-table="${esc(tm.by)}" data-step="${tm.version}">
      <p class="rv-here-head"><span class="verdict-tag v-table">${esc(t("rv.table.tag"))}</span> <strong id="rv-table-move">${esc(tableMoveText(nm, r.seat, tm))}</strong> <span class="rule-id">${tableRule(tm)}</span>: ${optionHtml(ctx.game, tm.action)}</p>
      <p class="muted">${esc(t("rv.table.note"))}</p></div>`;
  } else if (!d) {
    here = `<p class="muted" id="rv-here" data-verdict="">${esc(t(nm.isMe(r.seat) ? "rv.none.you" : "rv.none", { seat: nm(r.seat) }))}</p>`;
  } else {
    const opts = d.options.map((o, i) => ({ ...o, i })).sort((a, b) => b.value - a.value || a.i - b.i);
    const rows = opts.map((o) => `<tr class="${o.i === d.chosen ? "chosen" : ""}${o.i === d.best ? " best" : ""}" data-option="${o.i}">
        <td>${optionHtml(ctx.game, o.action)}${o.i === d.chosen ? ` <span class="tag chosen-tag">${esc(t("rv.chosen"))}</span>` : ""}${o.i === d.best ? ` <span class="tag bot-tag">${esc(t("rv.bot"))}</span>` : ""}</td>
        <td class="num">${fmt(o.value)}${o.noise ? ` <small class="muted">±${fmt(o.noise)}</small>` : ""}</td></tr>`).join("");
    const best = d.options[d.best].action, chosen = d.options[d.chosen].action;
    const bot = d.chosen === d.best ? `<p>${esc(t("rv.botagrees"))}</p>`
      : `<p id="rv-botchoice">${esc(t("rv.botchoice"))}: <strong>${optionHtml(ctx.game, best)}</strong></p>`;
    here = `<div id="rv-here" data-verdict="${d.verdict}" data-step="${d.version}">
      <p class="rv-here-head">${verdictHtml(d.verdict)} · ${esc(t(nm.isMe(r.seat) ? "rv.chose.you" : "rv.chose", { seat: nm(r.seat) }))}: <strong>${optionHtml(ctx.game, chosen)}</strong> <span class="muted">(${esc(t("rv.rank", { rank: d.rank, n: d.choices || d.options.length }))})</span></p>
      ${bot}
      <p id="rv-lost">${esc(t("rv.lost", { loss: fmt(d.loss), unit, noise: fmt(d.loss_noise) }))}</p>
      <div class="rv-options-box"><table class="rv-options"><caption class="sr-only">${esc(t("rv.options"))}</caption><thead><tr><th>${esc(t("rv.option"))}</th><th class="num">${esc(t("rv.value", { unit }))}</th></tr></thead><tbody>${rows}</tbody></table></div></div>`;
  }
  const itemList = r.decisions.map((x) => `<li><button type="button" id="rv-it-${x.version}" class="rv-item v-${x.verdict}" data-step="${x.version}" data-verdict="${x.verdict}"${x.version === ctx.step ? ' aria-current="step"' : ""} aria-label="${esc(t("rv.item", { n: x.version, what: optionText(ctx.game, x.options[x.chosen].action), verdict: t("rv.v." + x.verdict), loss: fmt(x.loss), unit }))}">
      <span class="rv-mark" aria-hidden="true">${MARK[x.verdict]}</span> <span class="rv-step">${esc(t("rv.stepno", { n: x.version }))}</span> <span class="rv-what">${optionHtml(ctx.game, x.options[x.chosen].action)}</span> <span class="rv-loss num">${x.loss > 0 ? "−" + fmt(x.loss) : ""}</span></button></li>`);
  // the table's moves between the decisions, in step order, marked as the table's
  const tableItems = tableMoves(ctx).map((x) => [x.version, `<li class="rv-table-item"><button type="button" id="rv-tm-${x.version}" class="rv-item v-table" data-table-step="${x.version}" data-by="${esc(x.by)}"${x.version === ctx.step ? ' aria-current="step"' : ""} aria-label="${esc(t("rv.table.item", { n: x.version, what: optionText(ctx.game, x.action), who: tableMoveText(nm, r.seat, x) }))}">
      <span class="rv-mark" aria-hidden="true">⏱</span> <span class="rv-step">${esc(t("rv.stepno", { n: x.version }))}</span> <span class="rv-what">${optionHtml(ctx.game, x.action)}</span> <span class="rv-loss">${esc(t("rv.table.tag"))}</span></button></li>`]);
  const merged = [...r.decisions.map((x, i) => [x.version, itemList[i]]), ...tableItems].sort((a, b) => a[0] - b[0]).map(([, h]) => h).join("");
  return `<aside class="decision card-panel" aria-labelledby="rv-here-title">
    <h2 id="rv-here-title">${esc(t("rv.here", { n: ctx.step }))}</h2>${here}
    <h3 id="rv-list-title">${esc(t(nm.isMe(r.seat) ? "rv.list.you" : "rv.list", { seat: nm(r.seat) }))}</h3>
    <ol class="rv-list" id="rv-list" aria-labelledby="rv-list-title">${merged}</ol></aside>`;
}

// ------------------------------------------------------------------ controls
/** The next (dir 1) or previous (dir -1) mistake from the current step, going round past the
 * end (the replay opens at the last step); false when the review has none. */
export function jumpMistake(ctx, dir, go) {
  if (!review(ctx)) return false;
  const ms = reviewDecisions(ctx).filter((d) => d.verdict === "mistake").map((d) => d.version);
  if (!ms.length) { announce(t("rv.nomistakes")); return false; }
  let target = dir > 0 ? ms.find((v) => v > ctx.step) : [...ms].reverse().find((v) => v < ctx.step);
  if (target === undefined) {
    target = dir > 0 ? ms[0] : ms[ms.length - 1];
    announce(t(dir > 0 ? "rv.wrap.first" : "rv.wrap.last"));
  }
  go(ctx, target, true); // the position and its verdict in view together
  return true;
}

export function bindReview(ctx, go) {
  const sel = $("#rv-seat");
  if (sel) sel.onchange = () => {
    stopReview(ctx);
    ctx.rv.seat = Number(sel.value); ctx.rv.state = null;
    ctx.rv.redraw(false);
    loadReview(ctx, ctx.rv.seat, true);
  };
  const goBtn = $("#rv-go");
  if (goBtn) goBtn.onclick = () => { goBtn.disabled = true; startReview(ctx); };
  const next = $("#rv-next-mistake"), prev = $("#rv-prev-mistake");
  if (next) next.onclick = () => jumpMistake(ctx, 1, go);
  if (prev) prev.onclick = () => jumpMistake(ctx, -1, go);
  for (const el of document.querySelectorAll("#rv-list [data-table-step]")) el.addEventListener("click", () => go(ctx, Number(el.dataset.tableStep), true));
  for (const el of document.querySelectorAll("#rv-chart .pt, #rv-list [data-step]")) {
    el.addEventListener("click", () => go(ctx, Number(el.dataset.step), true));
    if (el.tagName.toLowerCase() === "circle") {
      el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); go(ctx, Number(el.dataset.step), true); } });
    }
  }
  const list = $("#rv-list");
  if (list) { // the current decision in view inside its list (the page itself does not move)
    const cur = list.querySelector('[aria-current="step"]');
    if (cur) {
      const li = cur.parentElement;
      if (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = Math.max(0, li.offsetTop - 40);
    }
  }
}
