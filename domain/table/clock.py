"""TB-2 clocks: the settings a deal records in its first event and the deadlines that follow.

Every deadline is a function of the log alone (TB-2.3): the time the asking event was recorded,
the settings and the seat's remaining bank. So every process, and the audit, computes the same
deadline, after any restart.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any, Literal

import msgspec

from domain.errors import RuleViolation

Wait = Literal["move", "claim"]

TURN_RANGE_S = (2, 600)  # move_s and claim_s (TB-2.1)
BANK_RANGE_S = (0, 600)  # bank_s may be 0 (TB-2.1)


class ClockSettings(msgspec.Struct, frozen=True):
    """A deal's clock, in seconds (TB-2.1)."""

    move_s: float
    claim_s: float
    bank_s: float

    def own_ms(self, wait: Wait) -> int:
        """The wait's own time, before the bank is drawn on (TB-2.3)."""
        return _ms(self.move_s if wait == "move" else self.claim_s)

    @property
    def bank_ms(self) -> int:
        return _ms(self.bank_s)


DEFAULT_CLOCK = ClockSettings(move_s=20, claim_s=10, bank_s=60)


def parse_clock(body: Any) -> ClockSettings:
    """A clock from a request body: all three fields or none (``None`` or ``{}`` give the default).

    Each field is a finite number (a bool is no number) in its TB-2.1 range; an unknown field is
    refused too, so a misspelt ``bank`` is never silently the default."""
    if body is None or body == {}:
        return DEFAULT_CLOCK
    if not isinstance(body, dict):
        raise RuleViolation("TB-2.1", "clock must be an object with move_s, claim_s and bank_s")
    fields = ("move_s", "claim_s", "bank_s")
    unknown = sorted(str(k) for k in body if k not in fields)
    if unknown:
        raise RuleViolation("TB-2.1", f"clock has unknown fields: {', '.join(unknown)[:80]}")
    missing = [f for f in fields if f not in body]
    if missing:
        raise RuleViolation(
            "TB-2.1", f"clock needs all of move_s, claim_s, bank_s (missing {', '.join(missing)})"
        )
    values = {}
    for name in fields:
        low, high = BANK_RANGE_S if name == "bank_s" else TURN_RANGE_S
        value = body[name]
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise RuleViolation("TB-2.1", f"clock.{name} must be a number of seconds")
        if not low <= value <= high:
            raise RuleViolation("TB-2.1", f"clock.{name} must be between {low} and {high} seconds")
        values[name] = value
    return ClockSettings(**values)


class Deadline(msgspec.Struct, frozen=True):
    """When a wait's own time ends and when the seat's time is up (own time plus the bank left)."""

    own_ms: int
    final_ms: int


def deadline(settings: ClockSettings, wait: Wait, asked_ms: int, bank_left_ms: int) -> Deadline:
    """TB-2.2/2.3: the clock runs from the recorded time of the event that asked the seat."""
    own = asked_ms + settings.own_ms(wait)
    return Deadline(own_ms=own, final_ms=own + max(0, bank_left_ms))


def bank_after(
    settings: ClockSettings, wait: Wait, asked_ms: int, answered_ms: int, bank_left_ms: int
) -> int:
    """The bank left after an answer: time used beyond the own time comes out of it (TB-2.3),
    never below nothing; the bank is never refilled."""
    over = max(0, answered_ms - asked_ms - settings.own_ms(wait))
    return max(0, bank_left_ms - over)


def recorded_ms(recorded_at: str) -> int:
    """A record's ``recorded_at`` (ISO 8601, UTC, ``Z``) as integer milliseconds since the epoch,
    exactly: the microseconds are truncated, never rounded through a float."""
    text = recorded_at[:-1] + "+00:00" if recorded_at.endswith("Z") else recorded_at
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


# --- events and commands of the clock (in both games' unions) ------------------------------------
class ClockExpired(msgspec.Struct, frozen=True, tag=True):
    """TB-2.5: ``seat``'s time ran out at ``deadline_ms`` (epoch ms, from the log alone) while
    the deal waited on it for ``wait``; the seat's default move follows in the same batch."""

    seat: int
    deadline_ms: int
    wait: str
    rule_id: str = "TB-2.5"


class SeatAway(msgspec.Struct, frozen=True, tag=True):
    """TB-2.6: a second expiry in a row; the ``greedy`` bot plays the seat until it is back."""

    seat: int
    rule_id: str = "TB-2.6"


class SeatBack(msgspec.Struct, frozen=True, tag=True):
    """TB-2.6: the person of an away seat sent a command again (or ``Back``)."""

    seat: int
    rule_id: str = "TB-2.6"


class Expire(msgspec.Struct, frozen=True, tag=True):
    """The table's command when a deadline passed (built by the service, never by a client):
    ``away`` when the seat's previous wait ended by an expiry too (TB-2.6)."""

    seat: int
    deadline_ms: int
    wait: str
    away: bool = False


class DealAbandoned(msgspec.Struct, frozen=True, tag=True):
    """TB-2.7: an untimed deal that waited ``idle_ms`` on its person with nothing recorded ends
    here; nobody pays, and the seed is revealed after it as at any other end. ``idle_since_ms``:
    the recorded time of the record before it (the audit checks both against the log)."""

    idle_since_ms: int
    idle_ms: int
    rule_id: str = "TB-2.7"


IDLE_LIMIT_S = 3600  # TB-2.7: an hour (decided); a --dev deal may record a shorter one


def idle_limit_ms(created: Any) -> int:
    """TB-2.7's limit for a deal, from its ``DealCreated``: the hour, or the one it recorded."""
    limit = getattr(created, "idle_limit_s", None)
    return (limit if limit else IDLE_LIMIT_S) * 1000


class Abandon(msgspec.Struct, frozen=True, tag=True):
    """The table's command when an untimed deal has been idle for its limit (built by the
    service's clock keeper, never by a client)."""

    idle_since_ms: int
    idle_ms: int


class Back(msgspec.Struct, frozen=True, tag=True):
    """A person says it is back at its away seat ("I'm back")."""

    seat: int


class SeatWait(msgspec.Struct, frozen=True):
    """The deal waits on ``seat`` for a ``wait`` asked at ``asked_ms``, by the record at
    ``asked_version`` (a command decided on an earlier version answered something else, TB-2.8)."""

    seat: int
    wait: str
    asked_ms: int
    asked_version: int = 0


class ClockTrack:
    """Each seat's wait and bank, folded from the log (TB-2.2, TB-2.3): after each event, the
    seats the deal waits on now, at the time its record was recorded. Pure and deterministic:
    every process folding the same records arrives at the same deadlines."""

    __slots__ = (
        "settings", "waits", "bank_ms", "last_expired", "last_ms", "_expiring", "seated_ms", "acted_at"
    )  # fmt: skip

    def __init__(self, settings: ClockSettings, seats: int) -> None:
        self.settings = settings
        self.waits: dict[int, SeatWait] = {}
        self.bank_ms = [settings.bank_ms] * seats
        self.last_expired = [False] * seats  # the seat's last wait ended by an expiry (TB-2.6)
        self.last_ms = 0  # the latest recorded time folded in
        self._expiring: set[int] = set()  # a ClockExpired seen, its wait not ended yet
        # the recorded time of the record after which no seat was open (TB-1.4, TB-2.7)
        self.seated_ms: int | None = None
        # the version of the table's latest move for each seat: a ClockExpired, or a move made for
        # it while it was away (TB-2.8)
        self.acted_at = [0] * seats

    def step(self, at_ms: int, asked: dict[int, str], expired: int | None = None, version: int = 0) -> None:
        """The deal now (at ``at_ms``, the record at ``version``) waits on ``asked`` (seat ->
        wait); ``expired``: the seat whose ``ClockExpired`` this event is. A wait that ends uses
        the seat's bank for the time beyond its own (TB-2.3), and says whether it ended by an
        expiry (TB-2.6)."""
        self.last_ms = max(self.last_ms, at_ms)
        if expired is not None:
            self._expiring.add(expired)
            self.acted_at[expired] = version
        for seat, wait in list(self.waits.items()):
            if asked.get(seat) == wait.wait:
                continue
            del self.waits[seat]
            self.bank_ms[seat] = bank_after(
                self.settings,
                wait.wait,
                wait.asked_ms,
                at_ms,
                self.bank_ms[seat],  # type: ignore[arg-type]
            )
            self.last_expired[seat] = seat in self._expiring
            self._expiring.discard(seat)
        for seat, kind in asked.items():
            if seat not in self.waits:
                self.waits[seat] = SeatWait(seat, kind, at_ms, version)

    def deadline(self, seat: int) -> Deadline | None:
        wait = self.waits.get(seat)
        if wait is None:
            return None
        return deadline(self.settings, wait.wait, wait.asked_ms, self.bank_ms[seat])  # type: ignore[arg-type]

    def overdue(self, now_ms: int) -> list[tuple[SeatWait, Deadline]]:
        """The waits whose time is up at ``now_ms``, earliest first."""
        out = []
        for seat, wait in self.waits.items():
            due = self.deadline(seat)
            if due is not None and due.final_ms <= now_ms:
                out.append((wait, due))
        return sorted(out, key=lambda item: item[1].final_ms)

    def answered_since(self, seat: int, seen_version: int) -> bool:
        """TB-2.8: since ``seen_version`` the table acted for ``seat`` or asked it anew, so a
        command decided on that version answers a situation that is gone."""
        wait = self.waits.get(seat)
        if wait is not None and wait.asked_version > seen_version:
            return True
        return self.acted_at[seat] > seen_version

    def acted_for(self, seat: int, version: int) -> None:
        """The table moved for ``seat`` (its away bot, TB-2.6) in the batch at ``version``."""
        if 0 <= seat < len(self.acted_at):
            self.acted_at[seat] = max(self.acted_at[seat], version)

    def next_deadline_ms(self) -> int | None:
        finals = [d.final_ms for seat in self.waits if (d := self.deadline(seat)) is not None]
        return min(finals) if finals else None
