// What the table says in words: one name per seat, every event as a sentence of the chosen
// language (the move log, the last-action line, the replay), refusals from their rule ids, and
// the reason a claim window closed. Sentences whose subject is the person have their own
// ".you" form, so no language has to bend a verb to fit "You".
import { t } from "./i18n.js";
import { phKindLabel, phKindFromName } from "./cards.js";
import { ruleText } from "./rules.js";
import { esc } from "./net.js";
import { gameUi } from "./registry.js";

// "You" for the person's seat, a person's own name where the seat has one (TB-1.3, always as
// text), "Computer k" for the k-th bot seat, "Player k" for the k-th other person, and an open seat
export function namer(kinds, me, names) {
  const bots = [];
  const humans = [];
  (kinds || []).forEach((k, i) => (String(k).startsWith("bot:") ? bots : humans).push(i));
  const name = (i) => {
    if (i === null || i === undefined) return "";
    if (me !== null && me !== undefined && Number(i) === me) return t("you");
    const k = (kinds && kinds[i]) || "";
    if (k.startsWith("bot:")) return t("name.computer", { n: bots.indexOf(Number(i)) + 1 });
    const own = names && names[i];
    if (own) return String(own);
    if (k === "open") return t("name.open", { n: Number(i) });
    return t("name.player", { n: humans.indexOf(Number(i)) + 1 });
  };
  // the same seat where a sentence needs it as an object ("revealed by you")
  name.obj = (i) => (me !== null && me !== undefined && Number(i) === me ? t("you.obj") : name(i));
  name.isMe = (i) => me !== null && me !== undefined && i !== null && i !== undefined && Number(i) === me;
  // a seat shown by the name a person gave it (TB-1.3), not by a label of ours
  name.isPerson = (i) => !name.isMe(i) && !String((kinds && kinds[i]) || "").startsWith("bot:") && Boolean(names && names[i]);
  // the seat's name as HTML: a person's own name is marked (quoted by the style sheet, with a
  // person sign), so no name can pass for "Computer 1" or "You" even where it reads the same
  name.html = (i) => (name.isPerson(i) ? `<bdi class="person-name">${esc(name(i))}</bdi>` : esc(name(i)));
  return name;
}
export function levelOf(kinds, i) {
  const k = (kinds && kinds[i]) || "";
  return k.startsWith("bot:") ? k.slice(4) : null;
}

// claim windows are numbered from 1 in both games (Paohuzi's ids start at 1, MCR's at 0)
export function windowNo(game, id) { return gameUi(game).windowNo(id); }

export function pieceName(game, id) {
  if (id === null || id === undefined) return t("hidden");
  return gameUi(game).pieceName(id);
}
export function noun(kind) { const k = "noun." + kind; const s = t(k); return s === k ? kind : s; }

// claim strength, for saying why a window went to someone else (PH-6.4, MC-3.2)
const LEVEL = { win: 3, pao: 2, peng: 2, kong: 2, pung: 2, chi: 1, chow: 1 };
export function claimOfAction(a) {
  if (!a) return null;
  if (a.type === "Claim") return a.claim;
  const k = a.type.toLowerCase();
  return LEVEL[k] ? k : null;
}

// one seat's sentence, in its "you" form when the subject is the person
function say(name, key, seat, params) {
  return t(name.isMe(seat) ? key + ".you" : key, { seat: name(seat), ...params });
}

// Turns events (as the viewer saw them) into sentences, keeping what later sentences need:
// each window's card, and whether the person was asked and answered.
export class Describer {
  constructor(game, kinds, me, names) {
    this.game = game;
    this.me = me;
    this.name = namer(kinds, me, names);
    this.windows = {};
  }

  card(id) { return pieceName(this.game, id); }

  describe(ev) {
    if (!ev) return { text: t("ev.begin"), rule: "", type: "" };
    const out = this.text(ev);
    return { type: ev.type, rule: "", seat: ev.seat ?? null, ...out };
  }

  text(ev) {
    const g = this.game;
    const nm = this.name;
    const card = (id) => this.card(id);
    if (ev.hidden) return this.hidden(ev);
    switch (ev.type) {
      case "DealCreated":
        return { text: ev.rematch_of ? t("log.created.rematch", { deal: ev.rematch_of }) : t("log.created") };
      case "DealStarted":
        return { text: gameUi(g).startedText(ev, nm, card) };
      case "KanFormed":
        return { text: say(nm, "log.kan", ev.seat, { kind: phKindLabel(ev.cards[0] >> 2) }), rule: ev.rule_id };
      case "MeldMade": return this.meld(ev);
      case "CardRevealed":
        return { text: say(nm, "log.reveal", ev.seat, { card: card(ev.card), n: ev.stock_left }) };
      case "CardDiscarded": case "TileDiscarded":
        return { text: say(nm, "log.discard", ev.seat, { card: card(ev.card ?? ev.tile) }) };
      case "CardUnclaimed":
        return { text: say(nm, "log.unclaimed", ev.seat, { card: card(ev.card) }), rule: ev.rule_id };
      case "ClaimWindowOpened": {
        const eligible = ev.eligible || [];
        const mine = this.me !== null && this.me !== undefined && eligible.includes(this.me);
        this.windows[ev.window] = { card: ev.card, asked: mine, answered: false };
        const src = t("src." + (ev.source === "added_kong" ? "added_kong" : ev.source), { seat: nm.obj(ev.source_seat) });
        let text = t(mine ? "log.window.you" : "log.window", { n: windowNo(g, ev.window), card: card(ev.card), src });
        if ((this.me === null || this.me === undefined) && eligible.length) {
          text += t("log.window.asked", { seats: eligible.map((s) => nm(s)).join(", ") });
        }
        return { text, window: ev.window };
      }
      case "ClaimAnswered": {
        const w = this.windows[ev.window];
        if (w && nm.isMe(ev.seat)) w.answered = true;
        return { text: say(nm, "log.answer", ev.seat, { n: windowNo(g, ev.window), answer: t("claim." + ev.answer) }), window: ev.window };
      }
      case "ClaimWindowResolved": {
        const w = this.windows[ev.window] || {};
        const p = { n: windowNo(g, ev.window), card: w.card !== undefined ? card(w.card) : t("the.card") };
        let text;
        if (ev.seat === null || ev.seat === undefined) text = t("log.res.none", p);
        else if (ev.claim === "win") text = say(nm, "log.res.win", ev.seat, p);
        else text = say(nm, "log.res", ev.seat, { ...p, claim: noun(ev.claim) });
        const missed = !!(w.asked && !w.answered && !nm.isMe(ev.seat));
        if (missed) text += t("log.res.missed");
        return { text, rule: ev.rule_id, window: ev.window, missed };
      }
      case "ChouMarked":
        return { text: say(nm, "log.chou", ev.seat, { kind: phKindLabel(phKindFromName(ev.kind)) }), rule: ev.rule_id };
      case "DiscardRequired": return { text: say(nm, "log.mustdiscard", ev.seat, {}), rule: ev.rule_id };
      case "HandDead": return { text: say(nm, "log.dead", ev.seat, {}), rule: ev.rule_id };
      case "DealWon":
        return { text: say(nm, ev.heavenly ? "log.ph.heavenly" : "log.ph.won", ev.seat, { huxi: ev.huxi, tun: ev.tun }), rule: ev.rule_id };
      case "DealDrawn": return { text: t("log.ph.drawn"), rule: ev.rule_id };
      case "SeedRevealed": return { text: t("log.seed") };
      case "TilesDealt": return { text: say(nm, "log.dealt", ev.seat, { n: ev.tiles ? ev.tiles.length : ev.count }), rule: "MC-2.4" };
      case "FlowerReplaced": return { text: say(nm, "log.flower", ev.seat, { flower: card(ev.flower) }), rule: "MC-2.4" };
      case "TileDrawn": {
        const key = ev.replacement ? "log.draw.repl" : "log.draw";
        if (nm.isMe(ev.seat)) return { text: t(key + ".you", { card: card(ev.tile) }) };
        if (ev.tile !== undefined && ev.tile !== null) return { text: t(key + ".known", { seat: nm(ev.seat), card: card(ev.tile) }) };
        return { text: t(key, { seat: nm(ev.seat) }) };
      }
      case "SetClaimed":
        return { text: say(nm, "log.took.from", ev.seat, { card: card(ev.card), from: nm.obj(ev.from_seat), meld: noun(ev.meld) }), rule: "MC-3.2" };
      case "ConcealedKongDeclared": {
        if (nm.isMe(ev.seat)) return { text: t("log.ckong.you", { card: card(ev.tiles[0]) }), rule: "MC-3.3" };
        if (ev.tiles && ev.tiles.length) return { text: t("log.ckong.known", { seat: nm(ev.seat), card: card(ev.tiles[0]) }), rule: "MC-3.3" };
        return { text: t("log.ckong", { seat: nm(ev.seat) }), rule: "MC-3.3" };
      }
      case "AddedKongDeclared": return { text: say(nm, "log.akong", ev.seat, { card: card(ev.tile) }), rule: "MC-3.3" };
      case "HandWon":
        if (ev.self_drawn) return { text: say(nm, "log.mc.self", ev.seat, { card: card(ev.tile), total: ev.total }), rule: "MC-4.4" };
        return { text: say(nm, "log.mc.won", ev.seat, { card: card(ev.tile), from: nm.obj(ev.from_seat), total: ev.total }), rule: "MC-4.4" };
      case "WallExhausted": return { text: t("log.mc.exhausted"), rule: "MC-3.6" };
      // the table's own events (TB): who sat down, who is ready, clocks and absence
      case "SeatJoined": return { text: say(nm, "log.joined", ev.seat, { seat: ev.name, n: ev.seat }), rule: "TB-1.1" };
      case "SeatFilled": return { text: t("log.filled", { n: ev.seat, level: t("level." + String(ev.kind || "").replace(/^bot:/, "")) }), rule: "TB-1.4" };
      case "SeatReady": return { text: say(nm, "log.ready", ev.seat, {}), rule: "TB-3.1" };
      case "ClockExpired":
        return { text: say(nm, ev.wait === "claim" ? "log.expired.claim" : "log.expired.move", ev.seat, {}), rule: ev.rule_id || "TB-2.5", expired: true };
      case "SeatAway": return { text: say(nm, "log.away", ev.seat, {}), rule: ev.rule_id || "TB-2.6" };
      case "SeatBack": return { text: say(nm, "log.back", ev.seat, {}), rule: ev.rule_id || "TB-2.6" };
      case "DealAbandoned": return { text: t("log.abandoned"), rule: ev.rule_id || "TB-2.7" };
      default: return { text: ev.type };
    }
  }

  meld(ev) {
    const nm = this.name;
    const meld = noun(ev.meld);
    if (ev.claimed === null || ev.claimed === undefined) {
      const cards = ev.cards.map((c) => this.card(c)).join(", ");
      return { text: say(nm, "log.laid", ev.seat, { meld, cards }), rule: ev.rule_id };
    }
    const from = ev.from_seat !== null && ev.from_seat !== undefined && ev.from_seat !== ev.seat;
    const key = from ? "log.took.from" : "log.took";
    return { text: say(nm, key, ev.seat, { card: this.card(ev.claimed), from: from ? nm.obj(ev.from_seat) : "", meld }), rule: ev.rule_id };
  }

  // a step the chosen seat did not see: after the deal, what kind of step and whose
  hidden(ev) {
    const nm = this.name;
    const key = "hidden." + ev.type;
    if (ev.seat === null || ev.seat === undefined) return { text: t("hidden.nobody") };
    const s = t(key, { seat: nm(ev.seat) });
    return { text: s === key ? t("hidden.other", { seat: nm(ev.seat) }) : s, hidden: true };
  }
}

// The move log: the events this page received (by version), and their sentences
export class LogBook {
  constructor(game, kinds, me, names) {
    this.game = game; this.kinds = kinds; this.me = me; this.names = names || [];
    this.events = [];
    this.entries = [];
    this.last = 0;
    this.describer = new Describer(game, kinds, me, this.names);
  }

  // who sits where changed (a seat was joined or filled before the start): tell it all again
  // with the new names; true when anything changed
  setSeating(kinds, names) {
    const same = JSON.stringify([this.kinds, this.names]) === JSON.stringify([kinds, names || []]);
    if (same) return false;
    this.kinds = kinds; this.names = names || [];
    this.retell();
    return true;
  }

  add(version, ev) {
    if (version <= this.last) return null; // a reconnect may send an event again
    this.last = version;
    this.events.push({ v: version, ev });
    const entry = { v: version, ...this.describer.describe(ev) };
    this.entries.push(entry);
    return entry;
  }

  // sentences again (the language changed)
  retell() {
    this.describer = new Describer(this.game, this.kinds, this.me, this.names);
    this.entries = this.events.map(({ v, ev }) => ({ v, ...this.describer.describe(ev) }));
  }

  clear() { this.events = []; this.entries = []; this.last = 0; this.describer = new Describer(this.game, this.kinds, this.me, this.names); }

  latest() { return this.entries.length ? this.entries[this.entries.length - 1] : null; }

  window(id) { return this.describer.windows[id] || null; }
}

export function entryHtml(e) {
  const rule = e.rule ? ` <span class="rule-id">${esc(e.rule)}</span>` : "";
  const cls = [e.missed ? "missed" : "", e.expired ? "expired" : ""].filter(Boolean).join(" ");
  return `<li data-v="${e.v}" data-type="${esc(e.type)}"${cls ? ` class="${cls}"` : ""}><span class="log-text">${esc(e.text)}</span>${rule}</li>`;
}

// A refusal in the chosen language: the rule's own text by its id; the server's English detail
// only as a second, smaller line
export function refusalHtml(err, game) {
  const p = (err && err.problem) || { detail: String((err && err.message) || err) };
  const rule = p.rule || "";
  const text = rule ? ruleText(game, rule) : "";
  const head = text || (p.network ? t("err.network") : t("refused.unknown"));
  const chip = rule ? ` <span class="rule-id">${esc(rule)}</span>` : "";
  const detail = p.detail ? `<div class="detail" lang="en" dir="ltr">${esc(p.detail)}</div>` : "";
  return `<strong>${t("refused")}</strong>${chip} <span class="why" data-rule="${esc(rule)}">${esc(head)}</span>${detail}`;
}

// Why a window the person was asked in went to someone else
export function closedReason(game, name, resolution, myActions) {
  if (!resolution) return { text: "", rule: "" };
  const w = resolution;
  const parts = [];
  const cardName = w.card !== undefined && w.card !== null ? pieceName(game, w.card) : t("the.card");
  if (w.seat === null || w.seat === undefined) parts.push(t("hold.nobody", { card: cardName }));
  else if (w.claim === "win") parts.push(t("hold.won", { seat: name(w.seat), card: cardName }));
  else parts.push(t("hold.took", { seat: name(w.seat), card: cardName, claim: noun(w.claim) }));
  const mine = (myActions || []).map(claimOfAction).filter(Boolean);
  if (w.seat !== null && w.seat !== undefined && mine.length && LEVEL[w.claim]) {
    const best = mine.reduce((a, b) => (LEVEL[b] > LEVEL[a] ? b : a));
    if (LEVEL[w.claim] > LEVEL[best]) parts.push(t("hold.beats", { claim: noun(w.claim), mine: noun(best) }));
    else if (LEVEL[w.claim] === LEVEL[best]) parts.push(t("hold.order", { seat: name(w.seat) }));
  }
  return { text: parts.join(" "), rule: w.rule_id || "" };
}
