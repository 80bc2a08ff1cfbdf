"""The visibility gate: every read the service answers passes these pure functions.

Each takes the viewer (a seat of the deal, a spectator, or nobody) and the deal's state and
returns only what that viewer may know now (PH-7, MC-5; docs/design.md, the read side). While a
deal is live nobody sees another seat's hidden cards, its claim options or an answer still
secret, in any route; once the deal is over everything is public. HTTP handlers hold no
visibility rule of their own: they decode the request, call one function of the read side and
encode what it returns. The views of a deal's state both sides show (``view``, ``table_view``)
live beside ``Viewer`` in ``service.app.visibility``, which the command side imports too.

No I/O here: ``service.app.reads.side`` (``ReadSide``) loads what a read needs and calls these.
Why one module: it is the one place a reviewer reads to know what any viewer can be shown; split,
a visibility rule could hide in the part nobody opened.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import msgspec

from domain.envelope import NO_COMMAND, decode_record, drop_secrets, encode_record, record_hash
from domain.errors import RuleViolation
from domain.table.clock import DealAbandoned
from service.app.reads.answers import (
    DealList,
    DealListing,
    DealSummary,
    LobbyTable,
    PlayerDeal,
    PlayerLinks,
    PlayerResult,
    ReplayFrame,
)
from service.app.reads.audit import AuditReport
from service.app.state.folds import Folded
from service.app.viewer import Viewer
from service.app.visibility import drop_match, scrub, table_view, view


def watchable(folded: Folded) -> bool:
    """Whether someone without a seat may see the deal's table: once it is over, anyone; while
    it is live only if its creator allowed spectators (the default for a deal of bots only).
    Listed in the lobby to be joined is not allowed to be watched."""
    return folded.over or folded.spectators


def may_watch(folded: Folded, viewer: Viewer) -> None:
    """DS-8 for a viewer without a seat at a live deal nobody may watch (a live read of it)."""
    if viewer.seat is None and not watchable(folded):
        raise RuleViolation("DS-8", "this table is not open to spectators: a seat token is needed")


def may_open_board(is_sealed: bool) -> None:
    """DS-47 for a read that shows a sealed board's hidden cards to whoever asks (the whole log,
    a review, another seat's perspective)."""
    if is_sealed:
        raise RuleViolation(
            "DS-47",
            "this deal's board is still played at another table of its round: it opens when the round ends",
        )


def shows_match(folded: Folded, viewer: Viewer) -> bool:
    """Whether the viewer may learn the deal's match (its id leads to every deal of it): a seat
    of the deal may, and anyone when the match's deals are open to spectators; a private
    match's deals name it to nobody else, even once over."""
    return viewer.seat is not None or folded.spectators


def _published(raw_json: bytes, hide_match: bool) -> tuple[Any, list[str], bool]:
    """A record's data or command as published: its secret fields left out (and named), and a
    private match's place."""
    shown, gone = drop_secrets(json.loads(raw_json))
    place = False
    if hide_match:
        shown, place = drop_match(shown)
    return shown, gone, place


def public_record(raw: bytes, hide_match: bool) -> bytes:
    """A stored record as the log is published: as stored, or, where it holds a secret digest
    (a ``SeatJoined``, its ``JoinSeat``) or a private match's place, a copy without it that names
    the stored record's hash (``redacted_from``) and the parts whose secret held a value
    (``left_out``: ``data``, ``command``): the chain still verifies, and the audit decides the copy again
    (``service.app.reads.audit``)."""
    if b"digest" not in raw and not (hide_match and b'"match_id"' in raw):
        return raw  # nearly every record: nothing to leave out
    record = decode_record(raw)
    data, data_gone, data_place = _published(bytes(record.data), hide_match)
    command, command_gone, command_place = (
        _published(bytes(record.command), hide_match) if record.command else (None, [], False)
    )
    if not (data_gone or command_gone or data_place or command_place):
        return raw
    # the parts that lost a secret with a value (one that was empty told nothing)
    left_out = [
        part
        for part, gone in (("data", data_gone), ("command", command_gone))
        if any(k[0] != "!" for k in gone)
    ]
    return encode_record(
        msgspec.structs.replace(
            record,
            data=msgspec.Raw(msgspec.json.encode(data)),
            command=msgspec.Raw(msgspec.json.encode(command)) if command is not None else NO_COMMAND,
            redacted_from=record_hash(raw),
            left_out=left_out or None,
        )
    )


def summary(deal_id: str, folded: Folded, viewer: Viewer, connected: Sequence[int] = ()) -> DealSummary:
    projections = folded.kit.projections
    seating = folded.state.seating
    acting = list(projections.public_turn(folded.state))
    if viewer.seat is not None and viewer.seat not in acting:
        if viewer.seat in folded.kit.game.seats_to_act(folded.state):
            acting.append(viewer.seat)  # a seat may know that it is asked itself
    return DealSummary(
        deal_id=deal_id,
        game=folded.kit.name,
        seats=folded.seats,
        version=folded.version,
        over=folded.over,
        commitment=folded.events[0].commitment,
        seats_to_act=sorted(acting),
        spectators=folded.spectators,
        pace=folded.pace,
        coach=folded.coach,
        rematch_of=folded.rematch_of,
        names=list(seating.names),
        open_seats=seating.open_seats,
        lobby=folded.lobby,
        waiting_to_start=waiting_to_start(folded),
        table=table_view(folded, viewer, connected),
    )


def waiting_to_start(folded: Folded) -> list[int]:
    """The people the deal waits on before it is dealt: none once it started (or before every
    seat is taken, when nobody may start yet)."""
    return [] if folded.started else folded.state.seating.waiting


def lobby_table(deal_id: str, folded: Folded) -> LobbyTable | None:
    """The lobby's row of a live table with an open seat (None: not one)."""
    seating = folded.state.seating
    if not folded.lobby or folded.over or not seating.open_seats:
        return None
    return LobbyTable(
        deal_id=deal_id,
        game=folded.kit.name,
        created_ms=folded.created_ms,
        seats=list(seating.kinds),
        names=list(seating.names),
        open_seats=seating.open_seats,
    )


def coach_view(folded: Folded, viewer: Viewer) -> Any:
    """The view the coach advises from: the viewer's own seat only, of a deal that allows the
    coach (the advice is a pure function of it, ``kit.coach.coach``)."""
    if viewer.seat is None:
        raise RuleViolation("DS-8", "the coach answers a seat token (Authorization: Bearer …)")
    if not folded.coach:
        raise RuleViolation("DS-16", "this deal was created without the coach")
    return view(folded, viewer)


def replay_frame(folded: Folded, viewer: Viewer, step: int | None, perspective: str | None) -> ReplayFrame:
    """One frame of the replay: the state after ``step`` events as ``perspective`` saw it.

    During the deal only a seat may replay, and only its own perspective; after the end any
    seat or ``all``.
    """
    total = folded.version
    step = total if step is None else step
    if not 0 <= step <= total:
        raise RuleViolation("DS-5", f"step must be between 0 and {total}")
    if not folded.over:
        if viewer.seat is None:
            raise RuleViolation("DS-8", "during the deal, replay is for seats only (own perspective)")
        if perspective not in (None, str(viewer.seat)):
            raise RuleViolation("DS-2", "other perspectives and 'all' open when the deal is over")
        perspective = str(viewer.seat)
    perspective = perspective or "all"
    events = folded.events[:step]
    projections = folded.kit.projections
    if perspective == "all":
        shown = projections.full_view(events)
        event = msgspec.to_builtins(events[-1]) if events else None
    else:
        try:
            seat = int(perspective)
        except ValueError:
            raise RuleViolation("DS-5", "perspective is a seat number or 'all'") from None
        if not 0 <= seat < len(folded.seats):
            raise RuleViolation("DS-3", f"no seat {seat}")
        shown = projections.seat_view(events, seat)
        event = projections.redact_event(events[-1], seat) if events else None
        if event is None and events and folded.over:  # after the end: say what kind of step it was
            event = {
                "type": type(events[-1]).__name__,
                "seat": getattr(events[-1], "seat", None),
                "hidden": True,
            }
    hide_match = not shows_match(folded, viewer)
    return ReplayFrame(
        step=step,
        total=total,
        perspective=perspective,
        event=scrub(event, hide_match),
        view=scrub(msgspec.to_builtins(shown), hide_match),
    )


def may_read_log(folded: Folded, viewer: Viewer) -> None:
    """The stored records hold every hidden card: they open when the deal is over."""
    if not folded.over:
        raise RuleViolation("DS-2", "the whole log opens when the deal is over")


_LIVE_PROBLEM_DETAIL = {
    "redecide": "a stored command does not decide to its stored events",
    "claims": "a resolved claim window does not follow the rules",
}


def audit(report: AuditReport, folded: Folded | None, viewer: Viewer) -> AuditReport:
    """The audit as ``viewer`` may read it (``folded`` None: the log does not replay, so
    whether the deal is over is not known and the audit shows what it shows during a deal).

    Once the deal is over: everything. During it: what is public (the chain, the commitment,
    the versions, whether the stored commands decide again to the stored events) and the claim
    windows already resolved, each with the options and answers of the viewer's own seat only;
    the open window and everyone else's options and answers stay out.
    """
    if folded is not None and folded.over and report.finished:
        return report
    seat = viewer.seat
    windows = []
    for window in report.claim_windows:
        if window.get("resolution") is None:
            continue  # the open window: who may claim and who answered are still secret
        options = window.get("options") or {}
        own = options.get(str(seat), options.get(seat)) if seat is not None else None
        windows.append(
            {
                **{
                    k: v
                    for k, v in window.items()
                    if k not in ("options", "answers", "expected", "unanswered", "timing")
                },
                **({"timing": _own_timing(window["timing"], seat)} if "timing" in window else {}),
                "options": {str(seat): own} if own is not None else {},
                "answers": [
                    a for a in window.get("answers", ()) if seat is not None and a.get("seat") == seat
                ],
                "unanswered": [x for x in window.get("unanswered", ()) if x == seat],
                "expected": None,
            }
        )
    resolved_at = {w.get("opened_at_version") for w in windows}
    problems = [
        msgspec.structs.replace(p, detail=_LIVE_PROBLEM_DETAIL.get(p.check, p.detail))
        for p in report.problems
        if p.check != "claims" or p.version in resolved_at
    ]
    return msgspec.structs.replace(
        report,
        ok=False,
        claim_windows=windows,
        claim_windows_ok=(
            None if report.claim_windows_ok is None else all(w.get("consistent", False) for w in windows)
        ),
        problems=problems,
    )


def _own_timing(timing: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A window's timing during the deal: when it opened, and the viewer's own answer and
    deadline only (another seat's would tell that it could claim)."""
    return {
        "opened_ms": timing["opened_ms"],
        "answers": [a for a in timing["answers"] if seat is not None and a["seat"] == seat],
        "deadlines": [d for d in timing["deadlines"] if seat is not None and d["seat"] == seat],
    }


def stream_events(folded: Folded, events: list[tuple[int, Any]], viewer: Viewer) -> list[tuple[int, Any]]:
    """The (version, event) pairs of a live batch as ``viewer`` may see them; events hidden from
    the viewer are left out (its versions skip them)."""
    redact = folded.kit.projections.redact_event
    hide_match = not shows_match(folded, viewer)
    shown = []
    for version, event in events:
        r = redact(event, viewer.seat)
        if r is not None:
            shown.append((version, scrub(r, hide_match)))
    return shown


def sealed_stream_events(
    folded: Folded, events: list[tuple[int, Any]], viewer: Viewer
) -> list[tuple[int, Any]]:
    """``stream_events`` of a sealed board (``folded``: its ``sealed_fold``): the events up to
    where it ended as a live viewer sees them, and of each later one only its kind and seat."""
    shown = stream_events(folded, [(v, e) for v, e in events if v <= folded.version], viewer)
    for version, event in events:
        if version > folded.version:
            kind = {"type": type(event).__name__, "seat": getattr(event, "seat", None), "hidden": True}
            shown.append((version, kind))
    return shown


def listing(ids: list[str], metas: list[dict[str, str]]) -> DealList:
    """Rows of the public index (finished deals and live ones open to spectators): only what
    the index itself says about each deal."""
    rows = [
        DealListing(
            deal_id=deal_id,
            game=meta.get("game"),
            created_ms=int(meta.get("created_ms") or 0),
            over=meta.get("status") == "over",
            spectators=meta.get("spectators") == "1",
        )
        for deal_id, meta in zip(ids, metas, strict=True)
    ]
    # a lobby table is in the index to be joined; while live it is listed to watch only when its
    # creator allowed spectators (``watchable``)
    return DealList(deals=[row for row in rows if row.over or row.spectators])


def player_deal(deal_id: str, folded: Folded, seat: int, created_at: str, match_id: str | None) -> PlayerDeal:
    """A row of a player's list: what anyone may know of the deal (its game, time, the seat,
    whether it is over) and, once it is over, its public result for that seat; never a card, a
    token, an invite or who else listed it."""
    result = None
    status = "playing"
    over = folded.over
    if over:
        outcome = folded.kit.deal_summary(folded.state)
        abandoned = any(isinstance(e, DealAbandoned) for e in folded.events[-3:])
        status = "abandoned" if abandoned else "over"
        score = outcome.payments[seat] if 0 <= seat < len(outcome.payments) else 0
        result = PlayerResult(winner=outcome.winner, score=score, unit=outcome.unit)
    return PlayerDeal(
        deal_id=deal_id,
        game=folded.kit.name,
        ruleset=folded.kit.game.ruleset if not folded.events else folded.events[0].ruleset,
        created_at=created_at,
        seat=seat,
        status=status,
        result=result,
        links=PlayerLinks(
            table=f"/#/play/{deal_id}/{seat}",
            replay=f"/#/replay/{deal_id}" if over else None,
            review=f"/deals/{deal_id}/reviews/{seat}" if over else None,
        ),
        match_id=match_id,
    )
