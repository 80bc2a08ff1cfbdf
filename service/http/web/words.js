// What the table says in words: one name per seat, every event as a sentence of the chosen
// language (the move log, the last-action line, the replay), refusals from their rule ids, and
// the reason a claim window closed. The events every game shares (claim windows, the table's own
// events, the seed) are said here; a game's own events by its module's `say`
// (games/<name>/words.js). Sentences whose subject is the person have their own
// ".you" form, so no language has to bend a verb to fit "You".
import { t } from "./i18n.js";
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

// claim windows are numbered from 1 in every game (the game's module knows where its ids start)
export function windowNo(game, id) { return gameUi(game).windowNo(id); }

export function pieceName(game, id) {
  if (id === null || id === undefined) return t("hidden");
  return gameUi(game).pieceName(id);
}
export function noun(kind) { const k = "noun." + kind; const s = t(k); return s === k ? kind : s; }

// claim strength, for saying why a window went to someone else: the game's `claimLevel`
// (its claims by strength, games/<name>/words.js)
export function claimOfAction(game, a) {
  if (!a) return null;
  if (a.type === "Claim") return a.claim;
  const k = a.type.toLowerCase();
  return gameUi(game).claimLevel[k] ? k : null;
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
      case "SeedRevealed": return { text: t("log.seed") };
      // the table's own events (TB): who sat down, who is ready, clocks and absence
      case "SeatJoined": return { text: say(nm, "log.joined", ev.seat, { seat: ev.name, n: ev.seat }), rule: "TB-1.1" };
      case "SeatFilled": return { text: t("log.filled", { n: ev.seat, level: t("level." + String(ev.kind || "").replace(/^bot:/, "")) }), rule: "TB-1.4" };
      case "SeatReady": return { text: say(nm, "log.ready", ev.seat, {}), rule: "TB-3.1" };
      case "ClockExpired":
        return { text: say(nm, ev.wait === "claim" ? "log.expired.claim" : "log.expired.move", ev.seat, {}), rule: ev.rule_id || "TB-2.5", expired: true };
      case "SeatAway": return { text: say(nm, "log.away", ev.seat, {}), rule: ev.rule_id || "TB-2.6" };
      case "SeatBack": return { text: say(nm, "log.back", ev.seat, {}), rule: ev.rule_id || "TB-2.6" };
      case "DealAbandoned": return { text: t("log.abandoned"), rule: ev.rule_id || "TB-2.7" };
      default: {
        // the game's own events, in its own words
        const own = gameUi(g).say(ev, { name: nm, card, say: (key, seat, params) => say(nm, key, seat, params), noun });
        return own || { text: ev.type };
      }
    }
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
  const LEVEL = gameUi(game).claimLevel;
  const mine = (myActions || []).map((a) => claimOfAction(game, a)).filter(Boolean);
  if (w.seat !== null && w.seat !== undefined && mine.length && LEVEL[w.claim]) {
    const best = mine.reduce((a, b) => (LEVEL[b] > LEVEL[a] ? b : a));
    if (LEVEL[w.claim] > LEVEL[best]) parts.push(t("hold.beats", { claim: noun(w.claim), mine: noun(best) }));
    else if (LEVEL[w.claim] === LEVEL[best]) parts.push(t("hold.order", { seat: name(w.seat) }));
  }
  return { text: parts.join(" "), rule: w.rule_id || "" };
}
