"""One sentence per event, as one perspective saw it (a redacted event, or ``None`` when the
seat must not learn of it): the events every game shares here, a game's own events in its
``projections/<game>/text.py`` (``say``)."""

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
        said = w.text.say(ev, w)  # the game's own events: projections/<game>/text.py
        if said is not None:
            return said
        t = ev["type"]
        who = w.seat(ev.get("seat"))
        card = w.card
        if t == "DealCreated":
            again = f", playing deal {ev['rematch_of']} again" if ev.get("rematch_of") else ""
            return f"The deal is created{again}; the server commits to its seed {ev['commitment'][:16]}…"
        if t == "ClaimWindowOpened":
            self.window_cards[ev["window"]] = ev["card"]
            source = SOURCES[ev["source"]]
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
        if t == "DealAbandoned":
            idle_s = ev["idle_ms"] // 1000
            idle = "an hour" if idle_s == 3600 else f"{idle_s} s"
            return f"Nobody moved for {idle}: the deal is abandoned and nobody pays ({ev['rule_id']})."
        return t
