"""One sentence per event, as one perspective saw it (a redacted event, or ``None`` when the
seat must not learn of it), for both games' events."""

from __future__ import annotations

from typing import Any

from service.replay_text.words import Words

SOURCES = {"reveal": "revealed", "discard": "discarded", "added_kong": "added to a kong"}


class Narrator:
    """Sentences for events as one perspective saw them, remembering each window's card."""

    def __init__(self, words: Words) -> None:
        self.w = words
        self.window_cards: dict[int, int] = {}

    def say(self, ev: dict[str, Any] | None) -> str:
        w = self.w
        if ev is None:
            return "(a step this seat does not see; it opens when the deal is over)"
        if ev.get("hidden"):
            return f"(hidden from this seat) {w.seat(ev.get('seat'))}: {ev['type']}"
        t = ev["type"]
        who = w.seat(ev.get("seat"))
        card = w.card
        if t == "DealCreated":
            again = f", playing deal {ev['rematch_of']} again" if ev.get("rematch_of") else ""
            return f"The deal is created{again}; the server commits to its seed {ev['commitment'][:16]}…"
        if t == "DealStarted":
            return w.text.dealt(ev, w)
        if t == "KanFormed":
            return f"{who} locks a kan of {card(ev['cards'][0])} ({ev['rule_id']})."
        if t == "MeldMade":
            if ev.get("claimed") is None:
                return f"{who} lays out a {ev['meld']}: {w.cards(ev['cards'])} ({ev['rule_id']})."
            src = ev.get("from_seat")
            frm = f" from {w.seat(src)}" if src is not None and src != ev["seat"] else ""
            cards = w.cards(ev["cards"])
            return f"{who} takes {card(ev['claimed'])}{frm} for a {ev['meld']}: {cards} ({ev['rule_id']})."
        if t == "CardRevealed":
            return f"{who} reveals {card(ev['card'])}; {ev['stock_left']} left in the stock."
        if t in ("CardDiscarded", "TileDiscarded"):
            return f"{who} discards {card(ev.get('card', ev.get('tile')))}."
        if t == "CardUnclaimed":
            return f"Nobody takes {card(ev['card'])}; it goes to the row of {who} ({ev['rule_id']})."
        if t == "ClaimWindowOpened":
            self.window_cards[ev["window"]] = ev["card"]
            source = {"reveal": "revealed", "discard": "discarded", "added_kong": "added to a kong"}[
                ev["source"]
            ]
            asked = ", ".join(w.seat(s) for s in ev.get("eligible", [])) or "not shown to this seat"
            return (
                f"Window {w.window_no(ev['window'])} opens on {card(ev['card'])}, {source} by "
                f"{w.seat(ev['source_seat'])}; asked: {asked}."
            )
        if t == "ClaimAnswered":
            return f"{who} answers window {w.window_no(ev['window'])}: {ev['answer']}."
        if t == "ClaimWindowResolved":
            n = w.window_no(ev["window"])
            taken = card(self.window_cards.get(ev["window"]))
            if ev["seat"] is None:
                return f"Window {n} closes: nobody takes {taken} ({ev['rule_id']})."
            if ev["claim"] == "win":
                return f"Window {n}: {who} wins on {taken} ({ev['rule_id']})."
            return f"Window {n}: {who} takes {taken} for a {ev['claim']} ({ev['rule_id']})."
        if t == "ChouMarked":
            return f"{who} may no longer chi or peng {ev['kind']} ({ev['rule_id']})."
        if t == "DiscardRequired":
            return f"{who} must discard ({ev['rule_id']})."
        if t == "HandDead":
            return f"The hand of {who} is dead: from now on it only reveals ({ev['rule_id']})."
        if t == "DealWon":
            how = " at once, a heavenly win" if ev["heavenly"] else ""
            return f"{who} wins{how}: {ev['huxi']} huxi, {ev['tun']} tun ({ev['rule_id']})."
        if t == "DealDrawn":
            return f"The stock is empty: a drawn deal ({ev['rule_id']})."
        if t == "SeedRevealed":
            seeds = ev.get("client_seeds")
            client = f"client seed {ev['client_seed']!r}"
            if seeds:
                client = f"client seeds {', '.join(map(repr, seeds))}"
            return f"The server seed is revealed: {ev['server_seed'][:16]}… ({client})."
        if t == "SeatJoined":
            how = "with an invite" if ev.get("invited") else "at the table"
            return f"{who} is taken by {ev['name']!r} ({how}, TB-1.2)."
        if t == "SeatFilled":
            return f"{who} is filled with {ev['kind']} (TB-1.4)."
        if t == "ClockExpired":
            what = "passes for it" if ev["wait"] == "claim" else "moves for it"
            return f"{who}'s time runs out; the table {what} ({ev['rule_id']})."
        if t == "SeatAway":
            return f"{who} is away: the greedy bot plays for it ({ev['rule_id']})."
        if t == "SeatBack":
            return f"{who} is back ({ev['rule_id']})."
        if t == "SeatReady":
            return f"{who} is ready to start; the deal waits for the others (TB-3.1)."
        if t == "TilesDealt":
            n = len(ev["tiles"]) if "tiles" in ev else ev.get("count", 0)
            shown = f": {w.grouped(ev['tiles'])}" if "tiles" in ev else ""
            return f"{who} receives {n} tiles{shown}."
        if t == "FlowerReplaced":
            got = f", draws {card(ev['replacement'])}" if ev.get("replacement") is not None else ""
            return f"{who} shows {card(ev['flower'])}{got or ' and draws a replacement'}."
        if t == "TileDrawn":
            what = card(ev["tile"]) if "tile" in ev else "a tile"
            return f"{who} draws {what}{' as a replacement (MC-3.3)' if ev.get('replacement') else ''}."
        if t == "SetClaimed":
            frm = w.seat(ev["from_seat"])
            return f"{who} takes {card(ev['card'])} from {frm} for a {ev['meld']}: {w.cards(ev['tiles'])}."
        if t == "ConcealedKongDeclared":
            of = f" of {card(ev['tiles'][0])}" if ev.get("tiles") else ""
            return f"{who} declares a concealed kong{of} (MC-3.3)."
        if t == "AddedKongDeclared":
            return f"{who} adds {card(ev['tile'])} to a pung: a kong (MC-3.3)."
        if t == "HandWon":
            how = "self-drawn" if ev["self_drawn"] else f"on {w.seat(ev['from_seat'])}'s tile"
            return f"{who} wins {how} with {card(ev['tile'])}: {ev['total']} points."
        if t == "WallExhausted":
            return "The wall is empty: a drawn deal (MC-3.6)."
        if t == "DealAbandoned":
            idle_s = ev["idle_ms"] // 1000
            idle = "an hour" if idle_s == 3600 else f"{idle_s} s"
            return f"Nobody moved for {idle}: the deal is abandoned and nobody pays ({ev['rule_id']})."
        return t
