"""TN-3: table points, scores, duplicate scores, ``vs_house`` and the standings.

Table points by seat count (the registry's seats per table): four seats 4/2/1/0 (MCR), three
3/1/0 (Paohuzi). Tied places share the points of the places they span, so points are exact
fractions here and numbers with at most three decimals in a view.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import msgspec

from domain.tournament.state import HOUSE_TABLE, TournamentState

TABLE_POINTS: dict[int, tuple[int, ...]] = {4: (4, 2, 1, 0), 3: (3, 1, 0)}


def table_points(scores: list[int]) -> list[Fraction]:
    """TN-3.1: each seat's table points for its match score; ties share the places they span."""
    places = TABLE_POINTS.get(len(scores)) or tuple(range(len(scores) - 1, -1, -1))
    out: list[Fraction] = []
    for score in scores:
        above = sum(1 for s in scores if s > score)
        tied = sum(1 for s in scores if s == score)
        out.append(Fraction(sum(places[above : above + tied]), tied))
    return out


class Standing(msgspec.Struct, frozen=True):
    player: str
    rank: int
    table_points: float
    score: int
    duplicate_score: float | None
    vs_house: float | None
    rulings: int = 0  # the sum of the rulings' points, already in ``score`` (TN-4.2)
    withdrawn: bool = False


class Totals(msgspec.Struct):
    table_points: Fraction = Fraction(0)
    score: int = 0
    rulings: int = 0
    duplicate: Fraction = Fraction(0)
    vs_house: Fraction = Fraction(0)


def totals(state: TournamentState) -> dict[str, Totals]:
    """Every entrant's totals (fillers too: the Swiss pairing reads them) from the results in."""
    out: dict[str, Totals] = {p: Totals() for p in state.entrants}
    duplicate = state.created is not None and state.created.format == "duplicate"
    for rnd in state.rounds.values():
        if duplicate and rnd.seed is None:
            continue  # TN-3.6: a board's results wait until the round is over at every table
        # board (deal index) -> seat -> [payments of every players' table]
        seat_scores: dict[tuple[int, int], list[int]] = defaultdict(list)
        house = rnd.tables.get(HOUSE_TABLE)
        for table in rnd.tables.values():
            if table.table == HOUSE_TABLE or table.result is None:
                continue
            points = table_points(table.result.scores)
            for seat, player in enumerate(table.players):
                t = out[player]
                t.table_points += points[seat]
                t.score += table.result.scores[seat]
            for j, deal in enumerate(table.result.deals):
                for seat, pay in enumerate(deal.payments):
                    seat_scores[(j, seat)].append(pay)
        if not seat_scores:
            continue
        for table in rnd.tables.values():
            if table.table == HOUSE_TABLE or table.result is None:
                continue
            for j, deal in enumerate(table.result.deals):
                for seat, pay in enumerate(deal.payments):
                    t = out[table.players[seat]]
                    same = seat_scores[(j, seat)]
                    t.duplicate += pay - Fraction(sum(same), len(same))
                    if house is not None and house.result is not None and j < len(house.result.deals):
                        t.vs_house += pay - house.result.deals[j].payments[seat]
    for ruling in state.rulings:
        if ruling.player in out:
            out[ruling.player].score += ruling.points
            out[ruling.player].rulings += ruling.points
    return out


def order_key(fmt: str, player: str, t: Totals) -> tuple:
    """TN-3.3 / TN-3.4: the order of the standings (and of a Swiss round's pairing)."""
    if fmt == "duplicate":
        return (-t.duplicate, -t.table_points, player)
    return (-t.table_points, -t.score, player)


def _number(x: Fraction) -> float:
    return round(float(x), 3)


def standings(state: TournamentState) -> list[Standing]:
    """The ranked entrants (fillers never rank, TN-1.2); equal keys but names share no rank."""
    assert state.created is not None
    fmt = state.created.format
    every = totals(state)
    ranked = sorted(
        (p for p, e in state.entrants.items() if not e.filler), key=lambda p: order_key(fmt, p, every[p])
    )
    duplicate = fmt == "duplicate"
    return [
        Standing(
            player,
            rank,
            _number(every[player].table_points),
            every[player].score,
            _number(every[player].duplicate) if duplicate else None,
            _number(every[player].vs_house) if duplicate else None,
            every[player].rulings,
            state.entrants[player].withdrawn,
        )
        for rank, player in enumerate(ranked, start=1)
    ]
