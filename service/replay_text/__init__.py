"""``dealstream replay`` in words: each step of a deal as a sentence with card and tile names
(``s5``, ``b10``, ``W3``, ``H2``), then the table as the chosen perspective sees it after that
step (hands, kan, melds, rows or discards, counts, the open claim window with its options and
answer), and the result sheet at the end.

Pure text from the stored events: the perspective is a seat (what that seat may know, through the
game's own projections) or ``all`` once the deal is over. The names are the web table's: the k-th
bot seat is "Computer k", the k-th human seat "Player k".

``words`` names things, ``narrator`` says each step, ``tables`` draws the table and the result
sheet; ``steps`` and ``header`` here put them together. What differs by game (piece names, the
table's rows, the result's lines) is the game's own ``projections/<game>/text.py``, which the
game's kit hands over as ``kit.text``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from service.replay_text.narrator import Narrator
from service.replay_text.tables import result_lines, table_lines
from service.replay_text.words import Words, seat_names

__all__ = ["Narrator", "Words", "header", "result_lines", "seat_names", "steps"]


def steps(kit: Any, events: list[Any], perspective: int | None) -> Iterator[tuple[int, list[str]]]:
    """(version, lines) for each step: the sentence, then the table after it as ``perspective``
    (a seat, or None for everyone once the deal is over) sees it; the result sheet comes last."""
    kinds = list(events[0].seats)
    w = Words(kit.text, kinds)
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
        started = kit.text.shows_table(view)
        body = table_lines(w, state, view, perspective, windows) if started and view.phase != "over" else []
        yield version, [f"{version:>4}  {line}"] + [f"        {x}" for x in body]
    if view is not None and view.result is not None:
        yield len(events), result_lines(w, view, state)


def header(kit: Any, events: list[Any], perspective: int | None) -> list[str]:
    created = events[0]
    names = seat_names(list(created.seats))
    seen = "everyone (all hands)" if perspective is None else f"seat {perspective}, {names[perspective]}"
    lines = [f"deal {created.deal_id} ({created.ruleset}), {len(events)} events, seen by {seen}"]
    lines += [f"  seat {i}: {n} ({k})" for i, (n, k) in enumerate(zip(names, created.seats, strict=True))]
    if created.rematch_of:
        lines.append(f"  a rematch of deal {created.rematch_of}")
    return lines
