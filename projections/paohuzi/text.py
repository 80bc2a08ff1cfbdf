"""Paohuzi in words, for ``dealstream replay`` and the terminal review: card names by kind
(``s5``, ``b10``), a hand laid out by rank, the table after a step and the result sheet.

``words`` is the replay's namer (``service/replay_text/words.py``): its ``card``, ``cards``,
``grouped``, ``seat``, ``names`` and ``kinds`` are all these functions use of it."""

from __future__ import annotations

from typing import Any

from domain.paohuzi.cards import kind_name

WINDOW_OFFSET = 0  # Paohuzi's claim windows are numbered from 1 in the log already
PAYMENTS_RULE = "PH-8.4"


def piece_name(card: int) -> str:
    return kind_name(card >> 2)


def hand_order(card: int) -> tuple[int, int]:
    """A hand reads by rank, the small card before the big one (as the web table lays it out)."""
    return ((card >> 2) % 10, card)


def hand_group(card: int) -> int:
    return (card >> 2) % 10


def say(ev: dict[str, Any], words: Any) -> str | None:
    """The sentence of one of Paohuzi's own events (as a perspective saw it); ``None`` for an
    event every game shares, which the replay's narrator says itself."""
    t = ev["type"]
    who = words.seat(ev.get("seat"))
    card = words.card
    if t == "DealStarted":
        dealer = words.seat(ev["dealer"])
        return f"The cards are dealt. Dealer: {dealer}; the dealer's open card is {card(ev['face_up'])}."
    if t == "KanFormed":
        return f"{who} locks a kan of {card(ev['cards'][0])} ({ev['rule_id']})."
    if t == "MeldMade":
        if ev.get("claimed") is None:
            return f"{who} lays out a {ev['meld']}: {words.cards(ev['cards'])} ({ev['rule_id']})."
        src = ev.get("from_seat")
        frm = f" from {words.seat(src)}" if src is not None and src != ev["seat"] else ""
        cards = words.cards(ev["cards"])
        return f"{who} takes {card(ev['claimed'])}{frm} for a {ev['meld']}: {cards} ({ev['rule_id']})."
    if t == "CardRevealed":
        return f"{who} reveals {card(ev['card'])}; {ev['stock_left']} left in the stock."
    if t == "CardDiscarded":
        return f"{who} discards {card(ev['card'])}."
    if t == "CardUnclaimed":
        return f"Nobody takes {card(ev['card'])}; it goes to the row of {who} ({ev['rule_id']})."
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
    return None


def shows_table(view: Any) -> bool:
    return view.dealer is not None


def table(w: Any, state: Any, view: Any, seat: int | None) -> tuple[list[str], int | None]:
    """The table after a step as ``seat`` (None: everyone) sees it, and the open window if any."""
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
    return lines, view.window


def result(w: Any, view: Any, state: Any) -> tuple[list[str], list[int], int | None, list[tuple[str, list]]]:
    """The result's own lines, the payments, the winner (None: a draw) and each seat's hand."""
    r = view.result
    lines = []
    if r.outcome == "won":
        frm = f" from {w.seat(r.from_seat)}" if r.from_seat is not None and r.from_seat != r.winner else ""
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
    hands = [
        (w.grouped(h), [list(k) for k in ks]) for h, ks in zip(r.hands, r.kans or [[]] * 3, strict=False)
    ]
    return lines, r.payments, winner, hands
