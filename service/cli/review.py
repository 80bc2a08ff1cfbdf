"""``dealstream review DEAL|FILE --seat N``: the review of one seat of a finished deal, in the
terminal (a progress bar, then a table of every decision), or as one JSON object with ``--json``.
The same chunks as the service's reviews, here in ``--jobs`` worker processes (1: in this one)."""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import msgspec

from domain.envelope import decode_record
from projections import review as rv
from service.app.analysis.reviews import CHUNK, _evaluate, build, decision_points
from service.app.bots.workers import die_with_parent
from service.app.games import kit_for_ruleset
from service.cli.words import count


def run(raws: list[bytes], seat: int, seed: int, jobs: int, show_progress: bool) -> rv.Review:
    from rich.progress import Progress

    if not raws or decode_record(raws[-1]).type != "SeedRevealed":
        raise SystemExit("review: the deal is not over (a seat's decisions are its secret until the end)")
    ruleset, deal_id, points, table_moves = decision_points(raws, seat)
    chunks = [msgspec.json.encode(points[i : i + CHUNK]) for i in range(0, len(points), CHUNK)]
    scores: list[Any] = []
    with Progress(disable=not show_progress) as progress:
        task = progress.add_task(f"seat {seat}: {len(points)} decisions", total=len(points))
        if jobs > 1:
            with ProcessPoolExecutor(jobs, initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
                for answer in pool.map(_evaluate, [ruleset] * len(chunks), chunks, [seed] * len(chunks)):
                    part = msgspec.json.decode(answer)
                    scores.extend(part)
                    progress.advance(task, len(part))
        else:
            for chunk in chunks:
                part = msgspec.json.decode(_evaluate(ruleset, chunk, seed))
                scores.extend(part)
                progress.advance(task, len(part))
    return build(ruleset, deal_id, seat, seed, points, [[tuple(x) for x in s] for s in scores], table_moves)


def describe(action: dict[str, Any], ruleset: str) -> str:
    """An option as a player reads it: ``Discard b3``, ``Chi s1 s2 s3 + s3 s3 b3``, ``Claim chow W2 W3``."""
    game_kit = kit_for_ruleset(ruleset)
    name, piece = game_kit.text.piece_name, game_kit.game.piece_field
    words = [action["type"]]
    for key, value in action.items():
        if key in ("type", "seat", "window"):
            continue
        if key == piece:
            words.append(name(value))
        elif key == "tiles":
            words.append(" ".join(name(t) for t in value))
        elif key == "groups":
            words.append(" + ".join(" ".join(g) for g in value))
        else:
            words.append(str(value))
    return " ".join(w for w in words if w)


def cmd_review(args: argparse.Namespace, load_raws: Any) -> int:
    from rich.console import Console
    from rich.table import Table

    raws, _head = load_raws(args)
    if not raws:
        print(f"no deal {args.deal!r}", file=sys.stderr)
        return 1
    console = Console(stderr=True)
    review = run(raws, args.seat, args.seed, args.jobs, show_progress=not args.json and console.is_terminal)
    if args.json:
        print(msgspec.json.encode(review).decode())
        return 0
    table = Table(
        title=f"deal {review.deal_id} ({review.ruleset}), seat {review.seat}: {review.unit} per option"
    )
    for column in ("version", "chose", "rank", "best", "lost", "verdict"):
        table.add_column(column, justify="right" if column in ("version", "rank", "lost") else "left")
    for d in review.decisions:
        table.add_row(
            str(d.version),
            describe(d.options[d.chosen].action, review.ruleset),
            f"{d.rank}/{d.choices or len(d.options)}",
            describe(d.options[d.best].action, review.ruleset) if d.best != d.chosen else "=",
            f"{d.loss:.2f}",
            d.verdict,
        )
    Console().print(table)
    s = review.summary
    print(
        f"{count(s.decisions, 'decision')}, {s.even} even (any play as good), "
        f"agreement {s.agreement:.0%} of the others, {s.unclear} unclear, "
        f"{count(s.inaccuracies, 'inaccuracy')}, {count(s.mistakes, 'mistake')}, "
        f"{s.total_loss:.2f} {review.unit} lost ({s.mean_loss:.2f} a decision); "
        f"inaccuracy above {review.inaccuracy_floor} {review.unit}, mistake above {review.mistake_floor}"
    )
    if review.table_moves:
        why = {"clock": "its time ran out (TB-2.5)", "away": "it was away (TB-2.6)"}
        moves = count(len(review.table_moves), "move")
        print(f"not counted: {moves} the table made for this seat's person:")
        for m in review.table_moves:
            print(f"  version {m.version}: {why[m.by]}")
    return 0
