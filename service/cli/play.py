"""``dealstream simulate`` and ``dealstream arena``: bots play whole deals in memory."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from domain.selfplay import play_deal
from service.app.bots import program_host
from service.app.games import kit
from service.cli.words import count


def play_one(game_name: str, levels: list[str], deal_seed: bytes, client_seed: str = "") -> tuple[Any, list]:
    """(final state, events) of one whole deal in memory: bots choose from their seat views only."""
    k = kit(game_name)
    base = int.from_bytes(deal_seed[:8], "big")
    bots = [k.make_bot(level, base + i) for i, level in enumerate(levels)]
    events, state = play_deal(
        k.game,
        program_host.view_fn(k, bots),  # a bot program's seat learns its default move (TB-2.5)
        bots,
        deal_id=deal_seed.hex()[:16],
        seats=[f"bot:{lv}" for lv in levels],
        server_seed=deal_seed,
        client_seed=client_seed,
        on_step=program_host.step_fn(bots),
    )
    return state, events


def cmd_simulate(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from service.app.analysis.arena import wall_seed, walls_digest

    k = kit(args.game)
    levels = [b.strip() for b in args.bots.split(",")] if args.bots else ["greedy"] * k.game.seat_count
    unknown = [lv for lv in levels if not k.has_level(lv)]
    if unknown:
        print(
            f"dealstream simulate: --bots names no bot level {unknown[0]!r} in {args.game}; its levels:"
            f" {', '.join(k.bot_levels)}",
            file=sys.stderr,
        )
        return 2
    if len(levels) != k.game.seat_count:
        print(
            f"dealstream simulate: --bots names {count(len(levels), 'level')}; {args.game} has"
            f" {count(k.game.seat_count, 'seat')}, one level each",
            file=sys.stderr,
        )
        return 2
    seats = k.game.seat_count
    wins = [0] * seats
    totals = [0] * seats
    draws = 0
    score_sum = 0
    deck_seeds = []
    started = time.perf_counter()
    console = Console(stderr=True)
    with Progress(console=console, disable=args.json or not console.is_terminal) as progress:
        task = progress.add_task(f"{args.game} deals", total=args.deals)
        for i in range(args.deals):
            # the wall depends on --seed and i only, so two line-ups play the same walls
            state, events = play_one(args.game, levels, wall_seed(args.seed, i))
            deck_seeds.append(events[-1].seed)
            summary = k.deal_summary(state)
            if summary.winner is None:
                draws += 1
            else:
                wins[summary.winner] += 1
                score_sum += summary.score
            for s, p in enumerate(summary.payments):
                totals[s] += p
            progress.advance(task)
    elapsed = time.perf_counter() - started
    decided = args.deals - draws
    result = {
        "game": args.game,
        "deals": args.deals,
        "bots": levels,
        "wins_per_seat": wins,
        "draws": draws,
        "mean_score_of_wins": round(score_sum / decided, 3) if decided else 0.0,
        "score_unit": k.summary.SCORE_UNIT,
        "net_payments_per_seat": totals,
        "walls_digest": walls_digest(deck_seeds),
        "deals_per_s": round(args.deals / elapsed, 2),
    }
    if args.json:
        print(json.dumps(result))
        return 0
    table = Table(title=f"{args.deals} {args.game} deals, seed {args.seed!r}")
    table.add_column("seat")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("net payments", justify="right")
    for s in range(seats):
        table.add_row(str(s), levels[s], str(wins[s]), str(totals[s]))
    Console().print(table)
    print(
        f"draws {draws}   mean {result['score_unit']} per win {result['mean_score_of_wins']}"
        f"   walls {result['walls_digest']}   {result['deals_per_s']} deals/s"
    )
    return 0


ARENA_HELP = """Duplicate match between bot levels. Each wall (a seeded deck: wall w depends only on
--seed and w, and is the deck of `simulate`'s deal w with the same seed) is played once for every
rotation of the line-up over the seats, so the luck of the deal cancels. A line-up shorter than
the seat count is padded by repeating its last bot: MCR `strong,greedy` plays
strong,greedy,greedy,greedy (4 rotations), Paohuzi `strong,greedy` plays strong,greedy,greedy.
Per bot: mean net payment per deal with a 95 % Student t interval over the per-wall means (a
wall's value for a bot averages its payments over every seat it held on that wall), win rate,
deal-in rate (MCR) or feeding rate and discards taken by the next seat (Paohuzi), mean score of
its wins, draw share, decision time p50/p95/max; and the edge of the first bot over the second
(per wall, first minus second) with its interval. The same seed gives the same report, whatever
--jobs is, apart from the `timing` object."""


def cmd_arena(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    from service.app.analysis.arena import check_lineup, run_arena

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    problem = check_lineup(args.game, bots)
    if problem is None and args.walls < 1:
        problem = "--walls must be at least 1"
    if problem is None and args.jobs < 1:
        problem = "--jobs must be at least 1"
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    console = Console(stderr=True)
    columns = (
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
    )  # fmt: skip
    with Progress(*columns, console=console, disable=args.json or not console.is_terminal) as progress:
        task = progress.add_task(f"{args.game} walls", total=args.walls)
        result = run_arena(
            args.game, bots, args.walls, args.seed, args.jobs, lambda n: progress.advance(task, n)
        )
    if args.json:
        print(json.dumps(result))
        return 0
    fed_name = "deal_in_rate" if "deal_in_rate" in result["per_bot"][bots[0]] else "feeding_rate"
    unit = result["score_unit"]
    table = Table(
        title=f"{args.game} duplicate arena: {result['walls']} walls x {result['rotations']} rotations, "
        f"seed {args.seed!r}"
    )
    fed_header = fed_name.removesuffix("_rate").replace("_", "-")
    headers = (
        "bot",
        "seats",
        f"{unit}/deal",
        "95 % interval",
        "wins",
        fed_header,
        f"{unit}/win",
        "draws",
        "ms p50/p95/max",
    )
    for i, name in enumerate(headers):
        table.add_column(name, justify="left" if i == 0 else "right", no_wrap=True)
    for name, f in result["per_bot"].items():
        ms = result["timing"]["decision_ms"][name]
        ci = f["ci95"]
        table.add_row(
            name,
            str(f["seats"]),
            f"{f['mean_net_per_deal']:+.3f}",
            f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "-",
            f"{f['win_rate']:.3f}",
            f"{f[fed_name]:.3f}",
            "-" if f["mean_score_of_wins"] is None else f"{f['mean_score_of_wins']:.2f}",
            f"{f['draw_share']:.3f}",
            f"{ms['p50']:.2f}/{ms['p95']:.2f}/{ms['max']:.1f}",
        )
    out = Console()
    if not out.is_terminal:  # a pipe gets 80 columns by default, too few for the table
        out = Console(width=120)
    out.print(table)
    edge = result["edge"]
    ci = edge["ci95"]
    shown = f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "(one wall: no interval)"
    print(
        f"edge of {edge['of']} over {edge['over']}: {edge['mean_net_per_deal']:+.3f} {unit} per deal {shown}"
        f"   {result['deals']} deals in {result['timing']['seconds']} s (--jobs {args.jobs})"
    )
    return 0
