// The table as HTML: models of the server's views, seats, the centre, the person's hand and
// prompts, and the result sheet with the fairness check. Pure rendering: the pages (play, watch,
// replay) own the state and bind the controls.
import { t } from "./i18n.js";
import { pieceHtml } from "./cards.js";
import { clientSeedText, fairnessCheck, parseLog } from "./fair.js";
import { ruleText } from "./rules.js";
import { api, esc, $ } from "./net.js";
import { namer, levelOf, pieceName, windowNo, closedReason } from "./words.js";
import { showProblem } from "./ui.js";
import { coachNoteHtml } from "./coach.js";
import { gameUi } from "./registry.js";

// ------------------------------------------------------------------ models
export function modelFromSeatView(game, v, kinds) {
  return gameUi(game).modelFromSeatView(v, kinds);
}

export function modelFromFullView(game, f, kinds) {
  return gameUi(game).modelFromFullView(f, kinds);
}

// the seats anyone may know the table waits on: the seat to discard, and the person when asked
export function waitingOn(m) {
  const s = new Set();
  if (m.result || !m.started) return s;
  const discardPhase = m.phase === gameUi(m.game).discardPhase;
  if (discardPhase && m.turn !== null && m.turn !== undefined) s.add(m.turn);
  if (m.me !== null && m.me !== undefined && m.prompt) s.add(m.me);
  return s;
}

// position of seat i around the table, seen from `bottom` (play goes anticlockwise: 0 -> 1 on the right)
export function position(n, bottom, i) {
  const rel = (i - (bottom ?? 0) + n) % n;
  if (n === 3) return ["bottom", "right", "left"][rel];
  return ["bottom", "right", "top", "left"][rel];
}

// ------------------------------------------------------------------ pieces and hands
export function piecesHtml(game, ids, cls = "") {
  return ids.map((id) => pieceHtml(game, id, { cls })).join("");
}
export function backsHtml(game, count, cls = "") {
  let h = "";
  for (let i = 0; i < Math.min(count, 8); i++) h += pieceHtml(game, null, { back: true, cls });
  return h;
}

// The live hand's order, as the game's module groups and sorts it (sortHand, handGroup). Every
// hand on every page is laid out this way.
export function groupHand(game, ids) {
  const ui = gameUi(game);
  const sorted = ui.sortHand([...ids].sort((a, b) => a - b));
  const key = ui.handGroup;
  const groups = [];
  for (const id of sorted) {
    const k = key(id);
    if (!groups.length || groups[groups.length - 1].k !== k) groups.push({ k, ids: [] });
    groups[groups.length - 1].ids.push(id);
  }
  return groups;
}
export function groupedHtml(game, ids, cls = "") {
  return `<span class="grouped">${groupHand(game, ids).map((g) => `<span class="hand-group">${piecesHtml(game, g.ids, cls)}</span>`).join("")}</span>`;
}

export function meldHtml(game, m, cls = "sm") {
  return gameUi(game).meldHtml(m, cls);
}

// ------------------------------------------------------------------ seats and centre
export function seatHtml(m, i) {
  const pos = position(m.n, m.bottom ?? m.me, i);
  const game = m.game;
  const ui = gameUi(game);
  const name = namer(m.kinds, m.you ?? m.me, m.people);
  const waiting = m.waiting || waitingOn(m);
  const badges = [];
  const level = levelOf(m.kinds, i);
  if (level) badges.push(`<span class="badge level">${esc(t("level." + level))}</span>`);
  if (m.dealer === i) badges.push(`<span class="badge dealer">${t("dealer")}</span>`);
  badges.push(...ui.seatBadges(m, i));
  if (waiting.has(i)) badges.push(`<span class="badge turn">${t("turn")}</span>`);
  if (m.kinds && m.kinds[i] === "open") badges.push(`<span class="badge open">${t("badge.open")}</span>`);
  if (m.away && m.away.includes(i)) badges.push(`<span class="badge away" data-away="${i}">${t("badge.away")}</span>`);
  // a person whose page has no live stream now (closed, or lost its connection)
  if (m.connected && m.kinds[i] === "human" && i !== m.me && !m.connected.includes(i)) badges.push(`<span class="badge offline" data-offline="${i}">${t("badge.offline")}</span>`);
  const clock = (m.deadlines || []).find((d) => d.seat === i);
  // TB-2.2: the seat that must act; the person's own clock is shown once, above the hand (m.ownClockApart)
  if (clock && m.clockBadge && !(i === m.me && m.ownClockApart)) badges.push(m.clockBadge(clock, i === m.me));
  if (m.live && waiting.has(i) && level) badges.push(`<span class="thinking" role="status">${t("thinking")}<span class="dots" aria-hidden="true"><i></i><i></i><i></i></span></span>`);
  badges.push(...ui.seatEndBadges(m, i));
  const hand = m.hands[i];
  const isMe = i === m.me;
  let handHtml = "";
  if (!isMe) {
    if (Array.isArray(hand)) {
      const kans = ui.openHandExtraHtml(m, i);
      handHtml = `<div class="open-hand">${groupedHtml(game, hand, "sm")}${kans}</div>`;
    } else handHtml = `<div class="backs" aria-label="${t("concealed", { n: hand })}">${backsHtml(game, hand, "xs")}<span class="count">${hand}</span></div>`;
  }
  const melds = (m.melds[i] || []).map((x) => meldHtml(game, x)).join("");
  const row = ui.rowOf(m, i);
  const flowers = ui.seatExtraHtml(m, i);
  // the newest card played that still lies in a row is marked; it carries its role on the board
  // itself except at a live seat, where its copy in the panel by the hand does (focusHtml)
  const newest = m.lastPiece && m.lastPiece.seat === i ? m.lastPiece.id : null;
  const rowPiece = (id) => pieceHtml(game, id, {
    cls: "xs" + (id === newest ? " newest" : ""),
    attrs: `data-piece="${id}"${id === newest && !m.mineApart ? ' data-role="last-discard"' : ""}`,
  });
  return `<section class="seat seat-${pos}${waiting.has(i) ? " on-turn" : ""}" data-seat="${i}" aria-label="${esc(name(i))}">
    <header><strong class="seat-name">${name.html(i)}</strong> ${badges.join(" ")}</header>
    ${handHtml}
    ${melds ? `<div class="melds">${melds}</div>` : ""}${flowers}
    <div class="row" aria-label="${t(ui.rowKey)}">${row && row.length ? row.map(rowPiece).join("") : `<span class="muted">${t(ui.rowKey)}: —</span>`}</div>
  </section>`;
}

export function centerHtml(m) {
  const game = m.game;
  const ui = gameUi(game);
  const name = namer(m.kinds, m.you ?? m.me, m.people);
  const parts = [];
  if (!m.started) {
    parts.push(`<p class="status">${t("waiting.start")}</p>`);
    return `<div class="center">${parts.join("")}</div>`;
  }
  parts.push(`<div class="stock"><span class="stock-pile">${pieceHtml(game, null, { back: true, cls: "sm" })}</span><span id="stock-count">${ui.pileText(m)}</span></div>`);
  const own = ui.centreHtml(m, name); // the game's own centre: face-up card or prevailing wind
  if (own) parts.push(own);
  const card = ui.tableCard(m, name); // the card offered to the seats: in the panel by the hand at a live seat
  if (card && !m.mineApart) parts.push(`<div class="table-card">${offeredHtml(m, card, "lg")}<span>${esc(card.text)}</span></div>`);
  let status = "";
  const windowOpen = ui.windowOpen(m);
  const answered = ui.answered(m);
  if (m.result) status = t("status.over");
  else if (m.prompt === "claim") status = t("status.claim");
  else if (m.prompt) status = t("status.yourturn");
  else if (windowOpen && m.me !== null && m.me !== undefined) status = answered ? t("status.answered") : t("status.window");
  else if (windowOpen) status = t("status.window");
  else if (m.turn !== null && m.turn !== undefined && m.live) {
    const lvl = levelOf(m.kinds, m.turn);
    status = lvl ? t("status.thinking", { seat: name(m.turn) }) : t("status.waiting", { seat: name.obj(m.turn) });
  }
  if (status) parts.push(`<p class="status" id="status">${esc(status)}</p>`);
  if (m.lastText) parts.push(`<p class="last-action" id="last-action">${esc(m.lastText)}</p>`);
  return `<div class="center">${parts.join("")}</div>`;
}

// the felt: the person's own seat at the bottom, the others where they sit at a real table. At a
// live seat (m.mineApart) the own seat is drawn by mySeatHtml inside the panel with the hand
// and the prompt, so the person's melds and discards stay on screen while a prompt is open.
export function feltHtml(m) {
  const bottom = m.bottom ?? m.me ?? 0;
  const seats = [];
  for (let k = m.mineApart ? 1 : 0; k < m.n; k++) seats.push(seatHtml(m, (bottom + k) % m.n));
  return `<div class="felt felt-${m.game} n${m.n}${m.mineApart ? " mine-apart" : ""}" dir="ltr">${seats.join("")}${centerHtml(m)}</div>`;
}

// the person's own seat (name, badges, melds, discards) above the hand, on a strip of felt
export function mySeatHtml(m) {
  if (m.me === null || m.me === undefined || !m.started) return "";
  return `<div class="my-seat felt-strip" dir="ltr">${seatHtml(m, m.me)}</div>`;
}

// the card offered in a claim window, marked: also the newest card played when it was laid on the
// table (a discard, a reveal), not when it is the tile of an added kong
function offeredHtml(m, card, cls) {
  const role = card.laid ? "offered last-discard" : "offered";
  return pieceHtml(m.game, card.id, { cls, attrs: `data-piece="${card.id}" data-role="${role}"` });
}

// The newest card played that still lies in a row (a discard, or a revealed card nobody took), as
// {id, seat}, from the events this page has seen up to the view's version; null when none lies, or
// when the card on offer was itself just played (it carries that role then).
export function lastLaid(m, events) {
  const ui = gameUi(m.game);
  const card = ui.tableCard(m, namer(m.kinds, m.me, m.people));
  if (card && card.laid) return null; // the card on offer is the newest card played
  const rows = [];
  for (let i = 0; i < m.n; i++) rows.push(new Set(ui.rowOf(m, i) || []));
  for (let k = events.length - 1; k >= 0; k--) {
    if (events[k].v > m.version) continue;
    const id = ui.laidPiece(events[k].ev || {});
    if (id === null || id === undefined) continue;
    const seat = rows.findIndex((r) => r.has(id));
    if (seat >= 0) return { id, seat };
  }
  return null;
}

// At a live seat, the top of the panel by the hand: the card the table offers (a claim window's
// card, large) or else the newest card played, each marked and never under the prompt; and the
// stock or wall count. The felt keeps its rows, the newest card there marked too.
export function focusHtml(m) {
  if (m.me === null || m.me === undefined || !m.started || m.result) return "";
  const ui = gameUi(m.game);
  const name = namer(m.kinds, m.me, m.people);
  const card = ui.tableCard(m, name);
  const parts = [];
  if (card) parts.push(`<div class="focus-card offered-card">${offeredHtml(m, card, "lg")}<span class="focus-text">${esc(card.text)}</span></div>`);
  const last = m.lastPiece;
  if (last && !(card && card.laid)) {
    parts.push(`<div class="focus-card last-card">${pieceHtml(m.game, last.id, { cls: "md newest", attrs: `data-piece="${last.id}" data-role="last-discard"` })}<span class="focus-text">${esc(t("focus.last", { seat: name.obj(last.seat) }))}</span></div>`);
  }
  parts.push(`<span class="focus-pile">${esc(ui.pileText(m))}</span>`);
  return `<div class="focus" id="focus" role="group" aria-label="${esc(t("focus.title"))}">${parts.join("")}</div>`;
}

// the newest line of the move log, beside the hand
export function lastActionHtml(text) {
  return `<p class="last-action last-strip" id="last-action" title="${esc(t("last.title"))}">${esc(text)}</p>`;
}

// ------------------------------------------------------------------ the person's hand and prompts
export function myHandHtml(m, ctx, interactive = true) {
  if (m.me === null || m.me === undefined || !m.started) return "";
  const hand = m.hands[m.me];
  const ui = gameUi(m.game);
  const discardable = new Set(interactive ? m.legal.filter((a) => a.type === "Discard").map(ui.actionPiece) : []);
  const sel = ctx.selected;
  const button = (id) => {
    const ok = discardable.has(id);
    const drawn = ui.isDrawn(m, id);
    return pieceHtml(m.game, id, {
      tag: "button",
      cls: `${ok ? "can" : ""}${sel === id ? " selected" : ""}${drawn ? " drawn" : ""}`,
      attrs: `type="button" data-card="${id}" aria-pressed="${sel === id}" ${ok ? "" : 'aria-disabled="true"'}`,
    });
  };
  // the card just drawn stands apart at the right end of the hand, as on a real table
  const drawn = hand.find((id) => ui.isDrawn(m, id));
  const rest = drawn === undefined ? hand : hand.filter((id) => id !== drawn);
  const cards = groupHand(m.game, rest).map((g) => `<span class="hand-group">${g.ids.map(button).join("")}</span>`).join("")
    + (drawn === undefined ? "" : `<span class="hand-group drawn-apart">${button(drawn)}</span>`);
  return `<div class="my-hand" role="toolbar" aria-label="${t("yourhand")}" id="my-hand" dir="ltr">${cards}</div>${ui.handExtraHtml(m)}`;
}

export function actionLabel(game, a) {
  return gameUi(game).actionLabel(a);
}
export function actionAria(game, a) {
  return gameUi(game).actionAria(a);
}
const kindAttr = (a) => `${a.type}${a.claim ? ":" + a.claim : ""}`;

// each answer as a button; with the coach on, what the answer is worth inside it (its own line,
// read after the label: aria-describedby keeps the button's name the answer itself)
function optionsHtml(m, list, disabled) {
  return `<div class="options">${list.map(([a, i]) => {
    const note = disabled ? "" : coachNoteHtml(m, a, i);
    const described = note ? ` aria-describedby="note-${i}"` : "";
    return `<button type="button" class="option ${a.type === "Pass" ? "secondary" : "primary"}" data-action="${i}" data-kind="${kindAttr(a)}" aria-label="${esc(actionAria(m.game, a))}"${described}${disabled ? ' disabled aria-disabled="true"' : ""}>${actionLabel(m.game, a)}${note.replace("<span ", `<span id="note-${i}" `)}</button>`;
  }).join("")}</div>`;
}

// A prompt held after its window closed before the person answered: disabled, with who took
// the card and why; its buttons are inert (a click there never reaches the next prompt)
export function heldPromptHtml(m, hold) {
  const name = namer(m.kinds, m.me, m.people);
  const reason = closedReason(m.game, name, hold.resolution, hold.legal);
  const list = (hold.legal || []).map((a, i) => [a, i]).filter(([a]) => a.type !== "Discard").sort(([a], [b]) => (a.type === "Pass") - (b.type === "Pass"));
  const head = hold.shown ? t("hold.closed", { n: windowNo(m.game, hold.window) }) : t("hold.missed", { n: windowNo(m.game, hold.window), card: pieceName(m.game, hold.card) });
  const rule = reason.rule ? ` <span class="rule-id">${esc(reason.rule)}</span>` : "";
  const explain = reason.rule && ruleText(m.game, reason.rule) ? `<p class="explain">${esc(ruleText(m.game, reason.rule))}</p>` : "";
  return `<div class="prompt held" id="held-prompt" role="status" aria-live="assertive" data-window="${hold.window}">
    <p class="held-head">${esc(head)}</p>
    <p class="held-why" id="held-why">${esc(reason.text || t("hold.wait"))}${rule}</p>${explain}
    ${list.length ? optionsHtml(m, list, true) : ""}</div>`;
}

export function actionsHtml(m, ctx, startSeed) {
  if (m.me === null || m.me === undefined || m.result) return "";
  const out = [];
  if (m.prompt === "start") {
    out.push(`<div class="prompt" role="group" aria-label="${t("prompt.start")}"><p>${t("prompt.start")}</p>
      <label for="start-seed">${t("lobby.seed")}</label> <input id="start-seed" value="${esc(startSeed)}">
      <button type="button" class="primary" id="do-start">${t("lobby.start")}</button></div>`);
    return out.join("");
  }
  const others = m.legal.map((a, i) => [a, i]).filter(([a]) => a.type !== "Discard")
    .sort(([a], [b]) => (a.type === "Pass") - (b.type === "Pass")); // claims first, pass last
  const discards = m.legal.filter((a) => a.type === "Discard");
  const ui = gameUi(m.game);
  if (others.length) {
    const card = ui.claimCard(m);
    const head = m.prompt === "claim" ? t("prompt.claim", { card: pieceName(m.game, card) }) : t("prompt.options");
    const n = m.prompt === "claim" ? ` <span class="window-no">${esc(t("replay.window", { n: windowNo(m.game, ui.claimWindow(m)) }))}</span>` : "";
    out.push(`<div class="prompt" role="group" aria-labelledby="prompt-head"><p id="prompt-head">${esc(head)}${n}</p>${optionsHtml(m, others, false)}</div>`);
  }
  if (discards.length) {
    const sel = ctx.selected;
    const selOk = sel !== null && discards.some((a) => ui.actionPiece(a) === sel);
    out.push(`<div class="prompt discard-prompt"><p>${t(selOk ? "prompt.confirm" : "prompt.discard")}</p>
      <button type="button" class="primary" id="confirm" data-action="discard" data-kind="Discard" ${selOk ? "" : "disabled"}>${selOk ? esc(t("discard.this", { card: pieceName(m.game, sel) })) : t("discard")}</button>
      ${selOk ? `<button type="button" class="secondary" id="unselect">${t("cancel")}</button>` : ""}</div>`);
  }
  return out.join("");
}

// ------------------------------------------------------------------ result sheet
function paymentsHtml(m, payments, winner) {
  const name = namer(m.kinds, m.you ?? m.me, m.people);
  const order = [...payments.keys()];
  if (winner !== null && winner !== undefined) order.sort((a, b) => (b === winner) - (a === winner) || a - b);
  return `<table class="payments" id="res-payments"><caption>${t("result.payments")} <span class="rule-id">${gameUi(m.game).paymentsRule}</span></caption><tbody>
    ${order.map((i) => { const p = payments[i]; return `<tr data-seat="${i}"${i === winner ? ' class="winner"' : ""}><th>${esc(name(i))}</th><td class="num ${p > 0 ? "plus" : p < 0 ? "minus" : ""}">${p > 0 ? "+" : ""}${p}</td></tr>`; }).join("")}</tbody></table>`;
}

// every seat's hand once the deal is over; extraHtml(i): what the game shows beside seat i's hand
export function allHandsHtml(m, hands, extraHtml, rule) {
  const name = namer(m.kinds, m.you ?? m.me, m.people);
  return `<details class="hands" id="res-hands"><summary>${t("result.hands")} <span class="rule-id">${rule}</span></summary>${hands.map((h, i) => `<div data-seat="${i}" class="hand-line"><strong>${esc(name(i))}</strong> <span dir="ltr">${groupedHtml(m.game, h, "xs")}${extraHtml ? extraHtml(i) : ""}</span></div>`).join("")}</details>`;
}

export function resultHtml(m, ctx) {
  if (!m.result) return "";
  const name = namer(m.kinds, m.you ?? m.me, m.people);
  const won = (seat) => t(name.isMe(seat) ? "result.won.you" : "result.won", { seat: name(seat) });
  const { body, payments, winner } = gameUi(m.game).resultBody(m, name, won);
  const pay = payments ? paymentsHtml(m, payments, winner) : "";
  return `<section class="result card-panel" aria-labelledby="result-title" id="result" tabindex="-1"><h2 id="result-title">${t("result.title")}</h2>${body}${pay}${ctx.resultLinks || ""}
    <div class="fair-box">${fairBoxHtml(ctx)}</div></section>`;
}

// ------------------------------------------------------------------ fairness check
export function fairBoxHtml(ctx) {
  const f = ctx.fair;
  const inputs = f && f.records ? (() => {
    const rev = f.records[f.records.length - 1].data;
    const v = f.inputs || {};
    return `<div class="fair-inputs">
      <label>${t("fair.commitment")} <input readonly value="${esc(f.records[0].data.commitment)}" id="fair-commitment"></label>
      <label>${t("fair.serverseed")} <input id="fair-server" value="${esc(v.server_seed ?? rev.server_seed)}" spellcheck="false"></label>
      <label>${t("fair.clientseed")} <input id="fair-client" value="${esc(v.client_seed ?? clientSeedText(rev))}" spellcheck="false"></label>
      <label>${t("fair.seed")} <input id="fair-seed" value="${esc(v.seed ?? rev.seed)}" spellcheck="false"></label></div>`;
  })() : "";
  const steps = f && f.report ? `<ol class="fair-steps">${f.report.steps.map((s) => `<li class="${s.ok ? "ok" : "bad"}" data-step="${s.id}"><span aria-hidden="true">${s.ok ? "✔" : "✘"}</span> ${t("fair.step." + s.id)} <code>${esc(String(s.detail).slice(0, 64))}</code> <span class="sr-only">${s.ok ? t("fair.pass") : t("fair.fail")}</span></li>`).join("")}</ol>
    <p id="fair-verdict" class="fair-verdict ${f.report.ok ? "pass" : "fail"}" role="status" tabindex="-1">${f.report.ok ? t("fair.ok") : t("fair.bad")}</p>` : "";
  return `<h3>${t("fair.title")}</h3><p class="help">${t("fair.help")}</p>${inputs}${steps}
    <button type="button" class="primary" id="fair-run">${f && f.report ? t("fair.again") : t("fair.run")}</button>`;
}

// What the person typed into the fairness form, kept before the result sheet is drawn again (a
// late rating line or any other redraw must not put the revealed seeds back over their edit).
export function keepFairEdits(ctx) {
  const server = $("#fair-server");
  if (!ctx.fair || !ctx.fair.records || !server) return;
  ctx.fair.inputs = { server_seed: server.value.trim(), client_seed: $("#fair-client").value, seed: $("#fair-seed").value.trim() };
}

export async function runFairness(ctx, rerender) {
  try {
    if (!ctx.fair || !ctx.fair.records) {
      const text = await api(`/deals/${ctx.deal}/log`);
      ctx.fair = { records: parseLog(typeof text === "string" ? text : JSON.stringify(text)) };
    } else {
      keepFairEdits(ctx);
    }
    ctx.fair.report = await fairnessCheck(ctx.game, ctx.fair.records, ctx.fair.inputs);
  } catch (e) { showProblem(e, ctx.game); }
  rerender();
  const v = $("#fair-verdict"); if (v) v.focus({ preventScroll: true });
}
