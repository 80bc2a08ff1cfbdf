// Matches (TB-5): the lobby's choice of one deal or a match and its length (each game's
// lengths come from its module's `match` descriptor), the strip over the table of a match's deal
// (hand k of n, the running score), "Next hand" or the standings on the result sheet, and the
// match page (#/match/<id>): its deals, scores, standings and audit.
import { t } from "./i18n.js";
import { gameUi } from "./registry.js";
import { api, store, esc, $, randomSeed, tokensOf, ownSeat } from "./net.js";
import { namer } from "./words.js";
import { showProblem } from "./ui.js";

const NEXT_POLL_MS = 600; // after a deal ends, ask for the next one this often
const NEXT_WAIT_MS = 120000; // and give up after this long (a link to the match page stays)
const PAGE_POLL_MS = 3000;

const signed = (x) => (x > 0 ? "+" : "") + x;
const unitOf = (game) => t("unit." + ((gameUi(game) && gameUi(game).match && gameUi(game).match.unit) || "points"));

// ------------------------------------------------------------------ the lobby
function choiceOf(game) {
  const desc = gameUi(game).match;
  const saved = store.get("lobby.match." + game, null) || {};
  const lengths = desc.lengths.map((l) => l.value);
  const numeric = desc.lengths.find((l) => l.value === "n");
  return {
    kind: saved.kind === "match" ? "match" : "deal",
    len: lengths.includes(saved.len) ? saved.len : lengths[0],
    n: Number.isInteger(saved.n) && saved.n >= 1 && saved.n <= 64 ? saved.n : (numeric ? numeric.dflt : 4),
    target: Number.isInteger(saved.target) && saved.target >= 1 ? saved.target : null,
  };
}

/** The lobby's fieldset: one deal or a match, and the match's length (and target). */
export function matchChoiceHtml(game) {
  const desc = gameUi(game).match;
  if (!desc) return "";
  const c = choiceOf(game);
  const isMatch = c.kind === "match";
  const select = desc.lengths.length > 1
    ? `<label for="match-len">${esc(t("match.length"))}</label>
       <select id="match-len">${desc.lengths.map((l) => `<option value="${l.value}"${l.value === c.len ? " selected" : ""}>${esc(t(l.label))}</option>`).join("")}</select>`
    : "";
  const numeric = desc.lengths.find((l) => l.value === "n");
  const showN = numeric && (desc.lengths.length === 1 || c.len === "n");
  const n = numeric
    ? `<span class="match-n"${showN ? "" : " hidden"}><label for="match-n">${esc(t(numeric.label))}</label>
       <input type="number" id="match-n" min="1" max="64" step="1" value="${c.n}"></span>`
    : "";
  const target = desc.target
    ? `<span class="match-target"><label for="match-target">${esc(t("match.targetlabel", { unit: unitOf(game) }))}</label>
       <input type="number" id="match-target" min="1" step="1" value="${c.target ?? ""}" placeholder="—"></span>`
    : "";
  return `<fieldset class="match-choice" id="match-choice"><legend>${esc(t("match.kind"))}</legend>
    <label class="kind-choice"><input type="radio" name="deal-kind" value="deal"${isMatch ? "" : " checked"}> ${esc(t("match.one"))}</label>
    <label class="kind-choice"><input type="radio" name="deal-kind" value="match"${isMatch ? " checked" : ""}> ${esc(t("match.many"))}</label>
    <div class="match-length" id="match-length"${isMatch ? "" : " hidden"}>${select}${n}${target}
      <p class="help">${esc(t("match.help"))} <span class="rule-id">TB-5.1</span> <span class="rule-id">${esc(desc.rule)}</span></p></div>
  </fieldset>`;
}

function readChoice(game) {
  const kind = (document.querySelector('input[name="deal-kind"]:checked') || {}).value || "deal";
  const len = $("#match-len") ? $("#match-len").value : gameUi(game).match.lengths[0].value;
  const n = $("#match-n") ? Math.round(Number($("#match-n").value)) : null;
  const tv = $("#match-target") ? $("#match-target").value.trim() : "";
  return { kind, len, n: Number.isFinite(n) ? n : null, target: tv === "" ? null : Math.round(Number(tv)) };
}

export function bindMatchChoice(game) {
  if (!$("#match-choice")) return;
  const save = () => {
    const c = readChoice(game);
    store.set("lobby.match." + game, c);
    $("#match-length").hidden = c.kind !== "match";
    const nBox = document.querySelector(".match-n");
    if (nBox && $("#match-len")) nBox.hidden = c.len !== "n";
  };
  for (const el of document.querySelectorAll('#match-choice input, #match-choice select')) { el.onchange = save; el.oninput = save; }
}

/** The match part of the lobby's request: null for one deal, else {length, target?}. */
export function matchRequest(game) {
  if (!$("#match-choice")) return null;
  const c = readChoice(game);
  if (c.kind !== "match") return null;
  const out = { length: c.len === "n" ? c.n : c.len };
  if (gameUi(game).match.target && c.target !== null) out.target = c.target;
  return out;
}

// ------------------------------------------------------------------ a match's deal at the table
/** A live page of a match's deal: remember the match and show its strip. */
export async function mountMatch(ctx, rerender) {
  const info = ctx.summary && ctx.summary.match;
  if (!info || !info.match_id) return;
  ctx.match = { id: info.match_id, index: info.index, next: info.next_deal_id || null, mt: null, rerender, polling: false };
  await loadMatch(ctx);
  drawMatchStrip(ctx);
}

async function loadMatch(ctx) {
  try { ctx.match.mt = await api(`/matches/${ctx.match.id}`); } catch { /* the strip waits for the next try */ }
}

function handText(ctx, mt) {
  const ui = gameUi(ctx.game);
  return mt ? ui.match.handText(mt, ctx.match.index) : t("match.deal", { k: ctx.match.index + 1, n: "…" });
}

function scoresHtml(game, mt, name) {
  return `<ul class="match-scores" id="match-scores">${mt.scores.map((s, i) => `<li data-seat="${i}"><bdi>${esc(name(i))}</bdi> <span class="num ${s > 0 ? "plus" : s < 0 ? "minus" : ""}" dir="ltr" data-score="${s}">${esc(signed(s))}</span></li>`).join("")}</ul>`;
}

/** The strip over the table: which hand of the match this is, and the running score. */
export function drawMatchStrip(ctx) {
  const slot = $("#match-slot");
  if (!slot || !ctx.match) return;
  const mt = ctx.match.mt;
  const name = namer(ctx.kinds, ctx.seat, ctx.names);
  const scores = mt ? scoresHtml(ctx.game, mt, name) : "";
  slot.innerHTML = `<section class="match-strip" id="match-strip" aria-label="${esc(t("match.title"))}" data-index="${ctx.match.index}" data-length="${mt ? mt.length : ""}">
    <strong id="match-hand">${esc(handText(ctx, mt))}</strong>
    <span class="match-score-label">${esc(t("match.running", { unit: unitOf(ctx.game) }))}</span>${scores}
    <a href="#/match/${esc(ctx.match.id)}" id="match-page-link">${esc(t("match.page"))}</a></section>`;
}

/** The deal is over: wait for the match to record it and make the next deal (or end). */
export async function matchDealOver(ctx) {
  if (!ctx.match || ctx.match.polling) return;
  ctx.match.polling = true;
  const until = Date.now() + NEXT_WAIT_MS;
  while (!ctx.closed && Date.now() < until) {
    await loadMatch(ctx);
    const mt = ctx.match.mt;
    const recorded = mt && mt.deals[ctx.match.index] && mt.deals[ctx.match.index].result;
    if (recorded && !mt.over && !ctx.match.next) {
      try { const s = await api(`/deals/${ctx.deal}`, { token: ctx.token }); ctx.match.next = (s.match && s.match.next_deal_id) || null; } catch { /* again */ }
    }
    if (ctx.closed) return;
    if (recorded && (mt.over || ctx.match.next)) break;
    await new Promise((r) => setTimeout(r, NEXT_POLL_MS));
  }
  ctx.match.settled = true;
  if (ctx.closed) return;
  drawMatchStrip(ctx);
  ctx.match.rerender();
}

export function standingsHtml(game, mt, name) {
  const unit = unitOf(game);
  return `<table class="standings" id="match-standings"><caption>${esc(t("match.standings"))} <span class="rule-id">TB-5.4</span></caption>
    <thead><tr><th scope="col">${esc(t("match.rank"))}</th><th scope="col">${esc(t("match.seat"))}</th><th scope="col">${esc(t("match.score"))}</th></tr></thead><tbody>
    ${mt.standings.map((s) => `<tr data-seat="${s.seat}" data-rank="${s.rank}"><td class="num">${s.rank}</td><th scope="row"><bdi>${esc(name(s.seat))}</bdi></th><td class="num"><bdi dir="ltr" data-score="${s.score}">${esc(signed(s.score))}</bdi> ${esc(unit)}</td></tr>`).join("")}</tbody></table>`;
}

/** What the result sheet of a match's deal offers instead of "Play again". */
export function matchLinksHtml(ctx) {
  const m = ctx.match;
  const parts = [`<a class="button secondary" href="#/replay/${esc(ctx.deal)}" id="to-replay">${t("result.replay")}</a>`];
  let more = "";
  if (m.mt && m.mt.over && m.settled) {
    more = `<div class="match-end" id="match-end"><p class="match-over"><strong>${esc(t("match.over"))}</strong></p>${standingsHtml(ctx.game, m.mt, namer(ctx.kinds, ctx.seat, ctx.names))}</div>`;
  } else if (m.next) {
    parts.unshift(`<button type="button" class="primary" id="match-next" data-next="${esc(m.next)}">${esc(t("match.next"))}</button>`);
  } else if (!m.settled) {
    parts.unshift(`<span class="muted" id="match-wait" role="status">${esc(t("match.waitnext"))}</span>`);
  }
  parts.push(`<a class="button secondary" href="#/match/${esc(m.id)}" id="to-match">${esc(t("match.page"))}</a>`);
  return `${more}<p class="links">${parts.join(" ")}</p>`;
}

export function bindMatchLinks(ctx) {
  const b = $("#match-next");
  if (b) b.onclick = () => goNext(ctx);
}

// TB-5.2: the seat and its token stay from deal to deal; this page deals the next one with a
// fresh seed of its own (TB-3.1) as soon as it opens
function goNext(ctx) {
  const next = ctx.match && ctx.match.next;
  if (!next) return;
  if (ctx.seat === null || ctx.seat === undefined) { location.hash = "#/watch/" + next; return; }
  store.set("tokens." + next, { ...tokensOf(next), ...tokensOf(ctx.deal) });
  const seed = randomSeed();
  store.set("seed." + next, seed);
  store.set("ready." + next, seed);
  store.set("last", { deal: next, seat: ctx.seat });
  location.hash = `#/play/${next}/${ctx.seat}`;
}

// ------------------------------------------------------------------ the match page
let page = null;
export function stopMatchPage() { if (page) { page.closed = true; clearTimeout(page.timer); } page = null; }

export async function renderMatch(id) {
  stopMatchPage();
  const ctx = { id, closed: false, timer: null };
  page = ctx;
  $("#app").innerHTML = `<p class="loading">${t("loading")}</p>`;
  await loadMatchPage(ctx, true);
}

async function loadMatchPage(ctx, first) {
  let mt, audit;
  try { mt = await api(`/matches/${ctx.id}`); } catch (e) {
    if (ctx.closed) return;
    if (first) {
      showProblem(e);
      $("#app").innerHTML = `<section class="card-panel"><h1>${esc(t("match.missing"))}</h1><p><a href="#/">${t("nav.lobby")}</a></p></section>`;
      return;
    }
  }
  try { audit = await api(`/matches/${ctx.id}/audit`); } catch { audit = null; }
  if (ctx.closed) return;
  if (mt) drawMatchPage(ctx, mt, audit);
  if (!mt || !mt.over) ctx.timer = setTimeout(() => loadMatchPage(ctx, false), PAGE_POLL_MS);
}

function lengthText(ui, mt) {
  const word = ui.match.lengths.find((l) => l.value === mt.length_word);
  return word ? t(word.label) : t("match.ofn", { n: mt.length });
}

function drawMatchPage(ctx, mt, audit) {
  const ui = gameUi(mt.game);
  const first = mt.deals[0] && mt.deals[0].deal_id;
  const me = first ? ownSeat(first) : null;
  const name = namer(mt.seats, me, mt.names);
  const unit = unitOf(mt.game);
  const rows = mt.deals.map((d) => {
    const r = d.result;
    const mine = me !== null ? (tokensOf(d.deal_id)[String(me)] ? me : null) : null;
    const winner = !r ? t("match.playing") : r.abandoned ? t("match.abandoned") : r.winner === null || r.winner === undefined ? t("mine.draw") : t("match.won", { seat: name(r.winner) });
    const pays = mt.seats.map((_, i) => `<td class="num" data-seat="${i}"><bdi dir="ltr">${r ? esc(signed(r.payments[i])) : ""}</bdi></td>`).join("");
    const links = r
      ? `<a href="#/replay/${esc(d.deal_id)}" data-link="replay">${esc(t("mine.replay"))}</a> · <a href="#/replay/${esc(d.deal_id)}/review/${me ?? 0}" data-link="review">${esc(t("mine.review"))}</a>`
      : mine !== null ? `<a href="#/play/${esc(d.deal_id)}/${mine}" data-link="table">${esc(t("mine.table"))}</a>`
      : mt.sealed ? "" // a duplicate round's table: nobody watches it, nor reads a board before the round ends (TN-3.6)
      : `<a href="#/watch/${esc(d.deal_id)}" data-link="watch">${esc(t("watch.open"))}</a>`;
    return `<tr data-deal="${esc(d.deal_id)}" data-index="${d.index}"><td>${esc(ui.match.handText(mt, d.index))}</td><td>${d.dealer === null || d.dealer === undefined ? "—" : `<bdi>${esc(name(d.dealer))}</bdi>`}</td>
      <td>${esc(winner)}</td>${pays}<td>${links}</td></tr>`;
  }).join("");
  const auditHtml = audit
    ? `<p id="match-audit" class="${audit.ok ? "pass" : "fail"}" data-ok="${audit.ok ? 1 : 0}">${esc(t(audit.ok ? "match.audit.ok" : "match.audit.bad"))} <span class="rule-id">TB-5.5</span></p>
       ${audit.problems && audit.problems.length ? `<ul class="audit-problems">${audit.problems.map((p) => `<li>${esc(typeof p === "string" ? p : JSON.stringify(p))}</li>`).join("")}</ul>` : ""}`
    : `<p id="match-audit" class="muted">${esc(t("replay.noaudit"))}</p>`;
  $("#app").innerHTML = `<section class="card-panel match-page" aria-labelledby="match-title" data-over="${mt.over ? 1 : 0}">
    <h1 id="match-title">${esc(t("match.pagetitle", { game: t("game." + mt.game) }))}</h1>
    <p class="deal-line muted">${esc(lengthText(ui, mt))}${mt.target ? " · " + esc(t("match.target", { n: mt.target })) : ""} · <bdi>${esc(mt.match_id)}</bdi> · <span id="match-status">${esc(t(mt.over ? "match.over" : "match.going"))}</span></p>
    <h2>${esc(t("match.running", { unit }))}</h2>${scoresHtml(mt.game, mt, name)}
    ${standingsHtml(mt.game, mt, name)}
    <h2>${esc(t("match.deals"))}</h2>
    <div class="table-scroll"><table class="match-deals" id="match-deals"><thead><tr><th scope="col">${esc(t("match.hand.col"))}</th><th scope="col">${esc(t("dealer"))}</th><th scope="col">${esc(t("match.result"))}</th>${mt.seats.map((_, i) => `<th scope="col" class="num"><bdi>${esc(name(i))}</bdi></th>`).join("")}<th scope="col"></th></tr></thead>
    <tbody>${rows}</tbody></table></div>
    <h2>${esc(t("match.audit"))}</h2>${auditHtml}
    <p><a class="button secondary" href="#/">${esc(t("nav.lobby"))}</a></p></section>`;
}

// ------------------------------------------------------------------ a link straight to a review
/** #/replay/<deal>/review/<seat>: once the replay shows its review bar, pick that seat there. */
export async function openReview(deal, seat) {
  const hash = location.hash;
  const until = Date.now() + 30000;
  while (Date.now() < until && location.hash === hash) {
    const sel = $("#rv-seat");
    if (sel) {
      if (sel.value !== String(seat) && [...sel.options].some((o) => o.value === String(seat))) {
        sel.value = String(seat);
        sel.dispatchEvent(new Event("change"));
      }
      const box = $("#review");
      if (box) box.scrollIntoView({ block: "start" });
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
