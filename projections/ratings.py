"""Ratings from rated results: one pure fold (no I/O, no clock), per game.

A rated deal names its rated player per seat in its first event (``DealCreated.rated``: the
account's name for a person seat, ``bot:<level>`` for a house bot, ``""`` for a seat open at the
creation: the signed-in account that joins it, its seat named with the account's name in its
``SeatJoined``, or the house bot the creator put there, ``SeatFilled``). When it ends, its result
ranks the seats by their net payments (the larger the better, equal payments an equal rank).
The fold applies OpenSkill's Plackett-Luce model to the results in the order they were
recorded (the time of the record that ended them, then their id), so the service's live
ratings and ``dealstream ratings rebuild`` run this same code over the same ordered results
and agree. The rating shown is ``mu - 3 * sigma``: low while a player is new, it climbs as
the uncertainty (``sigma``) shrinks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec
from openskill.models import PlackettLuce

# the house bots that may sit at a rated table; they are rated players too and anchor the scale
RATED_BOTS = ("bot:random", "bot:greedy", "bot:strong")
# a rating is "provisional" while its uncertainty is above this (the model starts at 25/3)
SETTLED_SIGMA = 3.0

_MODEL = PlackettLuce()


class RatedResult(msgspec.Struct, frozen=True):
    """One rated result as the logs record it: ``players`` and ``ranks`` per seat (rank 1 is
    best, equal ranks a tie); ``at``: the ``recorded_at`` of the record that ended it."""

    game: str
    kind: str  # "deal" (a match's standings would be "match")
    result_id: str
    at: str
    players: list[str]
    ranks: list[int]


class PlayerRating(msgspec.Struct):
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> float:
        return shown(self.mu, self.sigma)


class HistoryPoint(msgspec.Struct, frozen=True):
    kind: str
    result_id: str
    rating: float
    at: str


def shown(mu: float, sigma: float) -> float:
    """The rating displayed: a conservative estimate, ``mu - 3 * sigma``."""
    return mu - 3.0 * sigma


def order_key(result: RatedResult) -> tuple[str, str]:
    return (result.at, result.result_id)


def ranks_by_payments(payments: Sequence[int]) -> list[int]:
    """Rank 1 for the largest net payment; seats paid alike share a rank."""
    return [1 + sum(1 for other in payments if other > mine) for mine in payments]


def rated_players(rated: Sequence[str], events: Iterable[Any]) -> list[str] | None:
    """Each seat's rated player: the first event's list, a seat open at the creation taken by
    the first ``SeatJoined`` (its name is the account's) or ``SeatFilled`` (a house bot) of it.
    None when a seat was never taken or a player sits twice (the result is not rated)."""
    players = list(rated)
    for event in events:
        kind = type(event).__name__
        taken = kind in ("SeatJoined", "SeatFilled") and 0 <= event.seat < len(players)
        if taken and players[event.seat] == "":
            players[event.seat] = event.name if kind == "SeatJoined" else event.kind
    if "" in players or len(set(players)) != len(players):
        return None
    if any(p.startswith("bot:") and p not in RATED_BOTS for p in players):
        return None
    return players


def deal_result(
    game: str,
    created: Any,
    payments: Sequence[int],
    at: str,
    abandoned: bool = False,
    events: Iterable[Any] = (),
) -> RatedResult | None:
    """The rated result of a finished deal from its events (``events``: the whole log, for
    seats open at the creation) and its payments, or None for a deal that was not rated, or that
    was abandoned (TB-2.7: nobody paid, nothing was decided)."""
    rated = getattr(created, "rated", None)
    if not rated or abandoned:
        return None
    players = rated_players(rated, events)
    if players is None:
        return None
    return RatedResult(game, "deal", created.deal_id, at, players, ranks_by_payments(payments))


class Ratings:
    """Every game's ratings after the results applied so far, and each player's history."""

    def __init__(self) -> None:
        self.games: dict[str, dict[str, PlayerRating]] = {}
        self.history: dict[str, dict[str, list[HistoryPoint]]] = {}
        self.last: tuple[str, str] | None = None  # the order key of the last result applied
        self.applied: set[str] = set()

    def apply(self, result: RatedResult) -> None:
        """One result, after every result before it in the order (the caller keeps the order)."""
        key = f"{result.kind}:{result.result_id}"
        if key in self.applied:
            return
        self.applied.add(key)
        table = self.games.setdefault(result.game, {})
        teams = []
        for name in result.players:
            held = table.get(name)
            if held is None:
                teams.append([_MODEL.rating()])
            else:
                teams.append([_MODEL.rating(mu=held.mu, sigma=held.sigma)])
        rated = _MODEL.rate(teams, ranks=[float(r) for r in result.ranks])
        history = self.history.setdefault(result.game, {})
        for name, team in zip(result.players, rated, strict=True):
            now = team[0]
            before = table.get(name)
            table[name] = PlayerRating(float(now.mu), float(now.sigma), (before.games if before else 0) + 1)
            point = HistoryPoint(result.kind, result.result_id, shown(now.mu, now.sigma), result.at)
            history.setdefault(name, []).append(point)
        self.last = order_key(result)

    def extend(self, results: Iterable[RatedResult]) -> bool:
        """Apply ``results`` (already in order) if they all follow the last one applied; False
        (nothing applied) when one would go before it: then only a fold from the start is right."""
        batch = sorted(results, key=order_key)
        if batch and self.last is not None and order_key(batch[0]) < self.last:
            return False
        for result in batch:
            self.apply(result)
        return True

    def table(self) -> dict[str, dict[str, dict[str, float | int]]]:
        """``{game: {name: {"mu", "sigma", "games"}}}``, what the rebuild prints."""
        return {
            game: {
                name: {"mu": r.mu, "sigma": r.sigma, "games": r.games} for name, r in sorted(players.items())
            }
            for game, players in sorted(self.games.items())
        }


def fold(results: Iterable[RatedResult]) -> Ratings:
    """The ratings after every result, applied in the order they were recorded."""
    ratings = Ratings()
    for result in sorted(results, key=order_key):
        ratings.apply(result)
    return ratings
