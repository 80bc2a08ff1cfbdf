"""TN-2.2: who sits where in each round, re-derivable by anyone from the log and the seeds.

Round 1: the active entrants shuffled by the round's mixed seed, tables filled in that order.
Later rounds: the active entrants in standings order (TN-3.3; duplicate: TN-3.4's order), tables
filled from the top; a table that would seat two players who already met takes the smallest swap
with the next table down that removes the repeat, where one exists: the swap that leaves the
fewest repeats at the table, then the fewest at the lower table, then between the players closest
in order; a table with several repeats takes such swaps while each leaves fewer. Each
table's seat order is then drawn from the round's seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from domain.tournament import seeds
from domain.tournament.events import TablePlan
from domain.tournament.scores import order_key, totals
from domain.tournament.state import HOUSE_TABLE, TournamentState

Met = set[tuple[str, str]]


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def met_pairs(state: TournamentState) -> Met:
    met: Met = set()
    for rnd in state.rounds.values():
        for table in rnd.tables.values():
            if table.table != HOUSE_TABLE:
                met.update(_pair(a, b) for a, b in combinations(table.players, 2))
    return met


def _count(table: Sequence[str], met: Met) -> int:
    return sum(1 for a, b in combinations(table, 2) if _pair(a, b) in met)


def swiss_tables(order: list[str], seats: int, met: Met) -> list[list[str]]:
    """Fill tables from the top of ``order``, then mend repeats by the smallest swap downwards."""
    tables = [list(order[i : i + seats]) for i in range(0, len(order), seats)]
    place = {p: i for i, p in enumerate(order)}
    for t in range(len(tables) - 1):
        upper, lower = tables[t], tables[t + 1]
        for _ in range(seats):  # each swap leaves fewer repeats at the upper table
            now = _count(upper, met)
            if not now:
                break
            best: tuple[tuple[int, int, int, int, int], int, int] | None = None
            for ia, a in enumerate(upper):
                for ib, b in enumerate(lower):
                    new_upper = upper[:ia] + [b] + upper[ia + 1 :]
                    left = _count(new_upper, met)
                    if left >= now:
                        continue
                    new_lower = lower[:ib] + [a] + lower[ib + 1 :]
                    key = (left, _count(new_lower, met), abs(place[a] - place[b]), -place[a], place[b])
                    if best is None or key < best[0]:
                        best = (key, ia, ib)
            if best is None:
                break
            _, ia, ib = best
            upper[ia], lower[ib] = lower[ib], upper[ia]
    return tables


def pair_round(state: TournamentState, round_no: int, round_seed: bytes) -> list[TablePlan]:
    """The tables of round ``round_no`` from the state before it was paired and its seed."""
    created = state.created
    assert created is not None
    mixed = seeds.mixed_seed(round_seed, state.field_hashes())
    active = state.active()
    if round_no == 1:
        order = seeds.shuffled(active, seeds.stream(mixed, "draw"))
        tables = [order[i : i + created.seats] for i in range(0, len(order), created.seats)]
    else:
        every = totals(state)
        order = sorted(active, key=lambda p: order_key(created.format, p, every[p]))
        tables = swiss_tables(order, created.seats, met_pairs(state))
    plans = [
        TablePlan(n, seeds.shuffled(table, seeds.stream(mixed, "seats", n)))
        for n, table in enumerate(tables, start=1)
    ]
    if created.format == "duplicate":
        plans.append(TablePlan(HOUSE_TABLE, house_players(created.seats)))
    return plans


def house_players(seats: int) -> list[str]:
    """TN-3.5: the duplicate house table, a strong bot in every seat."""
    return [f"house:strong#{i}" for i in range(1, seats + 1)]
