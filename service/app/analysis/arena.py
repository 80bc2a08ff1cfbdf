"""The duplicate arena: how much better one bot level plays than another, with the luck taken out.

Each wall (a seeded deck) is played once for every rotation of the line-up over the seats, so
every bot meets the same tiles or cards from every seat and the luck of the deal cancels in its
average. A line-up shorter than the seat count is padded with its last bot (MCR
``strong,greedy`` plays strong,greedy,greedy,greedy), so a rotation count equals the seat count.

The walls are independent, so they are split into chunks over worker processes and merged back
in wall order: the report (everything outside its ``timing`` sub-object) depends only on the game,
the line-up, the number of walls and the seed, never on ``--jobs`` or the machine. Wall w's
server seed is ``sha256("{seed}:{w}")`` (the deck of ``dealstream simulate``'s deal w with the
same seed); bot seeds come from (seed, wall, rotation, seat).

Intervals are 95 % Student t intervals over the per-wall values (df = walls - 1): a wall's value
for a bot is its mean net payment over every seat it held on that wall, which pairs the bots on
the same tiles. Decision times are measured here, by wrapping each bot's ``choose`` in a timer;
the self-play loop in ``domain`` stays pure.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from domain.game import SeedRevealed
from domain.selfplay import play_deal
from service.app.analysis.intervals import CONFIDENCE as CONFIDENCE  # the arena's names, kept for its callers
from service.app.analysis.intervals import mean_interval, percentile
from service.app.analysis.intervals import t_quantile as t_quantile
from service.app.bots import program_host
from service.app.bots.workers import die_with_parent
from service.app.games import kit

INTERVAL_METHOD = "95 % Student t over the per-wall values (df = walls - 1)"


# --- seeds and seatings --------------------------------------------------------
def wall_seed(seed: str, wall: int) -> bytes:
    """Server seed of wall ``wall``: only the run's seed and the index, never the line-up."""
    return hashlib.sha256(f"{seed}:{wall}".encode()).digest()


def bot_seed(seed: str, wall: int, rotation: int, seat: int) -> int:
    digest = hashlib.sha256(f"{seed}:bot:{wall}:{rotation}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def lineup(bots: Sequence[str], seat_count: int) -> list[int]:
    """Bot index per seat before any rotation: the line-up, its last bot repeated to fill."""
    if not 1 <= len(bots) <= seat_count:
        raise ValueError(f"a line-up has 1 to {seat_count} bots, got {len(bots)}")
    return [min(i, len(bots) - 1) for i in range(seat_count)]


def seatings(bots: Sequence[str], seat_count: int) -> list[list[int]]:
    """Bot index per seat for every rotation: in rotation r, the bot of seat 0 sits at seat r."""
    base = lineup(bots, seat_count)
    return [[base[(seat - r) % seat_count] for seat in range(seat_count)] for r in range(seat_count)]


# --- playing walls (in worker processes) ------------------------------------------
class TimedBot:
    """A bot whose every ``choose`` adds its duration in seconds to ``sink``: the CPU time of
    this thread (one core), so a machine busy with other work does not inflate it."""

    __slots__ = ("bot", "sink")

    def __init__(self, bot: Any, sink: list[float]) -> None:
        self.bot = bot
        self.sink = sink

    def choose(self, view: Any) -> Any:
        started = time.thread_time()
        command = self.bot.choose(view)
        self.sink.append(time.thread_time() - started)
        return command


@dataclass
class Tally:
    """One bot's counts over some deals (a deal counts once per seat the bot held in it)."""

    deals: int = 0
    net: int = 0
    wins: int = 0
    score: int = 0
    fed: int = 0
    taken: int = 0
    draws: int = 0
    decisions: int = 0

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Wall:
    index: int
    deck_seed: str  # the revealed seed: the same for every rotation, by construction
    tallies: list[Tally]


@dataclass
class Chunk:
    walls: list[Wall]
    times: list[list[float]] = field(default_factory=list)  # per bot, seconds per decision


def play_walls(game_name: str, bots: tuple[str, ...], seed: str, first: int, stop: int) -> Chunk:
    """Walls ``first`` .. ``stop - 1``, each in every rotation of the line-up."""
    k = kit(game_name)
    game = k.game
    facts = kit(game_name).summary
    rotations = seatings(bots, game.seat_count)
    times: list[list[float]] = [[] for _ in bots]
    walls = []
    for w in range(first, stop):
        server_seed = wall_seed(seed, w)
        tallies = [Tally() for _ in bots]
        deck_seeds = set()
        for r, owners in enumerate(rotations):
            players = [
                TimedBot(k.make_bot(bots[b], bot_seed(seed, w, r, s)), times[b]) for s, b in enumerate(owners)
            ]
            before = [len(t) for t in times]
            events, state = play_deal(
                game,
                program_host.view_fn(k, players),  # a bot program's seat learns its default move (TB-2.5)
                players,
                deal_id=f"arena-{w}-{r}",
                seats=[f"bot:{bots[b]}" for b in owners],
                server_seed=server_seed,
                on_step=program_host.step_fn(players),
            )
            revealed = events[-1]
            assert isinstance(revealed, SeedRevealed)
            deck_seeds.add(revealed.seed)
            summary = k.deal_summary(state)
            fed, taken = facts.seat_faults(events, game.seat_count)
            for s, b in enumerate(owners):
                t = tallies[b]
                t.deals += 1
                t.net += summary.payments[s]
                t.fed += fed[s]
                t.taken += taken[s]
                if summary.winner is None:
                    t.draws += 1
                elif summary.winner == s:
                    t.wins += 1
                    t.score += summary.score
            for b, n in enumerate(before):
                tallies[b].decisions += len(times[b]) - n
        if len(deck_seeds) != 1:  # pragma: no cover - the deck depends on the seeds only
            raise RuntimeError(f"wall {w} dealt different decks in different rotations")
        walls.append(Wall(w, deck_seeds.pop(), tallies))
    return Chunk(walls, times)


# --- the run and its report ------------------------------------------------------
def check_lineup(game_name: str, bots: Sequence[str]) -> str | None:
    """Why ``bots`` cannot play an arena of ``game_name`` (None: they can)."""
    k = kit(game_name)
    seats = k.game.seat_count
    unknown = [b for b in bots if not k.has_level(b)]
    if unknown:
        return f"unknown bot level(s) {', '.join(unknown)}; {game_name} has {', '.join(k.bot_levels)}"
    if not 2 <= len(bots) <= seats:
        return f"--bots lists 2 to {seats} levels for {game_name} (the last one fills the other seats)"
    if len(set(bots)) != len(bots):
        return "--bots lists each level once (the last one fills the other seats)"
    return None


def chunks(walls: int, jobs: int) -> list[tuple[int, int]]:
    """Wall ranges small enough to keep every worker busy and the progress bar moving."""
    size = max(1, min(10, math.ceil(walls / (max(1, jobs) * 4))))
    return [(a, min(walls, a + size)) for a in range(0, walls, size)]


def run_arena(
    game_name: str,
    bots: Sequence[str],
    walls: int,
    seed: str = "dealstream",
    jobs: int = 1,
    on_walls: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play the duplicate match and return its report; ``on_walls(n)`` after each n walls done."""
    problem = check_lineup(game_name, bots)
    if problem is not None:
        raise ValueError(problem)
    if walls < 1:
        raise ValueError("--walls must be at least 1")
    bots = tuple(bots)
    started = time.perf_counter()
    ranges = chunks(walls, jobs)
    done: dict[int, Chunk] = {}
    if jobs <= 1:
        for i, (a, b) in enumerate(ranges):
            done[i] = play_walls(game_name, bots, seed, a, b)
            if on_walls is not None:
                on_walls(b - a)
    else:
        # spawn, not fork: the caller may run threads (a progress bar) that a fork would copy mid-step
        # each worker dies with the arena, however the arena dies (PR_SET_PDEATHSIG)
        spawn = get_context("spawn")
        with ProcessPoolExecutor(
            jobs, mp_context=spawn, initializer=die_with_parent, initargs=(os.getpid(),)
        ) as pool:
            futures = {
                pool.submit(play_walls, game_name, bots, seed, a, b): i for i, (a, b) in enumerate(ranges)
            }
            for future in as_completed(futures):
                i = futures[future]
                done[i] = future.result()
                if on_walls is not None:
                    a, b = ranges[i]
                    on_walls(b - a)
    merged = [done[i] for i in range(len(ranges))]  # wall order, whatever finished first
    return report(game_name, bots, seed, merged, jobs, time.perf_counter() - started)


def _r(x: float) -> float:
    return round(x, 4)


def _interval(values: Sequence[float]) -> tuple[float, list[float] | None]:
    mean, ci = mean_interval(values)
    return _r(mean), None if ci is None else [_r(ci[0]), _r(ci[1])]


def report(
    game_name: str, bots: Sequence[str], seed: str, parts: list[Chunk], jobs: int, seconds: float
) -> dict[str, Any]:
    """The arena's one JSON object; only ``timing`` depends on the machine and ``--jobs``."""
    k = kit(game_name)
    seats = k.game.seat_count
    facts = kit(game_name).summary
    walls = [w for part in parts for w in part.walls]
    owners = lineup(bots, seats)
    per_wall = [[w.tallies[b].net / w.tallies[b].deals for w in walls] for b in range(len(bots))]
    per_bot: dict[str, Any] = {}
    times: dict[str, Any] = {}
    for b, name in enumerate(bots):
        total = Tally()
        for w in walls:
            total.add(w.tallies[b])
        mean, ci = _interval(per_wall[b])
        figures: dict[str, Any] = {
            "seats": owners.count(b),
            "deals": total.deals,
            "mean_net_per_deal": mean,
            "ci95": ci,
            "win_rate": _r(total.wins / total.deals),
            facts.FED_NAME: _r(total.fed / total.deals),
        }
        if facts.TAKEN_NAME is not None:
            figures[facts.TAKEN_NAME] = _r(total.taken / total.deals)
        figures["mean_score_of_wins"] = _r(total.score / total.wins) if total.wins else None
        figures["draw_share"] = _r(total.draws / total.deals)
        figures["decisions"] = total.decisions
        per_bot[name] = figures
        spent = sorted(t for part in parts for t in part.times[b])
        times[name] = {
            "p50": _r(percentile(spent, 0.50) * 1e3),
            "p95": _r(percentile(spent, 0.95) * 1e3),
            "max": _r(spent[-1] * 1e3) if spent else 0.0,
        }
    edge_mean, edge_ci = _interval([x - y for x, y in zip(per_wall[0], per_wall[1], strict=True)])
    deals = len(walls) * seats
    return {
        "game": game_name,
        "bots": list(bots),
        "lineup": [bots[b] for b in owners],
        "seed": seed,
        "walls": len(walls),
        "rotations": seats,
        "deals": deals,
        "score_unit": k.summary.SCORE_UNIT,
        "interval": INTERVAL_METHOD,
        "walls_digest": walls_digest(w.deck_seed for w in walls),
        "per_bot": per_bot,
        "edge": {"of": bots[0], "over": bots[1], "mean_net_per_deal": edge_mean, "ci95": edge_ci},
        "timing": {
            "seconds": round(seconds, 2),
            "jobs": jobs,
            "deals_per_s": round(deals / seconds, 2) if seconds > 0 else None,
            "decision_ms": times,
        },
    }


def walls_digest(deck_seeds: Any) -> str:
    """One hash of the revealed seeds, wall after wall: equal digests mean the same walls."""
    h = hashlib.sha256()
    for s in deck_seeds:
        h.update(s.encode() + b"\n")
    return h.hexdigest()[:16]
