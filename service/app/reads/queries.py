"""The read side: every read the service answers passes this one visibility gate.

Each read takes the viewer (a seat of the deal, a spectator, or nobody) and the deal's state and
returns only what that viewer may know now (PH-7, MC-5; docs/design.md, the read side). While a deal is
live nobody sees another seat's hidden cards, its claim options or an answer still secret, in
any route; once the deal is over everything is public. HTTP handlers hold no visibility rule of
their own: they decode the request, call one function here and encode what it returns.

The pure gate functions (``summary``, ``view``, ``replay_frame``, ``audit``, ``stream_events``,
``listing``) take a folded deal and a viewer; ``ReadSide`` does the I/O around them.

Why one file of about 400 lines: it is the one place a reviewer reads to know what any viewer
can be shown; split in two, a visibility rule could hide in the half nobody opened.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from domain.envelope import NO_COMMAND, decode_record, drop_secrets, encode_record, record_hash
from domain.errors import RuleViolation
from domain.table.clock import DealAbandoned
from domain.table.seating import PERSON
from domain.table.view import SeatDeadline, TableView
from service.app.lru import LRUCache
from service.app.reads.audit import AuditReport, audit_log
from service.app.reads.open_tables import OpenTables
from service.app.state.folds import DealNotFound, Folded, Folds, LogDoesNotReplay
from service.app.state.match_log import MatchLog, MatchNotFound
from service.app.state.players import Players
from service.app.state.presence import Presence
from service.app.state.seats import SeatTokens
from service.store.event_store import EventStore


class Viewer(msgspec.Struct, frozen=True):
    """Who is reading: ``seat`` for a seat token of this deal; else a spectator or nobody
    (they may know the same: the public table)."""

    kind: str  # seat | spectator | nobody
    seat: int | None = None

    @classmethod
    def of_seat(cls, seat: int) -> Viewer:
        return cls("seat", seat)

    def __str__(self) -> str:
        return f"seat {self.seat}" if self.seat is not None else self.kind


SPECTATOR = Viewer("spectator")
NOBODY = Viewer("nobody")


# --- answer types ----------------------------------------------------------------------------
class DealSummary(msgspec.Struct):
    """``seats_to_act``: the seats anyone may know the deal waits on (the seat whose turn it
    is), plus the viewer's own seat when it must answer; never who may claim."""

    deal_id: str
    game: str
    seats: list[str]
    version: int
    over: bool
    commitment: str
    seats_to_act: list[int]
    spectators: bool
    pace: str = "normal"
    coach: bool = False  # the seats may ask for advice
    rematch_of: str | None = None  # the deal this one plays again
    rematched_by: str | None = None  # the deal that plays this one again ("Play again")
    names: list[str | None] = []  # each seat's name (TB-1.3; public, always plain text)
    open_seats: list[int] = []  # seats still to be taken (TB-1.1)
    lobby: bool = False  # listed in the lobby: anyone may take an open seat (TB-1.2)
    # people whose StartDeal the deal still waits for (TB-1.4); never their seeds (TB-3.2)
    waiting_to_start: list[int] = []
    table: TableView | None = None  # names, away seats and the clocks, as this viewer may see them
    # a deal of a match (TB-5): {"match_id", "index", "next_deal_id"} (null until the next deal exists)
    match: dict[str, Any] | None = None


class ReplayFrame(msgspec.Struct):
    step: int
    total: int
    perspective: str
    event: dict[str, Any] | None
    view: Any


class DealListing(msgspec.Struct):
    deal_id: str
    game: str | None
    created_ms: int
    over: bool
    spectators: bool


class DealList(msgspec.Struct):
    """Deals anyone may find, newest first: finished ones, and live ones open to spectators."""

    deals: list[DealListing]


class LobbyTable(msgspec.Struct):
    deal_id: str
    game: str
    created_ms: int
    seats: list[str]
    names: list[str | None]
    open_seats: list[int]


class LobbyList(msgspec.Struct):
    """Live tables listed in the lobby that still have an open seat, newest first (TB-1.2)."""

    tables: list[LobbyTable]


class PlayerResult(msgspec.Struct):
    """A finished deal's public result, for one seat: the winner (null: nobody won), this
    seat's net payment and the game's unit."""

    winner: int | None
    score: int
    unit: str


class PlayerLinks(msgspec.Struct):
    """The web table's page of the seat, the replay (once over) and the review of the seat's
    decisions (the API route; once over)."""

    table: str
    replay: str | None
    review: str | None


class PlayerDeal(msgspec.Struct):
    """One seat a player took. ``created_at``: the deal's first record's time, as the log
    records it; ``status``: playing, over or abandoned (TB-2.7); ``result``: null while playing."""

    deal_id: str
    game: str
    ruleset: str
    created_at: str
    seat: int
    status: str
    result: PlayerResult | None
    links: PlayerLinks
    match_id: str | None = None


class PlayerMatch(msgspec.Struct):
    """One seat a player took in a match (TB-5): its game, time (the match log's first record),
    the seat (the same in every deal of it, TB-5.2), whether it is over, this seat's running
    score and the match's deals so far (``GET /matches/{id}`` has the rest)."""

    match_id: str
    game: str
    ruleset: str
    created_at: str
    seat: int
    status: str  # playing | over
    score: int
    unit: str
    deal_ids: list[str]
    links: dict[str, str]


class PlayerDeals(msgspec.Struct):
    """A player's deals and matches, each newest first; ``next_before``: the
    ``before`` of the next page (null: this is the last). A deal of a match names it in
    ``match_id``; a match's later deals are listed under the match."""

    deals: list[PlayerDeal]
    next_before: int | None = None
    matches: list[PlayerMatch] = []


PLAYER_READS = 8  # deals of one list folded at once


# --- the gate (pure) -------------------------------------------------------------------------
def watchable(folded: Folded) -> bool:
    """Whether someone without a seat may see the deal's table: once it is over, anyone; while
    it is live only if its creator allowed spectators (the default for a deal of bots only).
    Listed in the lobby to be joined is not allowed to be watched."""
    return folded.over or folded.spectators


def may_watch(folded: Folded, viewer: Viewer) -> None:
    """DS-8 for a viewer without a seat at a live deal nobody may watch (a live read of it)."""
    if viewer.seat is None and not watchable(folded):
        raise RuleViolation("DS-8", "this table is not open to spectators: a seat token is needed")


def shows_match(folded: Folded, viewer: Viewer) -> bool:
    """Whether the viewer may learn the deal's match (its id leads to every deal of it): a seat
    of the deal may, and anyone when the match's deals are open to spectators; a private
    match's deals name it to nobody else, even once over."""
    return viewer.seat is not None or folded.spectators


def scrub(shown: Any, hide_match: bool) -> Any:
    """``shown`` (builtins) without any secret digest (``is_secret_key``: no read shows one, to
    anyone) and, with ``hide_match``, without a deal's match place (``{"match_id", "index",
    "round"}``): every event and view a read shows passes here."""
    shown, _gone = drop_secrets(shown)
    return _drop_match(shown)[0] if hide_match else shown


def _drop_match(shown: Any) -> tuple[Any, bool]:
    if isinstance(shown, dict):
        out = {}
        changed = False
        for key, value in shown.items():
            if key == "match" and isinstance(value, dict) and "match_id" in value:
                changed = True
                continue
            out[key], inner = _drop_match(value)
            changed = changed or inner
        return out, changed
    if isinstance(shown, list):
        items = [_drop_match(item) for item in shown]
        return [item for item, _ in items], any(changed for _, changed in items)
    return shown, False


def _published(raw_json: bytes, hide_match: bool) -> tuple[Any, list[str], bool]:
    """A record's data or command as published: its secret fields left out (and named), and a
    private match's place."""
    shown, gone = drop_secrets(json.loads(raw_json))
    place = False
    if hide_match:
        shown, place = _drop_match(shown)
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


def coach_view(folded: Folded, viewer: Viewer) -> Any:
    """The view the coach advises from: the viewer's own seat only, of a deal that allows the
    coach (the advice is a pure function of it, ``kit.coach.coach``)."""
    if viewer.seat is None:
        raise RuleViolation("DS-8", "the coach answers a seat token (Authorization: Bearer …)")
    if not folded.coach:
        raise RuleViolation("DS-16", "this deal was created without the coach")
    return view(folded, viewer)


def view_of_state(folded: Folded, state: Any, viewer: Viewer, connected: Sequence[int] = ()) -> Any:
    """``view`` at an earlier state of the same deal (what a live stream shows after a batch),
    with the table as it stands now."""
    shown = folded.kit.projections.view_from_state(state, viewer.seat)
    return msgspec.structs.replace(shown, seating=table_view(folded, viewer, connected))


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


def command_events(folded: Folded, events: list[Any], viewer: Viewer) -> list[dict[str, Any]]:
    """The events of a command's answer as the seat that sent it may see them."""
    redact = folded.kit.projections.redact_event
    return [scrub(r, False) for r in (redact(e, viewer.seat) for e in events) if r is not None]


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


ARENA_REPORT = Path(__file__).resolve().parents[3] / "bench" / "arena-results.json"
DEFAULT_LEVELS = ("strong", "greedy")  # the lobby's default opponent: the first of these a game has


@cache
def _arena_report() -> dict[str, Any]:
    """The arena report shipped in the repository (``python -m bench.arena --write``), if any."""
    try:
        return json.loads(ARENA_REPORT.read_text())
    except (OSError, ValueError):
        return {}


def games() -> dict[str, Any]:
    """The games this server plays: ruleset, seat count, bot levels with their measured
    strength against ``greedy`` (from the shipped arena report; null where not measured) and
    the lobby's default level."""
    from domain.game import GAMES, rulesets
    from service.app.games import kit

    report = _arena_report().get("games", {})
    out = []
    for name in GAMES:
        k = kit(name)
        measured = report.get(name, {})
        default = next((lv for lv in DEFAULT_LEVELS if lv in k.bot_levels), k.bot_levels[0])
        levels = []
        for level in k.bot_levels:
            m = measured.get("levels", {}).get(level)
            strength = None
            if m is not None and "ci95" in m:
                strength = {
                    "mean_net_per_deal": m["mean_net_per_deal"],
                    "ci95": m["ci95"],
                    "unit": measured.get("unit"),
                    "vs": measured.get("baseline", "greedy"),
                    "walls": m.get("walls"),
                }
            levels.append({"level": level, "default": level == default, "strength": strength})
        out.append(
            {
                "game": name,
                "ruleset": k.game.ruleset,  # what a new deal is created with
                "rulesets": [k.game.ruleset],  # the rulesets a deal may be created with
                "decides": sorted(rulesets(name)),  # every ruleset whose logs this build replays and audits
                "seats": k.game.seat_count,
                "bots": k.bot_levels,
                "levels": levels,
                "rules_page": f"/#/rules/{name}",  # the web client's page of the game's rules
            }
        )
    return {"games": out}


# --- the reads (I/O around the gate) ----------------------------------------------------------
class ReadSide:
    """Loads what a read needs and hands it through the gate above. It only reads: it appends
    nothing and starts no bot (a handler that wants a waiting bot seat to move asks the command
    side). It shares the fold cache, the seat tokens and the presence with the command side,
    which ``bootstrap`` hands to both."""

    def __init__(
        self,
        store: EventStore,
        *,
        folds: Folds,
        seats: SeatTokens,
        presence: Presence,
        players: Players | None = None,
        match_log: MatchLog | None = None,
        audit_cache_size: int = 256,
    ) -> None:
        self.store = store
        self.folds = folds
        self.seats = seats
        self.presence = presence
        self.players = players if players is not None else Players(store)
        self.match_log = match_log if match_log is not None else MatchLog(store)
        self.open_tables = OpenTables(store, folds)  # the lobby's tables
        self._audits: LRUCache[tuple[str, str], AuditReport] = LRUCache(audit_cache_size)
        # advice is a pure function of the seat's view at a record: asked again on every redraw of
        # the table, it is computed once per move (a few ms for MCR, see bench.coach). Keyed by the
        # head record's hash too: a Redis rollback can make the same version again with other
        # events
        self._coach: LRUCache[tuple[str, int, int, str], Any] = LRUCache(4096)

    async def viewer(self, deal_id: str, token: str | None, *, anonymous: Viewer = NOBODY) -> Viewer:
        """The seat a token acts for (a bad token is refused, never read as a spectator)."""
        if token is None:
            return anonymous
        return Viewer.of_seat(await self.seats.authenticate(deal_id, token))

    async def summary(self, deal_id: str, viewer: Viewer) -> DealSummary:
        folded = await self.folds.load(deal_id)
        answer = summary(deal_id, folded, viewer, await self.presence.seats(deal_id))
        if folded.over:  # only a finished deal is played again
            answer.rematched_by = await self.store.meta_field(deal_id, "rematched_by")
        place = getattr(folded.events[0], "match", None)
        # TB-5.1: the next deal of its match, once created; a private match's only to its seats
        if place is not None and shows_match(folded, viewer):
            nxt = await self.next_in_match(deal_id, place.match_id, place.index) if folded.over else None
            answer.match = {"match_id": place.match_id, "index": place.index, "next_deal_id": nxt}
        return answer

    async def next_in_match(self, deal_id: str, match_id: str, index: int) -> str | None:
        """The deal after this finished one in its match, once it exists. The match keeps the
        link beside the deal after creating the next one; until it has (or when an archived
        deal never got it) the match log answers, so a deal the match lists is always named."""
        kept = await self.store.meta_field(deal_id, "next_deal_id")
        if kept is not None:
            return kept
        try:
            state, _version = await self.match_log.state(match_id)
        except MatchNotFound:
            return None
        if index + 1 >= len(state.deals):
            return None
        nxt = state.deals[index + 1].deal_id
        try:
            await self.folds.load(nxt)
        except DealNotFound:  # named, being created
            return None
        except LogDoesNotReplay:  # named; its own reads say what is wrong with it
            return nxt
        return nxt

    async def view(self, deal_id: str, viewer: Viewer) -> Any:
        if viewer.seat is None:
            raise RuleViolation("DS-8", "this needs a seat token (Authorization: Bearer …)")
        folded = await self.folds.load(deal_id)
        return view(folded, viewer, await self.presence.seats(deal_id))

    async def replay(
        self, deal_id: str, viewer: Viewer, step: int | None, perspective: str | None
    ) -> ReplayFrame:
        folded = await self.folds.load(deal_id)
        return replay_frame(folded, viewer, step, perspective)

    async def log(self, deal_id: str, viewer: Viewer) -> bytes:
        folded = await self.folds.load(deal_id)
        may_read_log(folded, viewer)
        raws = await self.store.read_raw(deal_id)
        hide_match = not shows_match(folded, viewer)
        return b"\n".join(public_record(raw, hide_match) for raw in raws) + b"\n"

    async def audit(self, deal_id: str, viewer: Viewer) -> AuditReport:
        try:
            folded: Folded | None = await self.folds.load(deal_id)  # 404 for an unknown deal
        except LogDoesNotReplay:
            folded = None  # the audit says where and why, as a failed check
        if folded is not None:
            may_watch(folded, viewer)
        raws = await self.store.read_raw(deal_id)
        head = await self.store.head_hash(deal_id)
        # the audit of the same bytes is the same report: keyed by a digest of what was read
        key = (deal_id, hashlib.sha256(b"\n".join(raws) + f"|{head}".encode()).hexdigest())
        report = self._audits.get(key)
        if report is None:
            report = await asyncio.get_running_loop().run_in_executor(None, audit_log, raws, head)
            self._audits.put(key, report)
        return audit(report, folded, viewer)

    async def coach(self, deal_id: str, viewer: Viewer) -> Any:
        folded = await self.folds.load(deal_id)
        seat_view = coach_view(folded, viewer)  # refuses a spectator or a deal without the coach
        key = (deal_id, viewer.seat, folded.version, folded.head_hash)
        advice = self._coach.get(key)
        if advice is None:
            # pure work on an immutable view, in a thread: the event loop gets the interpreter
            # back every few milliseconds however long one answer takes (bench.coach: p95 2-4
            # ms, but up to 66 ms for a Paohuzi hand with many splits)
            advice = await asyncio.get_running_loop().run_in_executor(None, folded.kit.coach.coach, seat_view)
            self._coach.put(key, advice)
        return advice

    async def deals_list(self, viewer: Viewer, offset: int, count: int) -> DealList:
        """The public index in Redis and the archive's finished deals, one list newest first."""
        ids, metas = await self.store.public_deals(offset, count)
        return listing(ids, metas)

    async def lobby(self, count: int) -> LobbyList:
        """Lobby tables with a free seat, newest first, from the open tables' index (however
        many deals are newer); each row is checked against the table's own fold."""
        return LobbyList(tables=await self.open_tables.rows(count, lobby_table))

    async def player_deals(
        self,
        player_key: Any,
        before_ms: int | None,
        count: int,
        match_row: Any = None,
        digest: str | None = None,
    ) -> PlayerDeals:
        """The deals the holder of ``player_key`` took a seat in, newest first, each through
        ``player_deal``; deals that neither Redis nor the archive holds are left out. A key
        nobody used has an empty list, like any other. A page ends between two creation times,
        so ``next_before`` loses no row of the next page. ``match_row``: reads a match's row
        (``MatchReads.player_match``; the matches' read side is built on this one). ``digest``:
        an account's list (``service.app.accounts``) instead of the key's."""
        if digest is None:
            digest = await self.players.digest(player_key)
        rows = await self.players.rows(digest, before_ms, count + 1)
        if len(rows) > count:
            page = rows[:count]
            boundary = page[-1].created_ms
            if rows[count].created_ms == boundary:  # the next page starts inside this ms
                page = [row for row in page if row.created_ms > boundary] or page
            more = True
        else:
            page, more = rows, False
        limit = asyncio.Semaphore(PLAYER_READS)

        async def one(row: Any) -> PlayerDeal | PlayerMatch | None:
            if row.kind == "match":
                if match_row is None:
                    return None
                async with limit:
                    return await match_row(row.id, row.seat)
            if row.kind != "deal":
                return None
            async with limit:
                try:
                    folded = await self.folds.load(row.id)
                except (DealNotFound, LogDoesNotReplay):
                    return None
                first = await self.store.read_raw(row.id, 1, 1)
            created_at = decode_record(first[0]).recorded_at if first else ""
            match = getattr(folded.events[0], "match", None) if folded.events else None
            return player_deal(row.id, folded, row.seat, created_at, match.match_id if match else None)

        shown = await asyncio.gather(*(one(row) for row in page))
        return PlayerDeals(
            deals=[d for d in shown if isinstance(d, PlayerDeal)],
            next_before=page[-1].created_ms if more and page else None,
            matches=[m for m in shown if isinstance(m, PlayerMatch)],
        )
