"""What a seat of a deal, or anyone else, may see of its state: the pure functions both sides show
through.

The command side answers a command with the sender's view and the events it may see; the read
side (``service.app.reads.gate``, which holds every other visibility rule) shows the same views on
every read. Both import these from here, beside ``Viewer``, so neither side imports the other
(docs/design.md, the layers). No I/O.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import msgspec

from domain.envelope import drop_secrets
from domain.table.seating import PERSON
from domain.table.view import SeatDeadline, TableView
from service.app.state.folds import Folded
from service.app.viewer import Viewer


def scrub(shown: Any, hide_match: bool) -> Any:
    """``shown`` (builtins) without any secret digest (``is_secret_key``: no read shows one, to
    anyone) and, with ``hide_match``, without a deal's match place (``{"match_id", "index",
    "round"}``): every event and view a read shows passes here."""
    shown, _gone = drop_secrets(shown)
    return drop_match(shown)[0] if hide_match else shown


def drop_match(shown: Any) -> tuple[Any, bool]:
    if isinstance(shown, dict):
        out = {}
        changed = False
        for key, value in shown.items():
            if key == "match" and isinstance(value, dict) and "match_id" in value:
                changed = True
                continue
            out[key], inner = drop_match(value)
            changed = changed or inner
        return out, changed
    if isinstance(shown, list):
        items = [drop_match(item) for item in shown]
        return [item for item, _ in items], any(changed for _, changed in items)
    return shown, False


def view(folded: Folded, viewer: Viewer, connected: Sequence[int] = ()) -> Any:
    """The seat's own view (hand, legal actions); for anyone else the public table."""
    shown = folded.kit.projections.view_from_state(folded.state, viewer.seat)
    return msgspec.structs.replace(shown, seating=table_view(folded, viewer, connected))


def table_view(folded: Folded, viewer: Viewer, connected: Sequence[int] = ()) -> TableView:
    """Names, kinds, away seats and the clocks running, as ``viewer`` may see them (TB-2.2): a
    turn's deadline is public, a claim window's only to the asked seat (the others learn only
    that the table waits), and a seat's bank only to itself."""
    seating = folded.state.seating
    clock = folded.clock
    deadlines: list[SeatDeadline] = []
    claims = False
    if clock is not None and not folded.over:
        for seat, wait in sorted(clock.waits.items()):
            due = clock.deadline(seat)
            if due is None:
                continue
            mine = viewer.seat == seat
            if wait.wait == "claim":
                claims = True
                if not mine:
                    continue
            deadlines.append(
                SeatDeadline(
                    seat,
                    wait.wait,
                    due.own_ms,
                    due.final_ms if mine else None,
                    clock.bank_ms[seat] if mine else None,
                )
            )
    return TableView(
        names=list(seating.names),
        kinds=list(seating.kinds),
        away=[seat for seat, away in enumerate(seating.away) if away],
        open_seats=seating.open_seats,
        clock=clock.settings if clock is not None else None,
        deadlines=deadlines,
        waits_on_claims=claims,
        # who has a live stream is public (a seat's kind is); only person seats count
        connected=[s for s in connected if 0 <= s < len(seating.kinds) and seating.kinds[s] == PERSON],
    )


def view_of_state(folded: Folded, state: Any, viewer: Viewer, connected: Sequence[int] = ()) -> Any:
    """``view`` at an earlier state of the same deal (what a live stream shows after a batch),
    with the table as it stands now."""
    shown = folded.kit.projections.view_from_state(state, viewer.seat)
    return msgspec.structs.replace(shown, seating=table_view(folded, viewer, connected))


def command_events(folded: Folded, events: list[Any], viewer: Viewer) -> list[dict[str, Any]]:
    """The events of a command's answer as the seat that sent it may see them."""
    redact = folded.kit.projections.redact_event
    return [scrub(r, False) for r in (redact(e, viewer.seat) for e in events) if r is not None]


def sealed(over: bool, round_over: bool | None) -> bool:
    """TN-3.6: whether a finished deal is a duplicate board still sealed. Every table of a
    duplicate round plays the same walls; a board's deal that ended at one table may still be in
    play at another, so from its end (``over``) until the whole round is over (``round_over``:
    the tournament's record says so; None: the deal is no tournament board) it reads as if it
    were live: nobody sees a
    hidden card but a seat its own, and the whole log, the other perspectives and the reviews
    stay shut."""
    return round_over is False and over


def sealed_fold(folded: Folded) -> Folded:
    """The deal as it stood just before the event that ended it: what a sealed board shows
    (``sealed``), through the same rules as a live deal. The end and everything after it (a
    winner's hand, the revealed seed) stays out; the table's clock too (it ran out with the
    deal)."""
    game = folded.kit.game
    state = game.initial_state()
    end = len(folded.events)
    for index, event in enumerate(folded.events):
        state = game.evolve(state, event)
        if game.is_over(state):
            end = index
            break
    before = folded.events[:end]
    return dataclasses.replace(
        folded, state=game.fold(before), version=end, events=before, clock=None, past={}, state_shared=False
    )


def sealed_view(folded: Folded, viewer: Viewer, connected: Sequence[int] = ()) -> Any:
    """A seat's view of a sealed board (``sealed_fold``): its own cards as it last saw them while
    playing, nothing to do any more."""
    shown = view(folded, viewer, connected)
    return msgspec.structs.replace(shown, legal_actions=[], prompt=None)


def sealed_command_events(
    folded: Folded, events: list[tuple[int, Any]], viewer: Viewer
) -> list[dict[str, Any]]:
    """``command_events`` of a sealed board (``folded``: its ``sealed_fold``): the events up to
    where it ended as the sending seat may see them, and of each later one only its kind and
    seat (TN-3.6)."""
    shown = command_events(folded, [e for v, e in events if v <= folded.version], viewer)
    for version, event in events:
        if version > folded.version:
            shown.append({"type": type(event).__name__, "seat": getattr(event, "seat", None), "hidden": True})
    return shown
