// Paohuzi in the browser: 3 seats, 80 cards. What the pages need of this game (its model of a
// server view, its cards, the centre of its table, its seat badges, its result sheet, its coach,
// its rules page); registered in ../games.js.
import "./i18n.js"; // its strings, added to the tables
import { t } from "../../i18n.js";
import { pieceHtml } from "../../cards.js";
import { phCardSvg, phCardName, phKindLabel, phKindFromName } from "./cards.js";
import { HUXI, groupHuxi, tunFor, HUXI_EXAMPLES } from "./huxi.js";
import { RULES, TABLE_NOTES } from "./rules.js";
import { say, CLAIM_LEVEL } from "./words.js";
import { esc } from "../../net.js";
import { piecesHtml, allHandsHtml } from "../../table.js";
import { pieceName } from "../../words.js";
import { same } from "../../fair.js";
import { rule } from "../../coach.js";

const NAME = "paohuzi";

// ------------------------------------------------------------------ pieces
const phPiece = (kind) => pieceHtml(NAME, phKindFromName(kind) * 4, { cls: "xs" });
const phName = (kind) => phKindLabel(phKindFromName(kind));

function kanHtml(k, cls) {
  return `<span class="meld kan" role="group" aria-label="${t("meld.kan")}: ${esc(phKindLabel(k[0] >> 2))}"><span class="meld-tag">${t("meld.kan")}</span>${piecesHtml(NAME, k, cls)}</span>`;
}

// ------------------------------------------------------------------ coach (the seat's own advice)
const signed = (n) => (n > 0 ? "+" + n : n < 0 ? "−" + -n : "±0");

function phWinText(w) {
  const parts = [];
  if (w.other_reveal) parts.push(t("coach.ph.byother", { huxi: w.other_reveal.huxi, tun: w.other_reveal.tun }));
  if (w.own_reveal) parts.push(t("coach.ph.byown", { huxi: w.own_reveal.huxi, tun: w.own_reveal.tun }));
  return parts.join(" · ");
}

function phWinsHtml(wins) {
  if (!wins.length) return `<p class="muted" id="coach-nowins">${esc(t("coach.ph.nowins"))}</p>`;
  return `<p class="coach-line">${esc(t("coach.ph.wins"))}${rule("PH-4.6")}</p><ul class="coach-waits">${wins.map((w) => `<li class="wait" data-kind="${esc(w.kind)}">${phPiece(w.kind)} <strong>${esc(phName(w.kind))}</strong> · ${esc(t("coach.unseen", { n: w.unseen }))} · ${esc(phWinText(w))}</li>`).join("")}</ul>`;
}

function layoutHtml(l) {
  const groups = l.groups.map((g) => `<span class="coach-group${g.exposed ? " exposed" : ""}" data-group="${esc(g.group)}"><span class="meld-tag">${esc(t("meld." + g.group))} ${g.huxi}</span>${g.kinds.map(phPiece).join("")}</span>`).join("");
  const loose = l.loose.length ? `<span class="coach-group loose"><span class="meld-tag">${esc(t("coach.ph.loose"))}</span>${l.loose.map(phPiece).join("")}</span>` : "";
  return `<p class="coach-line"><strong id="coach-huxi" data-huxi="${l.huxi}">${esc(t("coach.ph.layout", { huxi: l.huxi }))}</strong>${rule("PH-3")}</p><div class="coach-layout" dir="ltr">${groups}${loose}</div>`;
}

function phDiscardHtml(d) {
  const wins = d.wins.length
    ? `${esc(t("coach.ph.thenwins"))} ${d.wins.map((w) => `${phPiece(w.kind)} ${esc(phName(w.kind))} (${esc(phWinText(w))})`).join("; ")}`
    : esc(t("coach.ph.thennowins"));
  return `${phPiece(d.kind)} <strong>${esc(t("coach.after", { card: phName(d.kind) }))}</strong> ${esc(t("coach.ph.after", { huxi: d.huxi_after }))} · <span class="chou-note">${esc(t("coach.ph.chou", { kinds: phName(d.kind) }))}</span> · ${wins}`;
}

// ------------------------------------------------------------------ rules page: huxi per group, tun, worked examples
const kindsPieces = (kinds) => `<span class="cards" dir="ltr">${kinds.map((k) => pieceHtml(NAME, phKindFromName(k) * 4, { cls: "xs" })).join("")}</span>`;

function huxiTablesHtml() {
  const rows = HUXI.map((r) => `<tr data-row="${r.id}"><th scope="row">${esc(t("meld." + r.group))}</th><td>${esc(t("hx." + r.id))}</td>
      <td data-group="${r.group}" data-kinds="${r.small.join(" ")}">${kindsPieces(r.small)} <strong class="num">${groupHuxi(r.group, r.small)}</strong></td>
      <td data-group="${r.group}" data-kinds="${r.big.join(" ")}">${kindsPieces(r.big)} <strong class="num">${groupHuxi(r.group, r.big)}</strong></td></tr>`).join("");
  const tuns = [15, 18, 21, 24, 27, 30].map((h) => `<tr><td class="num">${h}–${h + 2}</td><td class="num" data-huxi="${h}">${tunFor(h)}</td></tr>`).join("");
  const examples = HUXI_EXAMPLES.map((ex) => {
    const total = ex.groups.reduce((a, g) => a + groupHuxi(g.group, g.kinds), 0);
    const sum = ex.groups.map((g) => groupHuxi(g.group, g.kinds)).join(" + ");
    const verdict = total >= 15 ? t("rules.ex.total", { sum, huxi: total, tun: tunFor(total) }) : t("rules.ex.nowin", { sum, huxi: total });
    return `<table class="huxi-ex" data-example="${ex.id}" data-huxi="${total}" data-tun="${total >= 15 ? tunFor(total) : ""}"><caption>${esc(t("rules.ex." + ex.id))} <span class="rule-id">${ex.rule}</span></caption>
      <thead><tr><th>${esc(t("rules.ex.group"))}</th><th>${esc(t("rules.ex.cards"))}</th><th class="num">${esc(t("result.huxi"))}</th></tr></thead><tbody>
      ${ex.groups.map((g) => `<tr data-group="${g.group}" data-kinds="${g.kinds.join(" ")}"><td>${esc(t("meld." + g.group))}</td><td>${kindsPieces(g.kinds)} <span class="sr-only">${esc(g.kinds.map((k) => phKindLabel(phKindFromName(k))).join(", "))}</span></td><td class="num">${groupHuxi(g.group, g.kinds)}</td></tr>`).join("")}
      </tbody><tfoot><tr><th colspan="3" class="ex-total">${esc(verdict)}</th></tr></tfoot></table>`;
  }).join("");
  return `<section id="sec-huxi" aria-labelledby="huxi-title"><h2 id="huxi-title">${esc(t("rules.huxi.title"))}</h2>
    <p>${esc(t("rules.huxi.lead"))} <span class="rule-id">PH-3</span> <span class="rule-id">PH-8.1</span></p>
    <table class="huxi-table" id="huxi-table"><thead><tr><th>${esc(t("rules.ex.group"))}</th><th>${esc(t("rules.huxi.what"))}</th><th>${esc(t("rules.huxi.small"))}</th><th>${esc(t("rules.huxi.big"))}</th></tr></thead><tbody>${rows}</tbody></table>
    <h3>${esc(t("rules.tun.title"))} <span class="rule-id">PH-8.3</span></h3>
    <table class="tun-table" id="tun-table"><thead><tr><th class="num">${esc(t("result.huxi"))}</th><th class="num">${esc(t("result.tun"))}</th></tr></thead><tbody>${tuns}</tbody></table>
    <p>${esc(t("rules.tun.formula"))} <span class="rule-id">PH-8.2</span></p>
    <h3>${esc(t("rules.ex.title"))}</h3>${examples}</section>`;
}

export default {
  name: NAME,
  seats: 3,
  deckSize: 80, // the fairness check re-derives a deck of this many cards (PH-2.3)
  rulePrefix: "PH",
  navId: "nav-rules-ph", // its rules page's link in the page header
  paymentsRule: "PH-8.4",
  discardPhase: "discard", // the phase in which the seat on turn must discard
  rowKey: "row", // the name of a seat's row of played cards
  // a match (TB-5, PH-9): a number of deals and an optional target in tun, the unit of its
  // running score, and deal k (from 0) in words
  match: {
    lengths: [{ value: "n", label: "match.ph.deals", dflt: 4 }],
    target: true,
    unit: "tun",
    rule: "PH-9.1",
    handText: (mt, k) => t("match.deal", { k: k + 1, n: mt.length }) + (mt.target ? " · " + t("match.target", { n: mt.target }) : ""),
  },

  // ---------------------------------------------------------------- pieces and actions
  pieceSvg: (id, opts) => phCardSvg(id, opts),
  pieceName: (id) => phCardName(id),
  actionPiece: (a) => a.card, // the card a Discard names
  discardEvent: "CardDiscarded", // the event a discard sounds on
  isWin: (a) => a.type === "Win", // a legal action that wins (the "win automatically" switch)
  windowNo: (id) => Number(id), // claim windows are numbered from 1 (Paohuzi's ids start at 1)
  // a view's (or a model's) open claim window, the card it is for, and the person's answer to it
  claimWindow: (v) => v.window,
  claimCard: (v) => v.table && v.table.card,
  myAnswer: (v) => v.my_answer,
  // how the window `w` closed, if the view says (PH-6.4)
  closedBy: (v, w) => (v.last_resolution && v.last_resolution.window === w ? v.last_resolution : null),

  // ---------------------------------------------------------------- models of the server's views
  modelFromSeatView(v, kinds) {
    const over = !!(v.result && v.result.hands && v.result.hands.length);
    return {
      game: NAME, n: 3, me: v.seat, kinds, dealer: v.dealer, faceUp: v.face_up, started: v.dealer !== null,
      // once the deal is over every seat's cards and kan are shown (PH-7.3)
      hands: [0, 1, 2].map((i) => (i === v.seat ? v.hand : over ? v.result.hands[i] : v.concealed[i])),
      kans: [0, 1, 2].map((i) => (i === v.seat ? v.kans : over && v.result.kans && v.result.kans.length ? v.result.kans[i] : [])),
      melds: v.melds, rows: v.rows, stock: v.stock_left, table: v.table, turn: v.turn, window: v.window,
      lastRes: v.last_resolution, dead: v.dead, chou: v.chou, result: v.result, phase: v.phase,
      legal: v.legal_actions || [], prompt: v.prompt, version: v.version, myAnswer: v.my_answer,
    };
  },
  modelFromFullView(f, kinds) {
    return {
      game: NAME, n: 3, me: null, kinds, dealer: f.dealer >= 0 ? f.dealer : null, faceUp: f.face_up >= 0 ? f.face_up : null,
      started: f.dealer >= 0, hands: f.hands, kans: f.kans, melds: f.melds, rows: f.rows, stock: f.stock.length,
      table: f.table === null || f.table === undefined ? null : { card: f.table, source: null, seat: null },
      turn: null, window: null, lastRes: null, dead: f.dead, chou: [], result: f.result, phase: f.phase, legal: [],
    };
  },
  // a replay step that reveals or discards the card on the table says where it came from
  replayStep(m, ev) {
    if (m.table && ev && ev.card === m.table.card && (ev.type === "CardRevealed" || ev.type === "CardDiscarded")) {
      m.table = { card: ev.card, source: ev.type === "CardRevealed" ? "reveal" : "discard", seat: ev.seat };
    }
  },

  // ---------------------------------------------------------------- hands and melds
  // one column per rank, small before big
  sortHand: (sorted) => sorted.sort((a, b) => ((a >> 2) % 10) - ((b >> 2) % 10) || a - b),
  handGroup: (id) => (id >> 2) % 10,
  meldHtml(m, cls) {
    return `<span class="meld" role="group" aria-label="${esc(t("meld." + m.meld))}: ${esc(m.cards.map((c) => pieceName(NAME, c)).join(", "))}"><span class="meld-tag">${t("meld." + m.meld)}</span>${piecesHtml(NAME, [...m.cards].sort((a, b) => a - b), cls)}</span>`;
  },
  isDrawn: (m, id) => m.faceUp === id,
  // below the person's hand: their kan, and the kinds they may not claim (PH-6.7)
  handExtraHtml(m) {
    const kans = m.kans[m.me].length ? `<div class="kans" aria-label="${t("meld.kan")}">${m.kans[m.me].map((k) => kanHtml(k, "sm")).join("")}</div>` : "";
    const chou = m.chou && m.chou.length ? `<p class="chou">${t("chou")}: ${m.chou.map((k) => esc(phKindLabel(phKindFromName(k)))).join(", ")} <span class="rule-id">PH-6.7</span></p>` : "";
    return kans + chou;
  },

  // ---------------------------------------------------------------- seats and centre
  seatBadges: () => [],
  seatEndBadges: (m, i) => (m.dead && m.dead[i] ? [`<span class="badge dead">${t("dead")}</span>`] : []),
  openHandExtraHtml: (m, i) => (m.kans[i] ? m.kans[i].map((k) => kanHtml(k, "sm")).join("") : ""),
  seatExtraHtml: () => "",
  rowOf: (m, i) => m.rows[i],
  pileText: (m) => t("stock", { n: m.stock }),
  centreHtml(m, name) {
    const parts = [];
    if (m.faceUp !== null && m.faceUp !== undefined) {
      parts.push(`<div class="faceup">${pieceHtml(NAME, m.faceUp, { cls: "sm" })}<span>${t("faceup", { seat: name(m.dealer) })}</span></div>`);
    }
    return parts.join("");
  },
  // the card on the table (revealed or discarded, offered to the seats), and where it came from
  // (`laid`: played there, so it is also the newest card played)
  tableCard: (m, name) => (m.table ? { id: m.table.card, laid: true, text: m.table.source ? t("src." + m.table.source, { seat: name.obj(m.table.seat) }) : "" } : null),
  // the card an event lays on the table, to lie in a row unless someone takes it
  laidPiece: (ev) => (ev.type === "CardDiscarded" || ev.type === "CardRevealed" || ev.type === "CardUnclaimed" ? ev.card : null),
  windowOpen: (m) => m.window !== null && m.window !== undefined,
  answered: (m) => !!m.myAnswer,

  // ---------------------------------------------------------------- answers as buttons
  actionLabel(a) {
    if (a.type === "Chi") {
      return a.groups.map((g, i) => `<span class="chi-group"><em>${i === 0 ? t("claim.chi") : t("bi")}</em>${g.map((k) => pieceHtml(NAME, phKindFromName(k) * 4, { cls: "xs" })).join("")}</span>`).join("");
    }
    return esc(t("claim." + a.type.toLowerCase()));
  },
  actionAria(a) {
    if (a.type === "Chi") return t("claim.chi") + ": " + a.groups.map((g, i) => (i ? t("bi") + " " : "") + g.map((k) => phKindLabel(phKindFromName(k))).join(" ")).join("; ");
    return t("claim." + a.type.toLowerCase());
  },

  // ---------------------------------------------------------------- the move log
  say, // the sentence of each of its own events (./words.js)
  claimLevel: CLAIM_LEVEL,

  // ---------------------------------------------------------------- result sheet
  // the sheet's body (best split, huxi, tun), its payments and its winner
  resultBody(m, name, won) {
    const r = m.result;
    let body = "";
    let winner = null;
    if (r.outcome === "won") {
      winner = r.winner;
      body = `<p class="verdict" id="verdict">${esc(won(r.winner))}${r.heavenly ? " · " + t("result.heavenly") : ""} <span class="rule-id">${esc(r.rule_id)}</span></p>
      ${r.card !== null && r.card !== undefined ? `<p>${t("result.card")}: ${pieceHtml(NAME, r.card, { cls: "sm" })} ${r.from_seat !== null && r.from_seat !== undefined && r.from_seat !== r.winner ? esc(t("result.from", { seat: name.obj(r.from_seat) })) : ""}</p>` : ""}
      <table class="split"><caption>${t("result.split")}</caption><thead><tr><th>${t("result.group")}</th><th>${t("result.cards")}</th><th>${t("result.huxi")}</th></tr></thead><tbody>
      ${r.groups.map((g) => `<tr><td>${t("meld." + g.group)}${g.exposed ? "" : " · " + t("concealed.short")}</td><td dir="ltr">${piecesHtml(NAME, [...g.cards].sort((a, b) => a - b), "xs")}</td><td class="num">${g.huxi}</td></tr>`).join("")}
      </tbody><tfoot><tr><th colspan="2">${t("result.huxi")}</th><td class="num" id="res-huxi">${r.huxi}</td></tr><tr><th colspan="2">${t("result.tun")} <span class="rule-id">PH-8.3</span></th><td class="num" id="res-tun">${r.tun}</td></tr></tfoot></table>`;
    } else {
      const how = r.outcome === "abandoned" ? "result.abandoned" : "result.drawn"; // TB-2.7 or PH-8
      body = `<p class="verdict" id="verdict">${t(how)} <span class="rule-id">${esc(r.rule_id)}</span></p>`;
    }
    if (r.hands && r.hands.length) body += allHandsHtml(m, r.hands, (i) => ((r.kans && r.kans[i]) || []).map((k) => kanHtml(k, "xs")).join(""), "PH-7.3");
    return { body, payments: r.payments, winner };
  },

  // ---------------------------------------------------------------- fairness check
  // What the log says was dealt, compared with the deck the seed gives. Returns [ok, detail].
  compareDeal(data, dealer, deck) {
    const ds = data.find((d) => d.type === "DealStarted");
    if (!ds) return [false, "no DealStarted"];
    const n = 3;
    const slices = [deck.slice(0, 21), deck.slice(21, 41), deck.slice(41, 61)];
    for (let k = 0; k < 3; k++) {
      const seat = (dealer + k) % n;
      if (!same(ds.hands[seat], slices[k])) return [false, `seat ${seat}: PH-2.3`];
    }
    if (!same(ds.stock, deck.slice(61))) return [false, "stock: PH-2.3"];
    if (ds.face_up !== deck[20]) return [false, "face-up card: PH-2.4"];
    const reveals = data.filter((d) => d.type === "CardRevealed").map((d) => d.card);
    if (!same(reveals, deck.slice(61, 61 + reveals.length))) return [false, "revealed cards: PH-5.1"];
    return [true, `${61 + reveals.length}/80`];
  },

  // ---------------------------------------------------------------- lobby
  iconHtml: () => pieceHtml(NAME, 73) + pieceHtml(NAME, 6),

  // ---------------------------------------------------------------- coach
  coachBody(a) {
    const out = [layoutHtml(a.layout)];
    if (a.dead) out.push(`<p class="coach-nowin">${esc(t("coach.ph.dead"))}${rule("PH-6.6")}</p>`);
    else if (a.discards.length) out.push(`<p class="coach-line muted">${esc(t("coach.ph.discardhint"))}</p>`);
    else out.push(phWinsHtml(a.wins));
    return out.join("");
  },
  // the effect of discarding card `id`
  coachDetail(a, id) {
    const kind = (id >> 2 >= 10 ? "b" : "s") + (((id >> 2) % 10) + 1);
    const d = a.discards.find((x) => x.kind === kind);
    return d ? phDiscardHtml(d) : "";
  },
  // inside a claim button: the huxi it adds and the chou it causes (PH-6.7)
  coachNote(a, action, index) {
    const x = (a.actions || []).find((y) => y.index === index);
    if (!x) return "";
    const parts = [];
    if (x.action === "win") parts.push(t("coach.ph.winnote", { huxi: x.huxi_after, tun: x.tun }));
    else if (x.action !== "pass") parts.push(t("coach.ph.adds", { n: signed(x.huxi_added) }));
    if (x.chou.length) parts.push(t("coach.ph.chou", { kinds: x.chou.map(phName).join(", ") }));
    if (x.pairs_broken && x.pairs_broken.length) parts.push(t("coach.ph.breaks", { kinds: x.pairs_broken.map(phName).join(", ") }));
    if (x.must_discard) parts.push(t("coach.ph.thendiscard"));
    if (!parts.length) parts.push(t("coach.ph.nochou"));
    return `<span class="coach-note" data-added="${x.huxi_added}" data-chou="${esc(x.chou.join(" "))}">${esc(parts.join(" · "))}</span>`;
  },

  // ---------------------------------------------------------------- rules page
  rules: RULES, // its rules in every language (./rules.js)
  tableNotes: TABLE_NOTES, // what it adds to a table rule's text
  rulesSampleHtml: () => `<div class="sample" aria-hidden="true">${[0, 4, 8, 40, 44, 48, 20, 64, 76].map((c) => pieceHtml(NAME, c, { cls: "sm" })).join("")}</div>`,
  rulesTocHtml: () => `<li><a href="#/rules/${NAME}/huxi">${esc(t("rules.huxi.title"))}</a></li>`,
  rulesTablesHtml: () => huxiTablesHtml(),
  rulesNamesHtml: () => `<section><h2>${t("rules.cards")}</h2><ul class="names">${[...Array(20).keys()].map((k) => `<li>${pieceHtml(NAME, k * 4, { cls: "xs" })} ${esc(phKindLabel(k))}</li>`).join("")}</ul></section>`,
};
