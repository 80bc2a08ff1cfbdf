"""The table after a step (the game's own part from its ``projections/<game>/text.py``: hands,
kan, melds, rows or discards, counts; then the open window with the options and answer the
perspective may know) and the result sheet at the end."""

from __future__ import annotations

from typing import Any

from service.replay_text.words import Words


def table_lines(w: Words, state: Any, view: Any, seat: int | None, windows: dict[int, dict]) -> list[str]:
    """The game's table after a step (its ``text.table``), then the open window, if any."""
    lines, window = w.text.table(w, state, view, seat)
    if window is not None:
        lines.extend(_window_lines(w, window, windows, seat, state.version))
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
    n = w.window_no(window)
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


def result_lines(w: Words, view: Any, state: Any) -> list[str]:
    """The result sheet: the game's own lines (``text.result``), the payments, all hands."""
    if view.result is None:
        return ["The deal is not over."]
    own, payments, winner, hands = w.text.result(w, view, state)
    lines = ["Result", *own]
    lines.append(f"  payments ({w.text.PAYMENTS_RULE})")
    order = sorted(range(len(payments)), key=lambda i: (i != winner, i))
    for i in order:
        lines.append(f"    {w.names[i]:<12} {payments[i]:+d}")
    lines.append("  all hands")
    for i, (hand, kans) in enumerate(hands):
        extra = ("   kan " + ", ".join(w.cards(k) for k in kans)) if kans else ""
        lines.append(f"    {w.names[i]:<12} {hand}{extra}")
    return lines
