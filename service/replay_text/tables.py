"""The table after a step (hands, kan, melds, rows or discards, counts, the open window with
the options and answer the perspective may know) and the result sheet at the end."""

from __future__ import annotations

from typing import Any

from service.replay_text.words import Words, window_no


def paohuzi_table(w: Words, state: Any, view: Any, seat: int | None, windows: dict[int, dict]) -> list[str]:
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


def mcr_table(w: Words, state: Any, view: Any, seat: int | None, windows: dict[int, dict]) -> list[str]:
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
