"""``dealstream replay`` in words: each step of a deal as a sentence with card and tile names
(``s5``, ``b10``, ``W3``, ``H2``), then the table as the chosen perspective sees it after that
step (hands, kan, melds, rows or discards, counts, the open claim window with its options and
answer), and the result sheet at the end.

Pure text from the stored events: the perspective is a seat (what that seat may know, through the
game's own projections) or ``all`` once the deal is over. The names are the web table's: the k-th
bot seat is "Computer k", the k-th human seat "Player k".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from domain.mcr.tiles import code as mcr_code
from domain.paohuzi.cards import kind_name


def seat_names(kinds: list[str]) -> list[str]:
    bots = [i for i, k in enumerate(kinds) if k.startswith("bot:")]
    humans = [i for i, k in enumerate(kinds) if not k.startswith("bot:")]
    return [
        f"Computer {bots.index(i) + 1}" if i in bots else f"Player {humans.index(i) + 1}"
        for i in range(len(kinds))
    ]


def window_no(game: str, window: int) -> int:
    """Claim windows numbered from 1 in both games, as the web table numbers them."""
    return window + 1 if game == "mcr" else window


class Words:
    """Names of cards, tiles, seats and claims for one deal."""

    def __init__(self, game: str, kinds: list[str]) -> None:
        self.game = game
        self.names = seat_names(kinds)
        self.kinds = kinds

    def card(self, card: int | None) -> str:
        if card is None:
            return "a hidden card"
        return kind_name(card >> 2) if self.game == "paohuzi" else mcr_code(card)

    def cards(self, cards: list[int]) -> str:
        return " ".join(self.card(c) for c in cards)

    def grouped(self, cards: list[int]) -> str:
        """A hand laid out like the web table's: Paohuzi by rank (small before big), MCR by suit,
        groups apart."""
        if self.game == "paohuzi":
            ordered = sorted(cards, key=lambda c: ((c >> 2) % 10, c))
            key = lambda c: (c >> 2) % 10  # noqa: E731
        else:
            ordered = sorted(cards)
            key = lambda c: 99 if c >= 136 else (c >> 2) // 9 if c < 108 else 3 + ((c >> 2) >= 31)  # noqa: E731
        groups: list[list[int]] = []
        for c in ordered:
            if groups and key(groups[-1][-1]) == key(c):
                groups[-1].append(c)
            else:
                groups.append([c])
        return "  ".join(self.cards(g) for g in groups) or "-"

    def seat(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.names[seat]


# --- one step in words ---------------------------------------------------------------------------
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
            dealer = w.seat(ev["dealer"])
            if w.game == "paohuzi":
                return (
                    f"The cards are dealt. Dealer: {dealer}; the dealer's open card is {card(ev['face_up'])}."
                )
            winds = "ESWN"
            return f"The tiles are dealt. Dealer: {dealer}; prevailing wind {winds[ev['prevailing_wind']]}."
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
                f"Window {window_no(w.game, ev['window'])} opens on {card(ev['card'])}, {source} by "
                f"{w.seat(ev['source_seat'])}; asked: {asked}."
            )
        if t == "ClaimAnswered":
            return f"{who} answers window {window_no(w.game, ev['window'])}: {ev['answer']}."
        if t == "ClaimWindowResolved":
            n = window_no(w.game, ev["window"])
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
            return (
                f"The server seed is revealed: {ev['server_seed'][:16]}… (client seed {ev['client_seed']!r})."
            )
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
        return t


# --- the table after a step ---------------------------------------------------------------------
def _paohuzi_table(w: Words, state: Any, view: Any, seat: int | None, windows: dict[int, dict]) -> list[str]:
    lines = []
    top = [f"stock {view.stock_left}"]
    if view.table is not None:
        how = "revealed" if view.table.source == "reveal" else "discarded"
        top.append(f"on the table {w.card(view.table.card)} ({how} by {w.seat(view.table.seat)})")
    if view.turn is not None and view.phase == "discard":
        top.append(f"to discard: {w.seat(view.turn)}")
    lines.append(" · ".join(top))
    for i in range(3):
        tags = (
            [w.kinds[i]] + (["dealer"] if view.dealer == i else []) + (["dead hand"] if view.dead[i] else [])
        )
        if seat is None:
            hand, kans = w.grouped(list(state.hands[i])), [list(k) for k in state.kans[i]]
        elif i == seat:
            hand, kans = w.grouped(view.hand), view.kans
        else:
            hand, kans = f"{view.concealed[i]} hidden", []
        parts = [f"{w.names[i]} ({', '.join(tags)})", f"hand {hand}"]
        if kans:
            parts.append("kan " + ", ".join(w.cards(k) for k in kans))
        if view.melds[i]:
            parts.append("melds " + ", ".join(f"{m.meld} {w.cards(sorted(m.cards))}" for m in view.melds[i]))
        parts.append("row " + (w.cards(view.rows[i]) or "-"))
        parts.append(f"{view.concealed[i]} concealed")
        lines.append("   ".join(parts))
    if seat is not None and view.chou:
        lines.append(f"{w.names[seat]} may no longer chi or peng: {' '.join(view.chou)} (PH-6.7)")
    if view.window is not None:
        lines.extend(_window_lines(w, view.window, windows, seat, state.version))
    return lines


def meld_name(m: Any) -> str:
    return m.kind.replace("_", " ")


def _mcr_table(w: Words, state: Any, view: Any, seat: int | None, windows: dict[int, dict]) -> list[str]:
    winds = "ESWN"
    lines = []
    top = [f"wall {view.wall_count}", f"prevailing wind {winds[view.prevailing_wind]}"]
    if view.phase == "turn":
        top.append(f"to move: {w.seat(view.turn)}")
    lines.append(" · ".join(top))
    for p, pub in enumerate(view.seats):
        tags = [w.kinds[p], f"wind {winds[pub.wind]}"] + (["dealer"] if view.dealer == p else [])
        if seat is None:
            hand = w.grouped(list(state.hands[p]))
        elif p == seat:
            hand = w.grouped(view.hand) + (f"   drawn {w.card(view.drawn)}" if view.drawn is not None else "")
        else:
            hand = f"{pub.hand_count} hidden"
        parts = [f"{w.names[p]} ({', '.join(tags)})", f"hand {hand}"]
        if pub.melds:
            shown = [
                f"{m.kind.replace('_', ' ')} {w.cards(sorted(m.tiles)) if m.tiles else '(hidden)'}"
                for m in pub.melds
            ]
            parts.append("melds " + ", ".join(shown))
        if pub.flowers:
            parts.append("flowers " + w.cards(pub.flowers))
        parts.append("discards " + (w.cards(pub.discards) or "-"))
        parts.append(f"{pub.hand_count} in hand")
        lines.append("   ".join(parts))
    if view.window is not None:
        lines.extend(_window_lines(w, view.window.window, windows, seat, state.version))
    return lines


def _option(w: Words, o: Any) -> str:
    if o == "pass":
        return "pass"
    if isinstance(o, dict) and "claim" in o:
        return f"{o['claim']} {w.cards(o.get('tiles') or [])}".strip()
    if isinstance(o, dict) and o.get("type") == "Chi":
        return "chi " + " + bi ".join(" ".join(g) for g in o["groups"])
    if isinstance(o, dict):
        return o.get("type", "?").lower()
    return str(o)


def _window_lines(
    w: Words, window: int, windows: dict[int, dict], seat: int | None, version: int
) -> list[str]:
    """The open window: each seat's options and answer so far, as the perspective may know them."""
    a = windows.get(window)
    n = window_no(w.game, window)
    if a is None:
        return [f"window {n} is open"]
    lines = [f"window {n} open on {w.card(a['card'])}"]
    answers = {x["seat"]: x["answer"] for x in a.get("answers", []) if x["version"] <= version}
    for s, options in sorted((a.get("options") or {}).items(), key=lambda kv: int(kv[0])):
        s = int(s)
        if seat is not None and s != seat:
            continue  # another seat's options and answer stay secret (PH-7.2, MC-5.2)
        answer = answers.get(s, "not answered yet")
        lines.append(
            f"  {w.names[s]}: options {' · '.join(_option(w, o) for o in options)}; answer: {answer}"
        )
    return lines


# --- the result sheet ---------------------------------------------------------------------------
def result_lines(w: Words, game: str, view: Any, state: Any) -> list[str]:
    r = view.result
    if r is None:
        return ["The deal is not over."]
    lines = ["Result"]
    if game == "paohuzi":
        if r.outcome == "won":
            frm = (
                f" from {w.seat(r.from_seat)}" if r.from_seat is not None and r.from_seat != r.winner else ""
            )
            card = f" on {w.card(r.card)}{frm}" if r.card is not None else ""
            lines.append(
                f"  {w.seat(r.winner)} wins{card}{' (heavenly win)' if r.heavenly else ''} ({r.rule_id})"
            )
            for g in r.groups:
                where = "exposed" if g.exposed else "concealed"
                lines.append(f"    {g.group:<5} {w.cards(sorted(g.cards)):<16} {g.huxi:>3} huxi  {where}")
            lines.append(f"  huxi {r.huxi}, tun {r.tun} (PH-8.3)")
            winner = r.winner
        else:
            lines.append(f"  Drawn deal: the stock ran out ({r.rule_id})")
            winner = None
        payments = r.payments
        hands = [
            (w.grouped(h), [list(k) for k in ks]) for h, ks in zip(r.hands, r.kans or [[]] * 3, strict=False)
        ]
    else:
        if r.win is not None:
            h = r.win
            how = "self-drawn" if h.self_drawn else f"on the tile of {w.seat(h.from_seat)}"
            lines.append(f"  {w.seat(h.seat)} wins {how} with {w.card(h.tile)}")
            melds = [
                f"{m.kind.replace('_', ' ')} {w.cards(sorted(m.tiles))}" for m in view.seats[h.seat].melds
            ]
            lines.append(
                f"  winning hand: {'   '.join(melds + [w.grouped(h.hand)])}   [{w.card(h.tile)}] winning tile"
            )
            for f in h.fans:
                times = f" x{f.count}" if f.count > 1 else ""
                lines.append(f"    {f.name_en + times:<28} {f.points * f.count:>3}")
            flowers = f"flower points {h.flower_points} (MC-2.5)"
            lines.append(f"  fan points {h.fan_points} (MC-4.3), {flowers}, total {h.total}")
            payments, winner = h.payments, h.seat
        else:
            lines.append("  Drawn deal: the wall ran out (MC-3.6)")
            payments, winner = [0, 0, 0, 0], None
        hands = [(w.grouped(hd), []) for hd in r.hands]
    lines.append("  payments (" + ("PH-8.4" if game == "paohuzi" else "MC-4.4") + ")")
    order = sorted(range(len(payments)), key=lambda i: (i != winner, i))
    for i in order:
        lines.append(f"    {w.names[i]:<12} {payments[i]:+d}")
    lines.append("  all hands")
    for i, (hand, kans) in enumerate(hands):
        extra = ("   kan " + ", ".join(w.cards(k) for k in kans)) if kans else ""
        lines.append(f"    {w.names[i]:<12} {hand}{extra}")
    return lines


# --- the whole replay ---------------------------------------------------------------------------
def steps(kit: Any, events: list[Any], perspective: int | None) -> Iterator[tuple[int, list[str]]]:
    """(version, lines) for each step: the sentence, then the table after it as ``perspective``
    (a seat, or None for everyone once the deal is over) sees it; the result sheet comes last."""
    game_name = kit.name
    kinds = list(events[0].seats)
    w = Words(game_name, kinds)
    narrator = Narrator(w)
    over = type(events[-1]).__name__ == "SeedRevealed"
    windows = {a["window"]: a for a in kit.projections.claim_audit(events)}
    game = kit.game
    state = game.initial_state()
    view = None
    for version, event in enumerate(events, start=1):
        state = game.evolve(state, event)
        if perspective is None:
            shown = msgspec.to_builtins(event)
            if type(event).__name__ == "DealCreated":
                shown = {**shown, "server_seed": "(revealed at the end)"}
        else:
            shown = kit.projections.redact_event(event, perspective)
            if shown is None and over:
                shown = {"type": type(event).__name__, "seat": getattr(event, "seat", None), "hidden": True}
        line = narrator.say(shown)
        view = kit.projections.view_from_state(state, perspective)
        table = _paohuzi_table if game_name == "paohuzi" else _mcr_table
        started = view.dealer is not None and (game_name == "paohuzi" or bool(view.seats))
        body = table(w, state, view, perspective, windows) if started and view.phase != "over" else []
        yield version, [f"{version:>4}  {line}"] + [f"        {x}" for x in body]
    if view is not None and view.result is not None:
        yield len(events), result_lines(w, game_name, view, state)


def header(kit: Any, events: list[Any], perspective: int | None) -> list[str]:
    created = events[0]
    names = seat_names(list(created.seats))
    seen = "everyone (all hands)" if perspective is None else f"seat {perspective}, {names[perspective]}"
    lines = [f"deal {created.deal_id} ({created.ruleset}), {len(events)} events, seen by {seen}"]
    lines += [f"  seat {i}: {n} ({k})" for i, (n, k) in enumerate(zip(names, created.seats, strict=True))]
    if created.rematch_of:
        lines.append(f"  a rematch of deal {created.rematch_of}")
    return lines
