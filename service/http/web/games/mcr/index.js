// MCR (Chinese Official Mahjong) in the browser: 4 seats, 144 tiles. What the pages need of this
// game (its model of a server view, its tiles, the centre of its table, its seat badges, its
// result sheet, its coach, its rules page); registered in ../games.js.
import "./i18n.js"; // its strings, added to the tables
import { t, getLang } from "../../i18n.js";
import { pieceHtml, hasCjk } from "../../cards.js";
import { mcTileSvg, mcTileName, mcCode, mcTileOfCode } from "./cards.js";
import { FANS, FAN_POINTS, COMBINED_FAN, fanName } from "./fans.js";
import { RULES, TABLE_NOTES } from "./rules.js";
import { say, CLAIM_LEVEL } from "./words.js";
import { esc } from "../../net.js";
import { piecesHtml, backsHtml, groupedHtml, meldHtml, allHandsHtml } from "../../table.js";
import { same } from "../../fair.js";
import { rule } from "../../coach.js";

const NAME = "mcr";

// ------------------------------------------------------------------ names and small pieces
const mcName = (code) => mcTileName(mcTileOfCode(code));
const mcPiece = (code) => pieceHtml(NAME, mcTileOfCode(code), { cls: "xs" });

function fansText(fans) {
  const lang = getLang();
  return fans.map((f) => `${fanName(f, lang)} ${f.points * f.count}`).join(", ");
}

function fanLabel(f) {
  const lang = FANS[f.name_en]?.[getLang()] ? getLang() : "en";
  const title = lang === "en" ? "" : ` title="${esc(f.name_en)}"`;
  return `<span class="fan-name" lang="${lang}"${title}>${esc(fanName(f, lang))}</span>`;
}

// ------------------------------------------------------------------ coach (the seat's own advice)
// What one wait scores before flowers, or that it falls under the minimum (MC-4.3)
function mcScoreHtml(w) {
  const d = w.discard, s = w.self_drawn;
  const dOk = d && !d.under_minimum, sOk = s && !s.under_minimum;
  if (dOk) return `<span class="pts">${esc(t("coach.pts", { n: d.points }))}</span>${s ? " · " + esc(t("coach.selfpts", { n: s.points })) : ""}`;
  if (sOk) return `<span class="under8">${esc(t("coach.under8.discard", { n: d ? d.points : "—" }))}</span>${rule("MC-4.3")} · <span class="pts">${esc(t("coach.selfpts", { n: s.points }))}</span>`;
  const both = t("coach.under8.both", { d: d ? d.points : "—", s: s ? s.points : "—" });
  return `<span class="under8">${esc(t("coach.under8"))}</span> <span class="muted">${esc(both)}</span>${rule("MC-4.3")}`;
}

function mcWaitsHtml(waits) {
  if (!waits.length) return `<p class="muted">${esc(t("coach.nowaits"))}</p>`;
  return `<ul class="coach-waits">${waits.map((w) => `<li class="wait${w.discard && w.discard.under_minimum && !(w.self_drawn && !w.self_drawn.under_minimum) ? " short" : ""}" data-tile="${esc(w.tile)}">${mcPiece(w.tile)} <strong>${esc(mcName(w.tile))}</strong> · ${esc(t("coach.unseen", { n: w.unseen }))} · ${mcScoreHtml(w)}</li>`).join("")}</ul>`;
}

function shantenText(s) {
  if (s === -1) return t("coach.complete");
  if (s === 0) return t("coach.ready");
  if (s === 1) return t("coach.shanten1");
  return t("coach.shanten", { n: s });
}

function noWinHtml(nw) {
  if (!nw) return "";
  const p = { tile: nw.tile ? mcName(nw.tile) : t("the.card"), points: nw.points ?? "—" };
  const fans = nw.fans && nw.fans.length ? ` <span class="muted">(${esc(fansText(nw.fans))})</span>` : "";
  return `<p class="coach-nowin" id="coach-nowin" data-reason="${esc(nw.reason)}">${esc(t("coach.nowin." + nw.reason, p))}${fans}${rule(nw.rule)}</p>`;
}

function mcDiscardHtml(d) {
  const head = t("coach.after", { card: mcName(d.tile) });
  if (d.shanten === 0) return `${mcPiece(d.tile)} <strong>${esc(head)}</strong> ${esc(t("coach.ready"))}${mcWaitsHtml(d.waits)}`;
  const useful = d.useful.map((u) => mcPiece(u.tile)).join("");
  return `${mcPiece(d.tile)} <strong>${esc(head)}</strong> ${esc(shantenText(d.shanten))} ${esc(t("coach.useful", { n: d.useful_unseen, k: d.useful.length }))} <span class="coach-useful" dir="ltr">${useful}</span>`;
}

// ------------------------------------------------------------------ rules page: the fan table
// All 81 fans with their points, in the calculator's order (highest first), named in the page's
// language from fans.js; the calculator's one combined entry after the table.
function fanTableHtml() {
  const lang = getLang();
  const zh = hasCjk();
  const names = Object.keys(FANS).filter((en) => en !== COMBINED_FAN);
  let last = null;
  const rows = names.map((en) => {
    const p = FAN_POINTS[en];
    const start = p !== last;
    last = p;
    return `<tr data-fan="${esc(en)}" data-points="${p}"${start ? ' class="group-start"' : ""}><td class="num">${p}</td><td lang="${lang}">${esc(fanName({ name_en: en }, lang))}</td>${zh ? `<td class="zh" lang="zh">${esc(FANS[en].zh)}</td>` : ""}</tr>`;
  }).join("");
  const combined = FANS[COMBINED_FAN];
  return `<section id="sec-fans" aria-labelledby="fans-title"><h2 id="fans-title">${esc(t("rules.fans.title"))}</h2>
    <p>${esc(t("rules.fans.lead", { n: names.length }))} <span class="rule-id">MC-4.3</span></p>
    <table class="fan-table" id="fan-table"><thead><tr><th class="num">${esc(t("rules.fans.points"))}</th><th>${esc(t("rules.fans.name"))}</th>${zh ? `<th>${esc(t("rules.fans.zh"))}</th>` : ""}</tr></thead><tbody>${rows}</tbody></table>
    <p class="help" id="fan-combined" data-fan="${esc(COMBINED_FAN)}" data-points="${FAN_POINTS[COMBINED_FAN]}">${esc(t("rules.fans.combined", { name: fanName({ name_en: COMBINED_FAN }, lang), zh: combined.zh, n: FAN_POINTS[COMBINED_FAN] }))}</p></section>`;
}

const windBadge = (m, i) => `<span class="badge wind">${t("tile.wind" + (m.winds[i] + 1))}</span>`;

export default {
  name: NAME,
  seats: 4,
  styles: new URL("./style.css", import.meta.url).href, // its own style sheet
  deckSize: 144, // the fairness check re-derives a wall of this many tiles (MC-2.4)
  rulePrefix: "MC",
  navId: "nav-rules-mcr", // its rules page's link in the page header
  paymentsRule: "MC-4.4",
  discardPhase: "turn", // the phase in which the seat on turn must discard
  rowKey: "discards", // the name of a seat's row of played tiles
  // a match (TB-5, MC-6): the lengths the lobby offers ("n": a number of hands), no target, the
  // unit of its running score, and hand k (from 0) in words: its round's wind and place in it
  match: {
    lengths: [{ value: "round", label: "match.mc.round" }, { value: "game", label: "match.mc.game" }, { value: "n", label: "match.mc.hands", dflt: 8 }],
    target: false,
    unit: "points",
    rule: "MC-6.1",
    handText(mt, k) {
      const d = mt.deals && mt.deals[k];
      const round = d && Number.isInteger(d.round) ? d.round : Math.floor(k / 4) % 4; // MC-6.2
      const base = t("match.mc.hand", { round: t("match.round." + round), h: (k % 4) + 1 });
      return mt.length_word === "round" ? base : `${base} · ${t("match.hand", { k: k + 1, n: mt.length })}`;
    },
  },

  // ---------------------------------------------------------------- pieces and actions
  pieceSvg: (id, opts) => mcTileSvg(id, opts),
  pieceName: (id) => mcTileName(id),
  actionPiece: (a) => a.tile, // the tile a Discard names
  discardEvent: "TileDiscarded", // the event a discard sounds on
  isWin: (a) => a.type === "DeclareWin" || (a.type === "Claim" && a.claim === "win"), // a legal action that wins
  windowNo: (id) => Number(id) + 1, // claim windows are numbered from 1 (MCR's ids start at 0)
  // a view's (or a model's) open claim window, the tile it is for, and the person's answer to it
  claimWindow: (v) => v.window && v.window.window,
  claimCard: (v) => v.window && v.window.card,
  myAnswer: (v) => v.window && v.window.answer,
  closedBy: () => null, // the view does not say how a window closed
  // ---------------------------------------------------------------- models of the server's views
  modelFromSeatView(v, kinds) {
    const started = v.seats && v.seats.length > 0;
    return {
      game: NAME, n: 4, me: v.seat, kinds, dealer: v.dealer, started,
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
  },
  modelFromFullView(f, kinds) {
    const started = f.hands && f.hands.length > 0;
    return {
      game: NAME, n: 4, me: null, kinds, dealer: f.dealer, started, winds: started ? f.seat_winds : [0, 1, 2, 3],
      hands: started ? f.hands : [0, 0, 0, 0], flowers: started ? f.flowers : [[], [], [], []],
      melds: started ? f.melds : [[], [], [], []], discards: started ? f.discards : [[], [], [], []],
      wall: f.wall_count, turn: f.turn, window: f.window, drawn: null, phase: f.phase, prevailing: f.prevailing_wind,
      result: f.phase === "over" ? { exhausted: f.exhausted, win: f.result, hands: f.hands, abandoned: !!f.abandoned } : null, legal: [],
    };
  },
  replayStep: () => {},

  // ---------------------------------------------------------------- hands and melds
  // one group per suit and the honours, flowers last
  sortHand: (sorted) => sorted,
  handGroup: (id) => (id >= 136 ? 99 : id < 108 ? Math.floor((id >> 2) / 9) : 3 + ((id >> 2) >= 31 ? 1 : 0)),
  meldHtml(m, cls) {
    const hidden = m.kind === "concealed_kong" && (!m.tiles || !m.tiles.length);
    const tiles = hidden ? backsHtml(NAME, 4, cls) : piecesHtml(NAME, [...m.tiles].sort((a, b) => a - b), cls);
    const label = t("meld." + m.kind) + (hidden ? "" : ": " + m.tiles.map(mcTileName).join(", "));
    return `<span class="meld" role="group" aria-label="${esc(label)}"><span class="meld-tag">${t("meld." + m.kind)}</span>${tiles}</span>`;
  },
  isDrawn: (m, id) => m.drawn === id,
  handExtraHtml: () => "",

  // ---------------------------------------------------------------- seats and centre
  seatBadges: (m, i) => (m.started ? [windBadge(m, i)] : []),
  seatEndBadges: () => [],
  openHandExtraHtml: () => "",
  seatExtraHtml: (m, i) => (m.flowers[i].length ? `<div class="flowers" aria-label="${t("flowers")}"><span class="meld-tag">${t("flowers")}</span>${piecesHtml(NAME, m.flowers[i], "xs")}</div>` : ""),
  rowOf: (m, i) => m.discards[i],
  pileText: (m) => t("wall", { n: m.wall }),
  centreHtml(m, name) {
    const parts = [];
    if (m.prevailing !== undefined && m.prevailing !== null) {
      parts.push(`<p class="prevailing" id="prevailing">${t("prevailing", { wind: t("tile.wind" + (m.prevailing + 1)) })} <span class="rule-id">MC-2.3</span></p>`);
    }
    return parts.join("");
  },
  // the tile a claim window offers (a discard, or the tile of an added kong), and where it came from
  // (`laid`: a discard, so it is also the newest tile played; an added kong's tile is not)
  tableCard: (m, name) => (m.window ? { id: m.window.card, laid: m.window.source !== "added_kong", text: t("src." + (m.window.source === "added_kong" ? "added_kong" : "discard"), { seat: name.obj(m.window.source_seat) }) } : null),
  // the tile an event lays on the table, to lie in its discards unless someone takes it
  laidPiece: (ev) => (ev.type === "TileDiscarded" ? ev.tile : null),
  windowOpen: (m) => !!m.window,
  answered: (m) => !!(m.window && m.window.answer),

  // ---------------------------------------------------------------- answers as buttons
  actionLabel(a) {
    if (a.type === "Claim") return `<em>${t("claim." + a.claim)}</em>${piecesHtml(NAME, a.tiles, "xs")}`;
    if (a.type === "ConcealedKong") return `<em>${t("claim.concealed_kong")}</em>${piecesHtml(NAME, a.tiles, "xs")}`;
    if (a.type === "AddedKong") return `<em>${t("claim.added_kong")}</em>${piecesHtml(NAME, [a.tile], "xs")}`;
    if (a.type === "DeclareWin") return `<em>${t("claim.selfdrawn")}</em>`;
    return esc(t("claim." + a.type.toLowerCase()));
  },
  actionAria(a) {
    if (a.type === "Claim") return t("claim." + a.claim) + ": " + a.tiles.map(mcTileName).join(", ");
    if (a.type === "ConcealedKong") return t("claim.concealed_kong") + ": " + a.tiles.map(mcTileName).join(", ");
    if (a.type === "AddedKong") return t("claim.added_kong") + ": " + mcTileName(a.tile);
    if (a.type === "DeclareWin") return t("claim.selfdrawn");
    return t("claim." + a.type.toLowerCase());
  },

  // ---------------------------------------------------------------- the move log
  say, // the sentence of each of its own events (./words.js)
  claimLevel: CLAIM_LEVEL,

  // ---------------------------------------------------------------- result sheet
  // the sheet's body (the winning hand, fans and points), its payments and its winner
  resultBody(m, name) {
    const r = m.result;
    let body = "";
    let payments = null;
    let winner = null;
    if (r.win) {
      const w = r.win;
      winner = w.seat;
      payments = w.payments;
      const melds = (m.melds[w.seat] || []).map((x) => meldHtml(NAME, x, "sm")).join("");
      body = `<p class="verdict" id="verdict">${esc(t(name.isMe(w.seat) ? (w.self_drawn ? "result.selfdrawn.you" : "result.won.you") : (w.self_drawn ? "result.selfdrawn" : "result.won"), { seat: name(w.seat) }))}${w.from_seat !== null && w.from_seat !== undefined ? " · " + esc(t("result.from", { seat: name.obj(w.from_seat) })) : ""}</p>
      <div class="win-hand" id="win-hand" dir="ltr" aria-label="${t("result.winning")}">${melds}<span class="concealed-part">${groupedHtml(NAME, w.hand, "sm")}</span><span class="win-tile" id="win-tile" title="${esc(t("result.wintile"))}">${pieceHtml(NAME, w.tile, { cls: "sm" })}<small>${t("result.wintile")}</small></span></div>
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
    return { body, payments, winner };
  },

  // ---------------------------------------------------------------- fairness check
  // What the log says was dealt, compared with the wall the seed gives. Returns [ok, detail].
  compareDeal(data, dealer, deck) {
    let front = 0, back = deck.length, checked = 0;
    for (const d of data) {
      if (d.type === "TilesDealt") {
        const want = deck.slice(front, front + d.tiles.length);
        if (!same(d.tiles, want)) return [false, `seat ${d.seat}: MC-2.4`];
        front += d.tiles.length; checked += d.tiles.length;
      } else if (d.type === "FlowerReplaced" && d.replacement !== null) {
        back -= 1; checked += 1;
        if (d.replacement !== deck[back]) return [false, "flower replacement: MC-2.4"];
      } else if (d.type === "TileDrawn") {
        const want = d.replacement ? deck[--back] : deck[front++];
        checked += 1;
        if (d.tile !== want) return [false, d.replacement ? "replacement tile: MC-3.3" : "draw: MC-3.1"];
      }
    }
    return [true, `${checked}/144`];
  },

  // ---------------------------------------------------------------- lobby
  iconHtml: () => pieceHtml(NAME, 16) + pieceHtml(NAME, 128),

  // ---------------------------------------------------------------- coach
  coachBody(a) {
    const out = [];
    if (a.shanten === null || a.shanten === undefined) return `<p class="muted">${esc(t("coach.nothing"))}</p>`;
    out.push(`<p class="coach-line"><strong id="coach-shanten" data-shanten="${a.shanten}">${esc(shantenText(a.shanten))}</strong>${rule("MC-4.1")}</p>`);
    if (a.win) out.push(`<p class="coach-win">${esc(t("coach.win", { fans: fansText(a.win.fans), total: a.win.total }))}</p>`);
    out.push(noWinHtml(a.no_win));
    if (a.discards.length) {
      const best = Math.min(...a.discards.map((d) => d.shanten));
      const top = a.discards.filter((d) => d.shanten === best).sort((x, y) => y.useful_unseen - x.useful_unseen).slice(0, 4);
      const key = best === 0 ? "coach.best.ready" : "coach.best";
      out.push(`<p class="coach-line" id="coach-best">${esc(t(key))} ${top.map((d) => `<span class="coach-pick" data-tile="${esc(d.tile)}">${mcPiece(d.tile)} ${esc(mcName(d.tile))} (${esc(t("coach.useful.short", { n: d.useful_unseen }))})</span>`).join(" ")}</p>`);
    } else if (a.shanten === 0) {
      out.push(`<div id="coach-waits-box"><p class="coach-line">${esc(t("coach.waits"))}</p>${mcWaitsHtml(a.waits)}</div>`);
    } else if (a.shanten > 0) {
      out.push(`<p class="coach-line">${esc(t("coach.useful", { n: a.useful_unseen, k: a.useful.length }))} <span class="coach-useful" dir="ltr">${a.useful.map((u) => mcPiece(u.tile)).join("")}</span></p>`);
    }
    return out.join("");
  },
  // the effect of discarding tile `id`
  coachDetail(a, id) {
    const d = a.discards.find((x) => x.tile === mcCode(id));
    return d ? mcDiscardHtml(d) : "";
  },
  // inside a win button: the win's fans and total
  coachNote(a, action) {
    const win = action.type === "DeclareWin" || (action.type === "Claim" && action.claim === "win");
    if (!win || !a.win) return "";
    return `<span class="coach-note win-note">${esc(t("coach.win", { fans: fansText(a.win.fans), total: a.win.total }))}</span>`;
  },

  // ---------------------------------------------------------------- rules page
  rules: RULES, // its rules in every language (./rules.js)
  tableNotes: TABLE_NOTES, // what it adds to a table rule's text
  rulesSampleHtml: () => `<div class="sample" aria-hidden="true">${[0, 40, 76, 108, 112, 124, 128, 132, 136].map((c) => pieceHtml(NAME, c, { cls: "sm" })).join("")}</div>`,
  rulesTocHtml: () => `<li><a href="#/rules/${NAME}/fans">${esc(t("rules.fans.title"))}</a></li>`,
  rulesTablesHtml: () => fanTableHtml(),
  rulesNamesHtml: () => `<section><h2>${t("rules.tiles")}</h2><ul class="names">${[...Array(34).keys()].map((k) => `<li>${pieceHtml(NAME, k * 4, { cls: "xs" })} ${esc(mcTileName(k * 4))}</li>`).join("")}${[136, 137].map((k) => `<li>${pieceHtml(NAME, k, { cls: "xs" })} ${esc(mcTileName(k))}</li>`).join("")}</ul></section>`,
};
