// MCR's events in words for the move log, the last-action line and the replay, as
// projections/mcr/text.py says them for the terminal: say(ev, w) gives the sentence and the rule
// it cites, or null for an event every game shares (words.js says those). `w` is what words.js
// lends: the seat namer, a tile's name, a seat's sentence in its "you" form, a meld's noun.
import { t } from "../../i18n.js";

// how strong a claim is, for saying why a window went to someone else (MC-3.2)
export const CLAIM_LEVEL = { win: 3, kong: 2, pung: 2, chow: 1 };

export function say(ev, w) {
  const nm = w.name;
  const card = w.card;
  switch (ev.type) {
    case "DealStarted": return { text: t("log.mc.started", { seat: nm.obj(ev.dealer), wind: t("tile.wind" + ((ev.prevailing_wind ?? 0) + 1)) }) };
    case "TilesDealt": return { text: w.say("log.dealt", ev.seat, { n: ev.tiles ? ev.tiles.length : ev.count }), rule: "MC-2.4" };
    case "FlowerReplaced": return { text: w.say("log.flower", ev.seat, { flower: card(ev.flower) }), rule: "MC-2.4" };
    case "TileDrawn": {
      const key = ev.replacement ? "log.draw.repl" : "log.draw";
      if (nm.isMe(ev.seat)) return { text: t(key + ".you", { card: card(ev.tile) }) };
      if (ev.tile !== undefined && ev.tile !== null) return { text: t(key + ".known", { seat: nm(ev.seat), card: card(ev.tile) }) };
      return { text: t(key, { seat: nm(ev.seat) }) };
    }
    case "TileDiscarded": return { text: w.say("log.discard", ev.seat, { card: card(ev.tile) }) };
    case "SetClaimed":
      return { text: w.say("log.took.from", ev.seat, { card: card(ev.card), from: nm.obj(ev.from_seat), meld: w.noun(ev.meld) }), rule: "MC-3.2" };
    case "ConcealedKongDeclared": {
      if (nm.isMe(ev.seat)) return { text: t("log.ckong.you", { card: card(ev.tiles[0]) }), rule: "MC-3.3" };
      if (ev.tiles && ev.tiles.length) return { text: t("log.ckong.known", { seat: nm(ev.seat), card: card(ev.tiles[0]) }), rule: "MC-3.3" };
      return { text: t("log.ckong", { seat: nm(ev.seat) }), rule: "MC-3.3" };
    }
    case "AddedKongDeclared": return { text: w.say("log.akong", ev.seat, { card: card(ev.tile) }), rule: "MC-3.3" };
    case "HandWon":
      if (ev.self_drawn) return { text: w.say("log.mc.self", ev.seat, { card: card(ev.tile), total: ev.total }), rule: "MC-4.4" };
      return { text: w.say("log.mc.won", ev.seat, { card: card(ev.tile), from: nm.obj(ev.from_seat), total: ev.total }), rule: "MC-4.4" };
    case "WallExhausted": return { text: t("log.mc.exhausted"), rule: "MC-3.6" };
    default: return null;
  }
}
