"""MCR in words, for ``dealstream replay`` and the terminal review: tile codes (``W3``, ``H2``),
a hand laid out by suit, the table after a step and the result sheet with its fans.

``words`` is the replay's namer (``service/replay_text/words.py``): its ``card``, ``cards``,
``grouped``, ``seat``, ``names`` and ``kinds`` are all these functions use of it."""

from __future__ import annotations

from typing import Any

from domain.mcr.tiles import code

WINDOW_OFFSET = 1  # MCR's log numbers claim windows from 0; people count them from 1
PAYMENTS_RULE = "MC-4.4"
WINDS = "ESWN"


def piece_name(tile: int) -> str:
    return code(tile)


def hand_order(tile: int) -> tuple[int]:
    return (tile,)


def hand_group(tile: int) -> int:
    """Suits apart, then winds, dragons and flowers."""
    return 99 if tile >= 136 else (tile >> 2) // 9 if tile < 108 else 3 + ((tile >> 2) >= 31)


def say(ev: dict[str, Any], words: Any) -> str | None:
    """The sentence of one of MCR's own events (as a perspective saw it); ``None`` for an event
    every game shares, which the replay's narrator says itself."""
    t = ev["type"]
    who = words.seat(ev.get("seat"))
    card = words.card
    if t == "DealStarted":
        dealer = words.seat(ev["dealer"])
        return f"The tiles are dealt. Dealer: {dealer}; prevailing wind {WINDS[ev['prevailing_wind']]}."
    if t == "TilesDealt":
        n = len(ev["tiles"]) if "tiles" in ev else ev.get("count", 0)
        shown = f": {words.grouped(ev['tiles'])}" if "tiles" in ev else ""
        return f"{who} receives {n} tiles{shown}."
    if t == "FlowerReplaced":
        got = f", draws {card(ev['replacement'])}" if ev.get("replacement") is not None else ""
        return f"{who} shows {card(ev['flower'])}{got or ' and draws a replacement'}."
    if t == "TileDrawn":
        what = card(ev["tile"]) if "tile" in ev else "a tile"
        return f"{who} draws {what}{' as a replacement (MC-3.3)' if ev.get('replacement') else ''}."
    if t == "TileDiscarded":
        return f"{who} discards {card(ev['tile'])}."
    if t == "SetClaimed":
        frm = words.seat(ev["from_seat"])
        return f"{who} takes {card(ev['card'])} from {frm} for a {ev['meld']}: {words.cards(ev['tiles'])}."
    if t == "ConcealedKongDeclared":
        of = f" of {card(ev['tiles'][0])}" if ev.get("tiles") else ""
        return f"{who} declares a concealed kong{of} (MC-3.3)."
    if t == "AddedKongDeclared":
        return f"{who} adds {card(ev['tile'])} to a pung: a kong (MC-3.3)."
    if t == "HandWon":
        how = "self-drawn" if ev["self_drawn"] else f"on {words.seat(ev['from_seat'])}'s tile"
        return f"{who} wins {how} with {card(ev['tile'])}: {ev['total']} points."
    if t == "WallExhausted":
        return "The wall is empty: a drawn deal (MC-3.6)."
    return None


def shows_table(view: Any) -> bool:
    return view.dealer is not None and bool(view.seats)


def table(w: Any, state: Any, view: Any, seat: int | None) -> tuple[list[str], int | None]:
    """The table after a step as ``seat`` (None: everyone) sees it, and the open window if any."""
    lines = []
    top = [f"wall {view.wall_count}", f"prevailing wind {WINDS[view.prevailing_wind]}"]
    if view.phase == "turn":
        top.append(f"to move: {w.seat(view.turn)}")
    lines.append(" · ".join(top))
    for p, pub in enumerate(view.seats):
        tags = [w.kinds[p], f"wind {WINDS[pub.wind]}"] + (["dealer"] if view.dealer == p else [])
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
    return lines, None if view.window is None else view.window.window


def result(w: Any, view: Any, state: Any) -> tuple[list[str], list[int], int | None, list[tuple[str, list]]]:
    """The result's own lines, the payments, the winner (None: a draw) and each seat's hand."""
    r = view.result
    lines = []
    if r.win is not None:
        h = r.win
        how = "self-drawn" if h.self_drawn else f"on the tile of {w.seat(h.from_seat)}"
        lines.append(f"  {w.seat(h.seat)} wins {how} with {w.card(h.tile)}")
        melds = [f"{m.kind.replace('_', ' ')} {w.cards(sorted(m.tiles))}" for m in view.seats[h.seat].melds]
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
    return lines, payments, winner, [(w.grouped(hd), []) for hd in r.hands]
