// The table as HTML: models of the server's views, seats, the centre, the person's hand and
// prompts, and the result sheet with the fairness check. Pure rendering: the pages (play, watch,
// replay) own the state and bind the controls.
import { t, getLang } from "./i18n.js";
import { pieceHtml, phKindFromName, phKindLabel, mcTileName, hasCjk } from "./cards.js";
import { clientSeedText, fairnessCheck, parseLog } from "./fair.js";
import { ruleText } from "./rules.js";
import { FANS, fanName } from "./fans.js";
import { api, esc, $ } from "./net.js";
import { namer, levelOf, pieceName, windowNo, closedReason } from "./words.js";
import { showProblem } from "./ui.js";
import { coachNoteHtml } from "./coach.js";

// ------------------------------------------------------------------ models
export function modelFromSeatView(game, v, kinds) {
  if (game === "paohuzi") {
    const over = !!(v.result && v.result.hands && v.result.hands.length);
    return {
      game, n: 3, me: v.seat, kinds, dealer: v.dealer, faceUp: v.face_up, started: v.dealer !== null,
      // once the deal is over every seat's cards and kan are shown (PH-7.3)
      hands: [0, 1, 2].map((i) => (i === v.seat ? v.hand : over ? v.result.hands[i] : v.concealed[i])),
      kans: [0, 1, 2].map((i) => (i === v.seat ? v.kans : over && v.result.kans && v.result.kans.length ? v.result.kans[i] : [])),
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
    result: v.result ? { exhausted: v.result.exhausted, win: v.result.win, hands: v.result.hands, abandoned: !!v.result.abandoned } : null,
    legal: v.legal_actions || [], prompt: v.prompt, version: v.version, prevailing: v.prevailing_wind,
  };
}

export function modelFromFullView(game, f, kinds) {
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
    wall: f.wall_count, turn: f.turn, window: f.window, drawn: null, phase: f.phase, prevailing: f.prevailing_wind,
    result: f.phase === "over" ? { exhausted: f.exhausted, win: f.result, hands: f.hands, abandoned: !!f.abandoned } : null, legal: [],
  };
}

// the seats anyone may know the table waits on: the seat to discard, and the person when asked
export function waitingOn(m) {
  const s = new Set();
  if (m.result || !m.started) return s;
  const discardPhase = m.game === "paohuzi" ? m.phase === "discard" : m.phase === "turn";
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
function backsHtml(game, count, cls = "") {
  let h = "";
  for (let i = 0; i < Math.min(count, 8); i++) h += pieceHtml(game, null, { back: true, cls });
  return h;
}

// The live hand's order: Paohuzi one column per rank (small before big), MCR one group per suit
// and the honours, flowers last. Every hand on every page is laid out this way.
export function groupHand(game, ids) {
  const sorted = [...ids].sort((a, b) => a - b);
  const key = game === "paohuzi"
    ? (id) => (id >> 2) % 10
    : (id) => (id >= 136 ? 99 : id < 108 ? Math.floor((id >> 2) / 9) : 3 + ((id >> 2) >= 31 ? 1 : 0));
  if (game === "paohuzi") sorted.sort((a, b) => ((a >> 2) % 10) - ((b >> 2) % 10) || a - b);
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

function kanHtml(game, k, cls) {
  return `<span class="meld kan" role="group" aria-label="${t("meld.kan")}: ${esc(phKindLabel(k[0] >> 2))}"><span class="meld-tag">${t("meld.kan")}</span>${piecesHtml(game, k, cls)}</span>`;
}

export function meldHtml(game, m, cls = "sm") {
  if (game === "paohuzi") {
    return `<span class="meld" role="group" aria-label="${esc(t("meld." + m.meld))}: ${esc(m.cards.map((c) => pieceName(game, c)).join(", "))}"><span class="meld-tag">${t("meld." + m.meld)}</span>${piecesHtml(game, [...m.cards].sort((a, b) => a - b), cls)}</span>`;
  }
  const hidden = m.kind === "concealed_kong" && (!m.tiles || !m.tiles.length);
  const tiles = hidden ? backsHtml(game, 4, cls) : piecesHtml(game, [...m.tiles].sort((a, b) => a - b), cls);
  const label = t("meld." + m.kind) + (hidden ? "" : ": " + m.tiles.map(mcTileName).join(", "));
  return `<span class="meld" role="group" aria-label="${esc(label)}"><span class="meld-tag">${t("meld." + m.kind)}</span>${tiles}</span>`;
}

// ------------------------------------------------------------------ seats and centre
export function seatHtml(m, i) {
  const pos = position(m.n, m.bottom ?? m.me, i);
  const game = m.game;
  const name = namer(m.kinds, m.you ?? m.me, m.people);
  const waiting = m.waiting || waitingOn(m);
  const badges = [];
  const level = levelOf(m.kinds, i);
  if (level) badges.push(`<span class="badge level">${esc(t("level." + level))}</span>`);
  if (m.dealer === i) badges.push(`<span class="badge dealer">${t("dealer")}</span>`);
  if (game === "mcr" && m.started) badges.push(`<span class="badge wind">${t("tile.wind" + (m.winds[i] + 1))}</span>`);
  if (waiting.has(i)) badges.push(`<span class="badge turn">${t("turn")}</span>`);
  if (m.kinds && m.kinds[i] === "open") badges.push(`<span class="badge open">${t("badge.open")}</span>`);
  if (m.away && m.away.includes(i)) badges.push(`<span class="badge away" data-away="${i}">${t("badge.away")}</span>`);
  // a person whose page has no live stream now (closed, or lost its connection)
  if (m.connected && m.kinds[i] === "human" && i !== m.me && !m.connected.includes(i)) badges.push(`<span class="badge offline" data-offline="${i}">${t("badge.offline")}</span>`);
  const clock = (m.deadlines || []).find((d) => d.seat === i);
  if (clock && m.clockBadge) badges.push(m.clockBadge(clock, i === m.me)); // TB-2.2: the seat that must act
  if (m.live && waiting.has(i) && level) badges.push(`<span class="thinking" role="status">${t("thinking")}<span class="dots" aria-hidden="true"><i></i><i></i><i></i></span></span>`);
  if (game === "paohuzi" && m.dead && m.dead[i]) badges.push(`<span class="badge dead">${t("dead")}</span>`);
  const hand = m.hands[i];
  const isMe = i === m.me;
  let handHtml = "";
  if (!isMe) {
    if (Array.isArray(hand)) {
      const kans = game === "paohuzi" && m.kans[i] ? m.kans[i].map((k) => kanHtml(game, k, "sm")).join("") : "";
      handHtml = `<div class="open-hand">${groupedHtml(game, hand, "sm")}${kans}</div>`;
    } else handHtml = `<div class="backs" aria-label="${t("concealed", { n: hand })}">${backsHtml(game, hand, "xs")}<span class="count">${hand}</span></div>`;
  }
  const melds = (m.melds[i] || []).map((x) => meldHtml(game, x)).join("");
  const row = game === "paohuzi" ? m.rows[i] : m.discards[i];
  const flowers = game === "mcr" && m.flowers[i].length ? `<div class="flowers" aria-label="${t("flowers")}"><span class="meld-tag">${t("flowers")}</span>${piecesHtml(game, m.flowers[i], "xs")}</div>` : "";
  return `<section class="seat seat-${pos}${waiting.has(i) ? " on-turn" : ""}" data-seat="${i}" aria-label="${esc(name(i))}">
    <header><strong class="seat-name">${esc(name(i))}</strong> ${badges.join(" ")}</header>
    ${handHtml}
    ${melds ? `<div class="melds">${melds}</div>` : ""}${flowers}
    <div class="row" aria-label="${t(game === "paohuzi" ? "row" : "discards")}">${row && row.length ? piecesHtml(game, row, "xs") : `<span class="muted">${t(game === "paohuzi" ? "row" : "discards")}: —</span>`}</div>
  </section>`;
}

export function centerHtml(m) {
  const game = m.game;
  const name = namer(m.kinds, m.you ?? m.me, m.people);
  const parts = [];
  if (!m.started) {
    parts.push(`<p class="status">${t("waiting.start")}</p>`);
    return `<div class="center">${parts.join("")}</div>`;
  }
  parts.push(`<div class="stock"><span class="stock-pile">${pieceHtml(game, null, { back: true, cls: "sm" })}</span><span id="stock-count">${game === "paohuzi" ? t("stock", { n: m.stock }) : t("wall", { n: m.wall })}</span></div>`);
  if (game === "mcr" && m.prevailing !== undefined && m.prevailing !== null) {
    parts.push(`<p class="prevailing" id="prevailing">${t("prevailing", { wind: t("tile.wind" + (m.prevailing + 1)) })} <span class="rule-id">MC-2.3</span></p>`);
  }
  if (game === "paohuzi" && m.faceUp !== null && m.faceUp !== undefined) {
    parts.push(`<div class="faceup">${pieceHtml(game, m.faceUp, { cls: "sm" })}<span>${t("faceup", { seat: name(m.dealer) })}</span></div>`);
  }
  if (game === "paohuzi" && m.table) {
    const src = m.table.source ? t("src." + m.table.source, { seat: name.obj(m.table.seat) }) : "";
    parts.push(`<div class="table-card">${pieceHtml(game, m.table.card, { cls: "lg" })}<span>${esc(src)}</span></div>`);
  }
  if (game === "mcr" && m.window) {
    parts.push(`<div class="table-card">${pieceHtml(game, m.window.card, { cls: "lg" })}<span>${esc(t("src." + (m.window.source === "added_kong" ? "added_kong" : "discard"), { seat: name.obj(m.window.source_seat) }))}</span></div>`);
  }
  let status = "";
  const windowOpen = game === "paohuzi" ? m.window !== null && m.window !== undefined : !!m.window;
  const answered = game === "paohuzi" ? !!m.myAnswer : !!(m.window && m.window.answer);
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

// the felt: the person's own seat at the bottom, the others where they sit at a real table
export function feltHtml(m) {
  const bottom = m.bottom ?? m.me ?? 0;
  const seats = [];
  for (let k = 0; k < m.n; k++) seats.push(seatHtml(m, (bottom + k) % m.n));
  return `<div class="felt felt-${m.game} n${m.n}" dir="ltr">${seats.join("")}${centerHtml(m)}</div>`;
}

// ------------------------------------------------------------------ the person's hand and prompts
export function myHandHtml(m, ctx, interactive = true) {
  if (m.me === null || m.me === undefined || !m.started) return "";
  const hand = m.hands[m.me];
  const discardable = new Set(interactive ? m.legal.filter((a) => a.type === "Discard").map((a) => (m.game === "paohuzi" ? a.card : a.tile)) : []);
  const sel = ctx.selected;
  const cards = groupHand(m.game, hand).map((g) => `<span class="hand-group">${g.ids.map((id) => {
    const ok = discardable.has(id);
    const drawn = (m.game === "mcr" && m.drawn === id) || (m.game === "paohuzi" && m.faceUp === id);
    return pieceHtml(m.game, id, {
      tag: "button",
      cls: `${ok ? "can" : ""}${sel === id ? " selected" : ""}${drawn ? " drawn" : ""}`,
      attrs: `type="button" data-card="${id}" aria-pressed="${sel === id}" ${ok ? "" : 'aria-disabled="true"'}`,
    });
  }).join("")}</span>`).join("");
  const kans = m.game === "paohuzi" && m.kans[m.me].length ? `<div class="kans" aria-label="${t("meld.kan")}">${m.kans[m.me].map((k) => kanHtml(m.game, k, "sm")).join("")}</div>` : "";
  const chou = m.game === "paohuzi" && m.chou && m.chou.length ? `<p class="chou">${t("chou")}: ${m.chou.map((k) => esc(phKindLabel(phKindFromName(k)))).join(", ")} <span class="rule-id">PH-6.7</span></p>` : "";
  return `<div class="my-hand" role="toolbar" aria-label="${t("yourhand")}" id="my-hand" dir="ltr">${cards}</div>${kans}${chou}`;
}

export function actionLabel(game, a) {
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
export function actionAria(game, a) {
  if (game === "paohuzi" && a.type === "Chi") return t("claim.chi") + ": " + a.groups.map((g, i) => (i ? t("bi") + " " : "") + g.map((k) => phKindLabel(phKindFromName(k))).join(" ")).join("; ");
  if (a.type === "Claim") return t("claim." + a.claim) + ": " + a.tiles.map(mcTileName).join(", ");
  if (a.type === "ConcealedKong") return t("claim.concealed_kong") + ": " + a.tiles.map(mcTileName).join(", ");
  if (a.type === "AddedKong") return t("claim.added_kong") + ": " + mcTileName(a.tile);
  if (a.type === "DeclareWin") return t("claim.selfdrawn");
  return t("claim." + a.type.toLowerCase());
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
  if (others.length) {
    const card = m.game === "paohuzi" ? m.table?.card : m.window?.card;
    const head = m.prompt === "claim" ? t("prompt.claim", { card: pieceName(m.game, card) }) : t("prompt.options");
    const n = m.prompt === "claim" ? ` <span class="window-no">${esc(t("replay.window", { n: windowNo(m.game, m.game === "paohuzi" ? m.window : m.window?.window) }))}</span>` : "";
    out.push(`<div class="prompt" role="group" aria-labelledby="prompt-head"><p id="prompt-head">${esc(head)}${n}</p>${optionsHtml(m, others, false)}</div>`);
  }
  if (discards.length) {
    const sel = ctx.selected;
    const selOk = sel !== null && discards.some((a) => (m.game === "paohuzi" ? a.card : a.tile) === sel);
    out.push(`<div class="prompt discard-prompt"><p>${t(selOk ? "prompt.confirm" : "prompt.discard")}</p>
      <button type="button" class="primary" id="confirm" ${selOk ? "" : "disabled"}>${selOk ? esc(t("discard.this", { card: pieceName(m.game, sel) })) : t("discard")}</button>
      ${selOk ? `<button type="button" class="secondary" id="unselect">${t("cancel")}</button>` : ""}</div>`);
  }
  return out.join("");
}

// ------------------------------------------------------------------ result sheet
function fanLabel(f) {
  const lang = FANS[f.name_en]?.[getLang()] ? getLang() : "en";
  const title = lang === "en" ? "" : ` title="${esc(f.name_en)}"`;
  return `<span class="fan-name" lang="${lang}"${title}>${esc(fanName(f, lang))}</span>`;
}

function paymentsHtml(m, payments, winner) {
  const name = namer(m.kinds, m.you ?? m.me, m.people);
  const order = [...payments.keys()];
  if (winner !== null && winner !== undefined) order.sort((a, b) => (b === winner) - (a === winner) || a - b);
  return `<table class="payments" id="res-payments"><caption>${t("result.payments")} <span class="rule-id">${m.game === "paohuzi" ? "PH-8.4" : "MC-4.4"}</span></caption><tbody>
    ${order.map((i) => { const p = payments[i]; return `<tr data-seat="${i}"${i === winner ? ' class="winner"' : ""}><th>${esc(name(i))}</th><td class="num ${p > 0 ? "plus" : p < 0 ? "minus" : ""}">${p > 0 ? "+" : ""}${p}</td></tr>`; }).join("")}</tbody></table>`;
}

function allHandsHtml(m, hands, kans, rule) {
  const name = namer(m.kinds, m.you ?? m.me, m.people);
  return `<details class="hands" id="res-hands"><summary>${t("result.hands")} <span class="rule-id">${rule}</span></summary>${hands.map((h, i) => `<div data-seat="${i}" class="hand-line"><strong>${esc(name(i))}</strong> <span dir="ltr">${groupedHtml(m.game, h, "xs")}${((kans && kans[i]) || []).map((k) => kanHtml(m.game, k, "xs")).join("")}</span></div>`).join("")}</details>`;
}

export function resultHtml(m, ctx) {
  if (!m.result) return "";
  const game = m.game;
  const name = namer(m.kinds, m.you ?? m.me, m.people);
  const won = (seat) => t(name.isMe(seat) ? "result.won.you" : "result.won", { seat: name(seat) });
  let body = "";
  let payments = null;
  let winner = null;
  if (game === "paohuzi") {
    const r = m.result;
    payments = r.payments;
    if (r.outcome === "won") {
      winner = r.winner;
      body = `<p class="verdict" id="verdict">${esc(won(r.winner))}${r.heavenly ? " · " + t("result.heavenly") : ""} <span class="rule-id">${esc(r.rule_id)}</span></p>
      ${r.card !== null && r.card !== undefined ? `<p>${t("result.card")}: ${pieceHtml(game, r.card, { cls: "sm" })} ${r.from_seat !== null && r.from_seat !== undefined && r.from_seat !== r.winner ? esc(t("result.from", { seat: name.obj(r.from_seat) })) : ""}</p>` : ""}
      <table class="split"><caption>${t("result.split")}</caption><thead><tr><th>${t("result.group")}</th><th>${t("result.cards")}</th><th>${t("result.huxi")}</th></tr></thead><tbody>
      ${r.groups.map((g) => `<tr><td>${t("meld." + g.group)}${g.exposed ? "" : " · " + t("concealed.short")}</td><td dir="ltr">${piecesHtml(game, [...g.cards].sort((a, b) => a - b), "xs")}</td><td class="num">${g.huxi}</td></tr>`).join("")}
      </tbody><tfoot><tr><th colspan="2">${t("result.huxi")}</th><td class="num" id="res-huxi">${r.huxi}</td></tr><tr><th colspan="2">${t("result.tun")} <span class="rule-id">PH-8.3</span></th><td class="num" id="res-tun">${r.tun}</td></tr></tfoot></table>`;
    } else {
      const how = r.outcome === "abandoned" ? "result.abandoned" : "result.drawn"; // TB-2.7 or PH-8
      body = `<p class="verdict" id="verdict">${t(how)} <span class="rule-id">${esc(r.rule_id)}</span></p>`;
    }
    if (r.hands && r.hands.length) body += allHandsHtml(m, r.hands, r.kans, "PH-7.3");
  } else {
    const r = m.result;
    if (r.win) {
      const w = r.win;
      winner = w.seat;
      payments = w.payments;
      const melds = (m.melds[w.seat] || []).map((x) => meldHtml(game, x, "sm")).join("");
      body = `<p class="verdict" id="verdict">${esc(t(name.isMe(w.seat) ? (w.self_drawn ? "result.selfdrawn.you" : "result.won.you") : (w.self_drawn ? "result.selfdrawn" : "result.won"), { seat: name(w.seat) }))}${w.from_seat !== null && w.from_seat !== undefined ? " · " + esc(t("result.from", { seat: name.obj(w.from_seat) })) : ""}</p>
      <div class="win-hand" id="win-hand" dir="ltr" aria-label="${t("result.winning")}">${melds}<span class="concealed-part">${groupedHtml(game, w.hand, "sm")}</span><span class="win-tile" id="win-tile" title="${esc(t("result.wintile"))}">${pieceHtml(game, w.tile, { cls: "sm" })}<small>${t("result.wintile")}</small></span></div>
      <table class="fans"><caption>${t("result.fans")}</caption><thead><tr><th>${t("result.fan")}</th><th>${t("result.points")}</th></tr></thead><tbody>
      ${w.fans.map((f) => `<tr data-fan="${esc(f.name_en)}"><td>${hasCjk() ? `<span lang="zh">${esc(f.name_zh)}</span> · ` : ""}${fanLabel(f)}${f.count > 1 ? ` ×${f.count}` : ""}</td><td class="num">${f.points * f.count}</td></tr>`).join("")}
      </tbody><tfoot><tr><th>${t("result.fanpoints")} <span class="rule-id">MC-4.3</span></th><td class="num">${w.fan_points}</td></tr><tr><th>${t("result.flowerpoints")} <span class="rule-id">MC-2.5</span></th><td class="num">${w.flower_points}</td></tr><tr><th>${t("result.total")}</th><td class="num" id="res-total">${w.total}</td></tr></tfoot></table>`;
    } else if (r.abandoned) {
      body = `<p class="verdict" id="verdict">${t("result.abandoned")} <span class="rule-id">TB-2.7</span></p>`;
      payments = [0, 0, 0, 0];
    } else {
      body = `<p class="verdict" id="verdict">${t("result.exhausted")} <span class="rule-id">MC-3.6</span></p>`;
      payments = [0, 0, 0, 0];
    }
    if (r.hands) body += allHandsHtml(m, r.hands, null, "MC-5.3");
  }
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

export async function runFairness(ctx, rerender) {
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
  const v = $("#fair-verdict"); if (v) v.focus({ preventScroll: true });
}
