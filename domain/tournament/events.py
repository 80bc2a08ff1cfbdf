"""The events of a tournament's log (TN-1.3): everything its standings are a fold of.

Names of players: an account's name, or ``<kind>#<n>`` for a house bot (``bot:greedy#3``);
fillers (TN-1.2) and the duplicate house table's bots are house bots too. Nothing secret is
ever in an event: the round seeds are only their commitments until each round's end.
"""

from __future__ import annotations

import msgspec


class TournamentCreated(msgspec.Struct, frozen=True, tag=True, omit_defaults=True):
    """The first event: what TN-1.1 names. ``seats``: seats per table, from the game registry."""

    tournament_id: str
    game: str
    seats: int
    format: str  # "swiss" | "duplicate"
    rounds: int
    deals_per_round: int
    pace: str = "normal"
    clock: dict[str, int] | None = None
    fill_with_bots: bool = False
    open_entries: bool = False
    name: str = ""


class SeedCommitted(msgspec.Struct, frozen=True, tag=True):
    """TN-2.1: ``sha256(round_seed)`` of round ``round``, before anyone entered or was paired."""

    round: int
    commitment: str


class PlayerEntered(msgspec.Struct, frozen=True, tag=True, omit_defaults=True):
    """An entrant: ``kind`` is ``person`` or a house bot's ``bot:<level>``; ``seed_hash`` is
    ``sha256(client_seed)``, mixed into every round seed (TN-2.1). ``filler``: a house bot that
    plays but never ranks (TN-1.2); ``replaces``: the withdrawn player it stands in for."""

    player: str
    kind: str
    seed_hash: str
    filler: bool = False
    replaces: str | None = None


class TournamentStarted(msgspec.Struct, frozen=True, tag=True):
    """Entries are closed; round 1 is paired next."""


class TablePlan(msgspec.Struct, frozen=True):
    table: int  # from 1; 0 is the duplicate house table
    players: list[str]  # in seat order


class RoundPaired(msgspec.Struct, frozen=True, tag=True):
    """TN-2.2: the round's tables, each in seat order (anyone re-derives them, TN-2.3)."""

    round: int
    tables: list[TablePlan]


class TableStarted(msgspec.Struct, frozen=True, tag=True):
    """The match a table of a round plays (table 0: the house table of a duplicate round)."""

    round: int
    table: int
    match_id: str


class DealResult(msgspec.Struct, frozen=True):
    deal_id: str
    payments: list[int]  # net per seat, as the deal's log has them


class TableResult(msgspec.Struct, frozen=True, tag=True):
    """A table's match is over: each deal's payments in order, and each seat's match score."""

    round: int
    table: int
    deals: list[DealResult]
    scores: list[int]


class RoundSeedRevealed(msgspec.Struct, frozen=True, tag=True):
    """TN-2.1: the round is over; its seed (hex), which the commitment must match."""

    round: int
    seed: str


class Ruling(msgspec.Struct, frozen=True, tag=True):
    """TN-4.1: the arbiter's ruling, never deleted; only a later ruling undoes it."""

    player: str
    points: int
    reason: str
    rule: str
    deal_id: str


class PlayerWithdrew(msgspec.Struct, frozen=True, tag=True):
    """TN-1.4: the player plays no more rounds (a filler replaces them, entered with it)."""

    player: str


class TournamentEnded(msgspec.Struct, frozen=True, tag=True):
    """The last round's results are in and its seed revealed."""


TournamentEvent = (
    TournamentCreated
    | SeedCommitted
    | PlayerEntered
    | TournamentStarted
    | RoundPaired
    | TableStarted
    | TableResult
    | RoundSeedRevealed
    | Ruling
    | PlayerWithdrew
    | TournamentEnded
)

event_decoder = msgspec.json.Decoder(TournamentEvent)
event_encoder = msgspec.json.Encoder()
