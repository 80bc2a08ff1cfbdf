// Paohuzi's events in words for the move log, the last-action line and the replay, as
// projections/paohuzi/text.py says them for the terminal: say(ev, w) gives the sentence and the
// rule it cites, or null for an event every game shares (words.js says those). `w` is what
// words.js lends: the seat namer, a card's name, a seat's sentence in its "you" form, a meld's
// noun.
import { t } from "../../i18n.js";
import { phKindLabel, phKindFromName } from "./cards.js";

// how strong a claim is, for saying why a window went to someone else (PH-6.4)
export const CLAIM_LEVEL = { win: 3, pao: 2, peng: 2, chi: 1 };

function meld(ev, w) {
  const nm = w.name;
  const noun = w.noun(ev.meld);
  if (ev.claimed === null || ev.claimed === undefined) {
    const cards = ev.cards.map((c) => w.card(c)).join(", ");
    return { text: w.say("log.laid", ev.seat, { meld: noun, cards }), rule: ev.rule_id };
  }
  const from = ev.from_seat !== null && ev.from_seat !== undefined && ev.from_seat !== ev.seat;
  const key = from ? "log.took.from" : "log.took";
  return { text: w.say(key, ev.seat, { card: w.card(ev.claimed), from: from ? nm.obj(ev.from_seat) : "", meld: noun }), rule: ev.rule_id };
}

export function say(ev, w) {
  const nm = w.name;
  switch (ev.type) {
    case "DealStarted": return { text: t("log.ph.started", { seat: nm.obj(ev.dealer), card: w.card(ev.face_up) }) };
    case "KanFormed": return { text: w.say("log.kan", ev.seat, { kind: phKindLabel(ev.cards[0] >> 2) }), rule: ev.rule_id };
    case "MeldMade": return meld(ev, w);
    case "CardRevealed": return { text: w.say("log.reveal", ev.seat, { card: w.card(ev.card), n: ev.stock_left }) };
    case "CardDiscarded": return { text: w.say("log.discard", ev.seat, { card: w.card(ev.card) }) };
    case "CardUnclaimed": return { text: w.say("log.unclaimed", ev.seat, { card: w.card(ev.card) }), rule: ev.rule_id };
    case "ChouMarked": return { text: w.say("log.chou", ev.seat, { kind: phKindLabel(phKindFromName(ev.kind)) }), rule: ev.rule_id };
    case "DiscardRequired": return { text: w.say("log.mustdiscard", ev.seat, {}), rule: ev.rule_id };
    case "HandDead": return { text: w.say("log.dead", ev.seat, {}), rule: ev.rule_id };
    case "DealWon": return { text: w.say(ev.heavenly ? "log.ph.heavenly" : "log.ph.won", ev.seat, { huxi: ev.huxi, tun: ev.tun }), rule: ev.rule_id };
    case "DealDrawn": return { text: t("log.ph.drawn"), rule: ev.rule_id };
    default: return null;
  }
}
