"""``dealstream``: serve, simulate, replay, audit, export, import."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

import msgspec

from domain.envelope import decode_record
from domain.errors import RuleViolation
from domain.game import GAMES, DealCreated
from domain.selfplay import play_deal
from service.app.games import kit, kit_for_ruleset


# --- serve -------------------------------------------------------------------
def cmd_serve(args: argparse.Namespace) -> int:
    from aiohttp import web

    from service import bootstrap
    from service.store.connection import resolve_redis_url
    from service.store.embedded import DataDirInUse

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        url, embedded = resolve_redis_url(args.redis, args.data_dir, owner=True)
    except DataDirInUse as exc:
        print(f"dealstream: {exc}", file=sys.stderr)
        return 1
    settings = bootstrap.Settings(
        prefix=args.prefix,
        dev=args.dev,
        bot_delay=args.bot_delay,
        create_limit=args.create_limit,
        max_streams=args.max_streams,
        keepalive=args.keepalive,
        redis_timeout=args.redis_timeout,
        bot_budget=args.bot_budget,
        bot_workers=args.bot_workers,
        wait_replicas=args.wait_replicas,
    )
    try:
        where = f"embedded Redis at {url}" if embedded else url.split("@")[-1]
        print(f"dealstream on http://{args.host}:{args.port}/ (events in {where})", flush=True)
        web.run_app(
            bootstrap.serve(url, settings), host=args.host, port=args.port, print=None, access_log=None
        )
    finally:
        if embedded is not None:
            embedded.stop()
    return 0


# --- simulate ----------------------------------------------------------------
def play_one(game_name: str, levels: list[str], deal_seed: bytes, client_seed: str = "") -> tuple[Any, list]:
    """(final state, events) of one whole deal in memory: bots choose from their seat views only."""
    k = kit(game_name)
    base = int.from_bytes(deal_seed[:8], "big")
    bots = [k.make_bot(level, base + i) for i, level in enumerate(levels)]
    events, state = play_deal(
        k.game,
        k.projections.view_from_state,
        bots,
        deal_id=deal_seed.hex()[:16],
        seats=[f"bot:{lv}" for lv in levels],
        server_seed=deal_seed,
        client_seed=client_seed,
    )
    return state, events


def cmd_simulate(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from service.app.arena import wall_seed, walls_digest

    k = kit(args.game)
    levels = [b.strip() for b in args.bots.split(",")] if args.bots else ["greedy"] * k.game.seat_count
    if len(levels) != k.game.seat_count or any(lv not in k.bot_levels for lv in levels):
        print(f"--bots needs {k.game.seat_count} of {', '.join(k.bot_levels)}", file=sys.stderr)
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
            if summary["winner"] is None:
                draws += 1
            else:
                wins[summary["winner"]] += 1
                score_sum += summary["score"]
            for s, p in enumerate(summary["payments"]):
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


# --- arena -------------------------------------------------------------------
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

    from service.app.arena import check_lineup, run_arena

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


# --- logs from Redis or a file -------------------------------------------------
def _with_store(args: argparse.Namespace, work: Any) -> Any:
    from service.store.connection import connect, resolve_redis_url
    from service.store.event_store import EventStore

    url, embedded = resolve_redis_url(args.redis, args.data_dir)

    async def run() -> Any:
        client = connect(url)
        try:
            return await work(EventStore(client, args.prefix))
        finally:
            await client.aclose()

    try:
        return asyncio.run(run())
    finally:
        if embedded is not None:
            embedded.stop()


def _load_raws(args: argparse.Namespace) -> tuple[list[bytes], str | None]:
    path = Path(args.deal)
    if path.is_file():
        return [line for line in path.read_bytes().splitlines() if line.strip()], None

    async def read(store: Any) -> tuple[list[bytes], str | None]:
        return await store.read_raw(args.deal), await store.head_hash(args.deal)

    return _with_store(args, read)


def cmd_audit(args: argparse.Namespace) -> int:
    from service.app.audit import audit_log

    raws, head = _load_raws(args)
    report = audit_log(raws, head)
    if args.json:
        print(msgspec.json.encode(report).decode())
    else:
        mark = {True: "ok", False: "FAILED", None: "n/a"}
        print(f"deal {report.deal_id} ({report.game}), {report.versions} events, finished: {report.finished}")
        for name in ("chain_ok", "commitment_ok", "shuffle_ok", "redecided_ok", "claim_windows_ok"):
            print(f"  {name[:-3]:<14} {mark[getattr(report, name)]}")
        if report.fixed_deck:
            print("  note: this deal used a fixed deck (--dev); the shuffle was not random")
        for p in report.problems:
            print(f"  problem at version {p.version}: [{p.check}] {p.detail}")
        print("AUDIT OK" if report.ok else "AUDIT FAILED")
    return 0 if report.ok else 1


def cmd_export(args: argparse.Namespace) -> int:
    raws, _head = _load_raws(args)
    if not raws:
        print(f"no deal {args.deal!r}", file=sys.stderr)
        return 1
    sys.stdout.buffer.write(b"\n".join(raws) + b"\n")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from domain.envelope import verify_chain
    from service.store.event_store import now_ms

    raws = [line for line in Path(args.file).read_bytes().splitlines() if line.strip()]
    broken = verify_chain(raws)
    if not raws or broken is not None:
        print(
            f"refused: the file's hash chain breaks at version {broken.version if broken else 1}",
            file=sys.stderr,
        )
        return 1
    created = msgspec.json.decode(decode_record(raws[0]).data, type=DealCreated)
    try:
        game = kit_for_ruleset(created.ruleset).name  # a ruleset this build lacks is refused
    except RuleViolation as exc:
        print(f"refused: {exc.message}", file=sys.stderr)
        return 1

    async def work(store: Any) -> int:
        if await store.version(created.deal_id):
            print(f"deal {created.deal_id} exists already", file=sys.stderr)
            return 1
        finished = decode_record(raws[-1]).type == "SeedRevealed"
        await store.put_meta(created.deal_id, {"game": game, "seats": json.dumps(created.seats)})
        await store.append_records(created.deal_id, raws)
        # a finished log is public like any finished deal; an unfinished one stays unlisted
        status = {"status": "over" if finished else "imported", "imported": "1"}
        await store.put_meta(created.deal_id, status, created_ms=now_ms(), public=finished)
        print(created.deal_id)
        return 0

    return _with_store(args, work)


def cmd_replay(args: argparse.Namespace) -> int:
    """Step through a deal: in words with the table after each step (``service.replay_text``), or
    with ``--json`` each event as JSON (the form scripts read)."""
    raws, _head = _load_raws(args)
    if not raws:
        print(f"no deal {args.deal!r}", file=sys.stderr)
        return 1
    records = [decode_record(r) for r in raws]
    created = msgspec.json.decode(records[0].data, type=DealCreated)
    try:
        k = kit_for_ruleset(created.ruleset)  # the log's own rules
    except RuleViolation as exc:
        print(f"refused: {exc.message}", file=sys.stderr)
        return 1
    events = [k.decode_event(r.data) for r in records]
    over = type(events[-1]).__name__ == "SeedRevealed"
    seats = len(created.seats)
    if args.perspective != "all" and not (args.perspective.isdigit() and int(args.perspective) < seats):
        print(f"--perspective is all or a seat 0..{len(created.seats) - 1}", file=sys.stderr)
        return 2
    perspective = None if args.perspective == "all" else int(args.perspective)
    if perspective is None and not over:
        print("the 'all' perspective opens when the deal is over", file=sys.stderr)
        return 1
    interactive = sys.stdin.isatty() and not args.no_pause
    if not args.json:
        from service import replay_text

        try:
            print("\n".join(replay_text.header(k, events, perspective)))
            for _version, lines in replay_text.steps(k, events, perspective):
                print("\n".join(lines), flush=True)
                if interactive and input().strip().lower() == "q":
                    break
        except BrokenPipeError:  # piped into `head`: the reader has what it wanted
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    for record, event in zip(records, events, strict=True):
        shown = (
            msgspec.to_builtins(event)
            if perspective is None
            else k.projections.redact_event(event, perspective)
        )
        if shown is None:
            continue
        if perspective is None and isinstance(event, DealCreated):
            shown = {**shown, "server_seed": "(revealed at the end)"}
        print(f"{record.version:>4}  {json.dumps(shown, ensure_ascii=False)}")
        if interactive and input().strip().lower() == "q":
            break
    final = (
        k.projections.full_view(events)
        if perspective is None
        else k.projections.seat_view(events, perspective)
    )
    print(json.dumps(msgspec.to_builtins(final).get("result"), ensure_ascii=False, indent=1))
    return 0


# --- archive -----------------------------------------------------------------
def cmd_archive(args: argparse.Namespace) -> int:
    """Move deals finished more than --older-than seconds ago from Redis to the archive."""
    import os

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from service.app.archiver import Archiver
    from service.store.archive import open_archive
    from service.store.embedded import DEFAULT_DATA_DIR

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.older_than < 0 or args.interval <= 0 or args.lease <= 0 or args.jobs < 1:
        print("--older-than must be >= 0, --interval and --lease > 0, --jobs >= 1", file=sys.stderr)
        return 2
    data_dir = Path(args.data_dir or os.environ.get("DEALSTREAM_DATA_DIR", DEFAULT_DATA_DIR))
    console = Console(stderr=True)

    async def work(store: Any) -> int:
        archive = open_archive(args.archive, data_dir)
        archiver = Archiver(
            store, archive, older_than=args.older_than, lease_ms=int(args.lease * 1000), concurrency=args.jobs
        )
        failed = 0
        try:
            if args.backfill:
                added = await archiver.backfill()
                if not args.json:
                    console.print(f"backfill: {added} finished deals added to the finished index")
            while True:
                columns = (
                    TextColumn("archiving"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                )  # fmt: skip
                show = not args.json and console.is_terminal
                with Progress(*columns, console=console, disable=not show, transient=not args.once) as bar:
                    task = bar.add_task("archive", total=None)
                    counts = await archiver.archive_once(
                        lambda done, total, bar=bar, task=task: bar.update(task, completed=done, total=total)
                    )
                failed += counts.failed
                report = {**msgspec.to_builtins(counts), "deals_per_s": counts.deals_per_s}
                report["archive_count"] = await archive.count()
                report["redis_finished"] = await store.finished_count()
                if args.json:
                    print(json.dumps(report), flush=True)
                else:
                    print(
                        f"{counts.archived} archived ({counts.already} were already), {counts.leased} leased"
                        f" elsewhere, {counts.changed} changed, {counts.dangling} dangling, {counts.failed}"
                        f" failed in {counts.seconds} s ({counts.deals_per_s} deals/s);"
                        f" {report['archive_count']} in the archive,"
                        f" {report['redis_finished']} finished in Redis",
                        flush=True,
                    )
                if args.once:
                    return 1 if failed else 0
                await asyncio.sleep(args.interval)
        finally:
            await archive.close()

    try:
        return _with_store(args, work)
    except KeyboardInterrupt:
        return 0  # Ctrl-C ends the loop; every finished round stands


def _review(args: argparse.Namespace) -> int:
    from service.review_cli import cmd_review

    return cmd_review(args, _load_raws)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="dealstream", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)

    def redis_opts(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--redis", help="Redis URL (default: DEALSTREAM_REDIS_URL, else embedded)")
        sp.add_argument("--data-dir", help="embedded Redis data directory (default ./dealstream-data)")
        sp.add_argument("--prefix", default="ds", help="key prefix (default ds)")

    s = sub.add_parser("serve", help="run the HTTP API and web client")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8080)
    s.add_argument("--dev", action="store_true", help="allow fixed decks and dealers (tests, tutorials)")
    s.add_argument(
        "--bot-delay", type=float, default=1.0,
        help="seconds a bot thinks at a deal's normal pace (slow: 2x, fast: 0.3x; 0 in tests)",
    )  # fmt: skip
    s.add_argument("--create-limit", type=int, default=120, help="deals one address may create per minute")
    s.add_argument(
        "--redis-timeout", type=float, default=10.0,
        help="seconds a Redis call may take before the API answers 503 (at least 0.5)",
    )  # fmt: skip
    s.add_argument("--max-streams", type=int, default=10_000, help="live event streams this process serves")
    s.add_argument(
        "--wait-replicas", type=int, default=None,
        help="replicas that confirm an append before it is acknowledged (default: 1 on a cluster, else 0)",
    )  # fmt: skip
    s.add_argument(
        "--bot-budget", type=float, default=1.0,
        help="seconds a searching bot may think before its seat plays the greedy move",
    )  # fmt: skip
    s.add_argument(
        "--bot-workers", type=int, default=None, help="worker processes for searching bots (default 2)"
    )
    s.add_argument(
        "--keepalive", type=float, default=15.0, help="seconds between keep-alive comments on streams"
    )
    redis_opts(s)
    s.set_defaults(func=cmd_serve)

    s = sub.add_parser("simulate", help="bots play deals in memory; prints a summary")
    s.add_argument("--game", required=True, choices=sorted(GAMES))
    s.add_argument("--deals", type=int, default=100)
    s.add_argument(
        "--bots", help="comma-separated bot level per seat, any level the game has (default all greedy)"
    )
    s.add_argument(
        "--seed", default="dealstream", help="tournament seed: deal i's wall depends on it and i only"
    )
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_simulate)

    s = sub.add_parser(
        "arena",
        help="duplicate match between bot levels (luck of the deal cancels)",
        description=ARENA_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("--game", required=True, choices=sorted(GAMES))
    s.add_argument(
        "--bots", required=True,
        help="comma-separated levels, each once, 2 up to the seat count; the last one fills the remaining "
        "seats (MCR strong,greedy = strong,greedy,greedy,greedy)",
    )  # fmt: skip
    s.add_argument("--walls", type=int, default=100, help="seeded decks, each played once per rotation")
    s.add_argument("--jobs", type=int, default=1, help="worker processes (the report does not depend on it)")
    s.add_argument("--seed", default="dealstream", help="arena seed: walls and bot seeds derive from it")
    s.add_argument("--json", action="store_true", help="print one JSON object (no progress bar)")
    s.set_defaults(func=cmd_arena)

    for name, func, help_ in (
        ("audit", cmd_audit, "audit a deal (id in Redis, or an exported .jsonl file)"),
        ("export", cmd_export, "print a deal's stored log as JSON lines"),
        ("replay", cmd_replay, "step through a deal in words, with the table (Enter: next, q: quit)"),
    ):
        s = sub.add_parser(name, help=help_)
        s.add_argument("deal", help="deal id or path to a .jsonl export")
        redis_opts(s)
        if name == "audit":
            s.add_argument("--json", action="store_true")
        if name == "replay":
            s.add_argument("--perspective", default="all", help="a seat number, or all (after the end)")
            s.add_argument("--no-pause", action="store_true", help="print every step without waiting")
            s.add_argument("--json", action="store_true", help="each event as raw JSON (for scripts)")
        s.set_defaults(func=func)

    s = sub.add_parser("review", help="review one seat's decisions of a finished deal (id or .jsonl file)")
    s.add_argument("deal", help="deal id or path to a .jsonl export")
    s.add_argument("--seat", type=int, required=True)
    s.add_argument("--seed", type=int, default=0, help="review seed (the same seed, the same review)")
    s.add_argument("--jobs", type=int, default=1, help="worker processes")
    s.add_argument("--json", action="store_true", help="the review as one JSON object")
    redis_opts(s)
    s.set_defaults(func=lambda a: _review(a))

    s = sub.add_parser("archive", help="move deals finished a while ago from Redis to the archive")
    s.add_argument(
        "--older-than", type=float, default=600.0, help="seconds since a deal finished (default 600)"
    )
    s.add_argument(
        "--archive", help="postgresql://… or sqlite:///path (default: DEALSTREAM_ARCHIVE_URL, else the"
        " SQLite file archive.sqlite3 in the data directory)",
    )  # fmt: skip
    s.add_argument("--once", action="store_true", help="one round, then exit (else a round every --interval)")
    s.add_argument("--interval", type=float, default=30.0, help="seconds between rounds (default 30)")
    s.add_argument("--jobs", type=int, default=4, help="deals archived at once (default 4)")
    s.add_argument(
        "--lease", type=float, default=60.0,
        help="seconds a deal stays reserved for this archiver (another takes it over after a crash)",
    )  # fmt: skip
    s.add_argument(
        "--backfill", action="store_true",
        help="first list deals that finished before the finished index existed (walks every deal)",
    )  # fmt: skip
    s.add_argument("--json", action="store_true", help="one JSON object per round (no progress bar)")
    redis_opts(s)
    s.set_defaults(func=cmd_archive)

    s = sub.add_parser("import", help="store an exported deal log (its hash chain must verify)")
    s.add_argument("file")
    redis_opts(s)
    s.set_defaults(func=cmd_import)

    args = p.parse_args(argv)
    if getattr(args, "redis_timeout", 10.0) < 0.5:
        p.error("--redis-timeout must be at least 0.5 seconds")
    if getattr(args, "max_streams", 1) < 1 or getattr(args, "keepalive", 1.0) <= 0:
        p.error("--max-streams and --keepalive must be positive")
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
