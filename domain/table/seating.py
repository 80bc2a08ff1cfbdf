"""Who sits where before the deal is dealt (TB-1) and how several people start it (TB-3).

Both games fold the same three events into the same ``Seating`` and ask it the same two
questions (may this seat start? with which client seeds is the deal dealt?), so the table rules
are written once, here, and each engine only hands its seating events and ``StartDeal`` over.
Pure: the service has already checked invites and tokens; a command here names the seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from domain.errors import RuleViolation
from domain.table.clock import Abandon, Back, ClockExpired, DealAbandoned, Expire, SeatAway, SeatBack

if TYPE_CHECKING:  # only a type here: domain.game itself imports the table's clock
    from domain.game import StartDeal

OPEN = "open"
PERSON = "human"
# the table rules of docs/rules/table.md, as a new deal's DealCreated names them. table/2: a
# clocked deal not dealt within its start limit ends as abandoned, and the creator may give a bot
# to a joined seat whose person never started (TB-1.4, TB-2.7); table/1 logs are decided as before
TABLE_RULES = "table/2"
START_LIMIT_S = 600  # TB-2.7: a clocked deal is dealt within 10 minutes of its last seat taken (decided)


def table_version(table: str | None) -> int:
    """The number of a deal's table rules (``"table/2"`` -> 2); 0 for a log from before them."""
    if not table or not table.startswith("table/") or not table[6:].isdigit():
        return 0
    return int(table[6:])


def start_limit_ms(created: Any) -> int | None:
    """TB-2.7 (table/2): how long a clocked deal may wait to be dealt once no seat is open: ten
    minutes, or the shorter limit a --dev deal or a tournament's table (TN-1.4) recorded; None
    where the rule does not hold (an untimed deal, or a log from before table/2)."""
    if getattr(created, "clock", None) is None or table_version(getattr(created, "table", None)) < 2:
        return None
    limit = getattr(created, "idle_limit_s", None)
    return (limit if limit else START_LIMIT_S) * 1000


# --- events (in both games' event unions) ------------------------------------------------------
class SeatJoined(msgspec.Struct, frozen=True, tag=True):
    """TB-1.1/1.3: a person took an open seat (or named the creator's seat at creation).
    ``token_digest``: SHA-256 of the seat's new token, so every process can authenticate it from
    the log alone; never shown to any viewer. ``invited``: joined with the seat's invite code
    (else from the lobby, or the creator)."""

    seat: int
    name: str
    token_digest: str = ""
    invited: bool = False


class SeatFilled(msgspec.Struct, frozen=True, tag=True):
    """TB-1.4: the creator put a bot in a seat that was open."""

    seat: int
    kind: str  # bot:<level>


class SeatReady(msgspec.Struct, frozen=True, tag=True):
    """TB-3.1: a person sent ``StartDeal`` while others had not yet. ``client_seed`` is secret
    until the deal is dealt (TB-3.2); then the deal's ``DealStarted`` names every seed."""

    seat: int
    client_seed: str


# every table event both games fold into their ``Seating`` (the clock's are TB-2); a game's
# event union includes ``TableEvent``
SEATING_EVENTS = (SeatJoined, SeatFilled, SeatReady, ClockExpired, SeatAway, SeatBack)
TableEvent = SeatJoined | SeatFilled | SeatReady | ClockExpired | SeatAway | SeatBack | DealAbandoned


# --- commands (built by the service after it checked the invite or the creator's token) --------
class JoinSeat(msgspec.Struct, frozen=True, tag=True):
    seat: int
    name: str
    token_digest: str
    invited: bool


class FillSeat(msgspec.Struct, frozen=True, tag=True):
    seat: int
    kind: str


SEATING_COMMANDS = (JoinSeat, FillSeat)
# the commands the service decides for the table, besides the games' own (the audit decodes them)
SeatCommand = JoinSeat | FillSeat | Expire | Back | Abandon


class Seating(msgspec.Struct, frozen=True):
    """The seats of one deal as its log has them so far. Immutable: a state's copy shares it."""

    kinds: tuple[str, ...] = ()
    names: tuple[str | None, ...] = ()
    token_digests: tuple[str, ...] = ()  # "" where the meta holds the digest (the creator's seats)
    ready: tuple[str | None, ...] = ()  # each person's client seed once sent, before the deal
    # the table rules hold (the deal's DealCreated names ``TABLE_RULES``): every person starts;
    # a log from before them was dealt by the first StartDeal with its one seed
    every_person_starts: bool = False
    away: tuple[bool, ...] = ()  # the greedy bot plays the seat for its person (TB-2.6)
    rules: int = 0  # the table rules' number (``table_version``): what table/2 adds holds from 2

    @classmethod
    def of(cls, seats: list[str], table_rules: str | None = None) -> Seating:
        n = len(seats)
        return cls(
            tuple(seats), (None,) * n, ("",) * n, (None,) * n, table_rules is not None, (False,) * n,
            table_version(table_rules),
        )  # fmt: skip

    @property
    def open_seats(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.kinds) if kind == OPEN]

    @property
    def people(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.kinds) if kind == PERSON]

    @property
    def parties(self) -> int:
        """The people who each seed the shuffle (TB-3.1): the creator, however many seats it
        holds the tokens of, and each person who joined."""
        joined = sum(1 for seat in self.people if self.token_digests[seat])
        return joined + (1 if any(not self.token_digests[seat] for seat in self.people) else 0)

    def party(self, seat: int) -> list[int]:
        """The seats whose tokens one person holds: the creator's seats, or one joined seat."""
        if self.token_digests[seat]:
            return [seat]
        return [p for p in self.people if not self.token_digests[p]]

    def has_started(self, seat: int) -> bool:
        """Whether the person holding ``seat`` has sent its ``StartDeal`` (from any of its seats)."""
        return any(self.ready[p] is not None for p in self.party(seat))

    @property
    def waiting(self) -> list[int]:
        """The person seats whose ``StartDeal`` the deal still waits for (TB-1.4)."""
        if self.open_seats or self.parties < 2 or not self.every_person_starts:
            return []
        return [seat for seat in self.people if not self.has_started(seat)]

    def after(self, event: Any) -> Seating:
        """The seating once ``event`` (one of ``SEATING_EVENTS``) is folded in."""
        seat = event.seat
        if type(event) is SeatJoined:
            return msgspec.structs.replace(
                self,
                kinds=_put(self.kinds, seat, PERSON),
                names=_put(self.names, seat, event.name),
                token_digests=_put(self.token_digests, seat, event.token_digest),
            )
        if type(event) is SeatFilled:
            # a bot in the seat of a person who never started (TB-1.4): its name and token go
            # with the person (for an open seat both are empty already)
            return msgspec.structs.replace(
                self,
                kinds=_put(self.kinds, seat, event.kind),
                names=_put(self.names, seat, None),
                token_digests=_put(self.token_digests, seat, ""),
            )
        if type(event) is SeatReady:
            return msgspec.structs.replace(self, ready=_put(self.ready, seat, event.client_seed))
        if type(event) is SeatAway or type(event) is SeatBack:
            return msgspec.structs.replace(self, away=_put(self.away, seat, type(event) is SeatAway))
        return self  # ClockExpired: the default move that follows changes the game

    def may_start(self, seat: int) -> bool:
        """Whether ``StartDeal`` from ``seat`` is a legal action now (TB-1.4, TB-3.1)."""
        if self.open_seats:
            return False
        if self.parties < 2 or not self.every_person_starts:
            return True  # one person (or the service for a table of bots): as it always was
        return self.kinds[seat] == PERSON and not self.has_started(seat)


def decide_seating(seating: Seating, command: Any, started: bool) -> list[Any]:
    """The events of a ``JoinSeat`` or ``FillSeat``: only an open seat before the deal starts."""
    seat = command.seat
    if not 0 <= seat < len(seating.kinds):
        raise RuleViolation("DS-3", f"no seat {seat}")
    if type(command) is JoinSeat and _names_own_seat(seating, command) and not started:
        return [SeatJoined(seat, command.name, "", False)]
    if type(command) is FillSeat and not started and replaces_person(seating, seat):
        return [SeatFilled(seat, command.kind)]
    if started or seating.kinds[seat] != OPEN:
        raise RuleViolation("DS-18", f"seat {seat} is not open: it was taken already")
    if type(command) is JoinSeat:
        return [SeatJoined(seat, command.name, command.token_digest, command.invited)]
    return [SeatFilled(seat, command.kind)]


def start_plan(seating: Seating, command: StartDeal) -> list[SeatReady] | list[str] | None:
    """What a ``StartDeal`` does: ``None`` deals now with the command's one client seed (one
    person, exactly as before); ``[SeatReady]`` records this person's seed and waits for the
    others; a list of strings deals now with every person's seed in seat order (TB-3.1)."""
    if not seating.every_person_starts:
        return None
    open_seats = seating.open_seats
    if open_seats:
        listed = ", ".join(map(str, open_seats))
        raise RuleViolation("TB-1.4", f"the deal starts once no seat is open (open: {listed})")
    if seating.parties < 2:
        return None
    seat = command.seat
    if not 0 <= seat < len(seating.kinds) or seating.kinds[seat] != PERSON:
        raise RuleViolation("DS-3", f"seat {seat} is not a person's seat: it does not start the deal")
    if seating.has_started(seat):
        raise RuleViolation("DS-2", f"seat {seat} has sent StartDeal already; the others have not yet")
    mine = set(seating.party(seat))
    if any(not seating.has_started(p) for p in seating.people if p not in mine):
        return [SeatReady(seat, command.client_seed)]
    seeds = {p: s for p, s in enumerate(seating.ready) if s is not None}
    seeds[seat] = command.client_seed
    return [seeds[p] for p in sorted(seeds)]


def replaces_person(seating: Seating, seat: int) -> bool:
    """TB-1.4 (table/2): ``seat`` is a joined person's who has not sent ``StartDeal``, so the
    creator may give it a bot (once the start clock's ``move_s`` has run: the service and the
    audit check the time, which the rules alone do not know)."""
    return (
        seating.rules >= 2
        and 0 <= seat < len(seating.kinds)
        and seating.kinds[seat] == PERSON
        and bool(seating.token_digests[seat])
        and not seating.has_started(seat)
    )


def dealt_after_fill(seating: Seating) -> tuple[str, list[str] | None] | None:
    """TB-1.4 (table/2): when a bot took the seat of a person who never started and every person
    left has sent ``StartDeal``, nobody would send another: the same batch deals, with their seeds
    (``(client_seed, client_seeds)``: one person left is dealt with its one seed as always,
    several with every seed, TB-3.1). None while someone still has to start."""
    if seating.rules < 2 or seating.open_seats:
        return None
    people = seating.people
    if not people or any(not seating.has_started(p) for p in people):
        return None
    seeds = [s for p, s in enumerate(seating.ready) if s is not None and seating.kinds[p] == PERSON]
    if not seeds:
        return None
    if seating.parties < 2:
        return seeds[0], None
    return "", seeds


def _names_own_seat(seating: Seating, command: JoinSeat) -> bool:
    """The creator names a person's seat it holds the token of (no new token: ``""``)."""
    seat = command.seat
    return seating.kinds[seat] == PERSON and seating.names[seat] is None and not command.token_digest


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]
