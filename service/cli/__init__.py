"""``dealstream``: serve, simulate, arena, replay, audit, export, import, review, archive.

The console entry point is ``service.cli:main`` (``python -m service.cli`` runs it too). This
module holds the argument parser only; each command lives in the module of its kind: ``serve``,
``play`` (simulate, arena), ``logs`` (the commands on one deal's log; ``review`` draws its
progress and table) and ``archive``.
"""

from __future__ import annotations

import argparse
import os
import sys

import redis

from domain.game import GAMES
from service.cli import archive, botzone, env_config, logs, play, ratings, serve, tournament
from service.cli.play import play_one
from service.http.client_address import trusted_proxy

__all__ = ["main", "play_one"]

DESCRIPTION = "dealstream: serve, simulate, arena, replay, audit, export, import, review, archive."


def at_least_one(text: str) -> int:
    """A count (deals, walls, worker processes): a whole number from 1 on."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def port_number(text: str) -> int:
    """A TCP port, 0 to 65535 (0: the thing is off)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError("must be a port number from 0 to 65535")
    return n


def review_seed(text: str) -> int:
    """A review seed, as the API takes it: a whole number from 0 to 2**31."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= n <= 2**31:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to {2**31}")
    return n


def main(argv: list[str] | None = None) -> int:
    from service import __version__

    p = argparse.ArgumentParser(prog="dealstream", description=DESCRIPTION)
    p.add_argument("--version", action="version", version=f"dealstream {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True)

    def redis_opts(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--redis", help="Redis URL (default: DEALSTREAM_REDIS_URL, else embedded)")
        sp.add_argument("--data-dir", help="embedded Redis data directory (default ./dealstream-data)")
        sp.add_argument("--prefix", default="ds", help="key prefix (default ds)")

    def program_opts(sp: argparse.ArgumentParser) -> None:  # docs/bots.md
        sp.add_argument(
            "--bot-program", action="append", metavar="NAME=COMMAND",
            help="make bot:NAME a seat level played by COMMAND (our bot protocol; repeat for more)",
        )  # fmt: skip
        sp.add_argument(
            "--bot-program-protocol", action="append", metavar="NAME=PROTOCOL",
            help="the protocol program NAME speaks: dealstream (the default) or botzone",
        )  # fmt: skip
        sp.add_argument(
            "--bot-program-timeout", type=float, metavar="SECONDS",
            help="seconds a program may take for one decision (default 5)",
        )  # fmt: skip
        sp.add_argument(
            "--bot-program-memory", type=int, metavar="MIB",
            help="address space of a program (default 1024 MiB)",
        )  # fmt: skip

    def log_opts(sp: argparse.ArgumentParser) -> None:
        redis_opts(sp)
        sp.add_argument(
            "--archive", help="where finished deals that left Redis are found: postgresql://… or"
            " sqlite:///path (default: DEALSTREAM_ARCHIVE_URL, else archive.sqlite3 in the data directory)",
        )  # fmt: skip

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
        "--trusted-proxy", action="append", type=trusted_proxy, metavar="CIDR",
        help="a reverse proxy (address or network) whose X-Forwarded-For names the client the"
        " per-address limits count; repeat for more (default: none, the header is ignored)",
    )  # fmt: skip
    s.add_argument(
        "--redis-timeout", type=float, default=10.0,
        help="seconds a Redis call may take before the API answers 503 (at least 0.5)",
    )  # fmt: skip
    s.add_argument("--max-streams", type=int, default=10_000, help="live event streams this process serves")
    s.add_argument(
        "--bot-program-processes", type=int, default=32,
        help="bot program seats the live deals may have in all, on this store (and the program"
        " processes one service process runs at once)",
    )  # fmt: skip
    s.add_argument(
        "--bot-program-processes-per-address", type=int, default=8,
        help="bot program seats the live deals one address made may have",
    )  # fmt: skip
    s.add_argument(
        "--streams-per-address", type=int, default=100,
        help="spectator streams one address may hold in this process, and as many seats' own streams"
        " (a seat's stream is never refused for spectators' sake)",
    )  # fmt: skip
    s.add_argument(
        "--wait-replicas", type=int, default=None,
        help="replicas that confirm an append before it is acknowledged (default: 1 on a cluster, else 0)",
    )  # fmt: skip
    s.add_argument(
        "--bot-budget", type=float, default=1.0,
        help="seconds a searching bot may think before its seat plays the greedy move",
    )  # fmt: skip
    s.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        help="worker processes for searching bots (default: one fewer than the cores, at most 2)",
    )
    s.add_argument(
        "--review-nice", type=int, default=19, choices=range(0, 20), metavar="0-19",
        help="niceness of the review workers (default 19: every bot search goes first)",
    )  # fmt: skip
    s.add_argument(
        "--keepalive", type=float, default=15.0, help="seconds between keep-alive comments on streams"
    )
    s.add_argument(
        "--archive",
        help="archive of finished deals: postgresql://… or sqlite:///path (default: DEALSTREAM_ARCHIVE_URL,"
        " else archive.sqlite3 in the data directory)",
    )
    s.add_argument(
        "--archive-after",
        type=float,
        default=600.0,
        help="seconds after its end a deal moves from Redis to the archive (default 600)",
    )
    s.add_argument(
        "--no-archiver",
        action="store_true",
        help="read the archive but leave the archiving to another process or `dealstream archive`",
    )
    s.add_argument(
        "--metrics-port", type=port_number, default=None,
        help="serve GET /metrics on --metrics-host:PORT, 0: not at all (default: DEALSTREAM_METRICS_PORT,"
        " else 9464, skipped with a warning when taken)",
    )  # fmt: skip
    s.add_argument(
        "--metrics-host", default="127.0.0.1",
        help="the address /metrics listens on (default: DEALSTREAM_METRICS_HOST, else 127.0.0.1; 0.0.0.0"
        " lets a Prometheus in another container scrape it)",
    )  # fmt: skip
    s.add_argument(
        "--log-format", choices=("plain", "json"), default=None,
        help="plain text, or one JSON object a line (default: DEALSTREAM_LOG_FORMAT, else plain)",
    )  # fmt: skip
    s.add_argument(
        "--processes", type=at_least_one, default=None,
        help="service processes on the one port (SO_REUSEPORT), each with its own stream hub and fold"
        " cache; the embedded Redis is shared (default: the cores this process may use, within a"
        " container's CPU quota)",
    )  # fmt: skip
    redis_opts(s)
    program_opts(s)
    s.add_argument(
        "--print-config", nargs="?", const="text", choices=("text", "json"),
        help="print the effective settings (each from a flag, its DEALSTREAM_* variable or the default) "
        "and exit",
    )  # fmt: skip
    s.set_defaults(func=serve.cmd_serve, argv=list(sys.argv[1:] if argv is None else argv))  # for --processes
    # every serve flag also as DEALSTREAM_<FLAG>: install after the last flag is added
    serve_parser, serve_defaults = s, env_config.install(s)

    s = sub.add_parser("simulate", help="bots play deals in memory; prints a summary")
    s.add_argument("--game", required=True, choices=sorted(GAMES))
    s.add_argument("--deals", type=at_least_one, default=100)
    s.add_argument(
        "--bots", help="comma-separated bot level per seat, any level the game has (default all greedy)"
    )
    s.add_argument(
        "--seed", default="dealstream", help="tournament seed: deal i's wall depends on it and i only"
    )
    s.add_argument("--json", action="store_true")
    program_opts(s)
    s.set_defaults(func=play.cmd_simulate)

    s = sub.add_parser(
        "arena",
        help="duplicate match between bot levels (luck of the deal cancels)",
        description=play.ARENA_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("--game", required=True, choices=sorted(GAMES))
    s.add_argument(
        "--bots", required=True,
        help="comma-separated levels, each once, 2 up to the seat count; the last one fills the remaining "
        "seats (MCR strong,greedy = strong,greedy,greedy,greedy)",
    )  # fmt: skip
    s.add_argument("--walls", type=int, default=100, help="seeded decks, each played once per rotation")
    s.add_argument(
        "--jobs", type=at_least_one, default=1, help="worker processes (the report does not depend on it)"
    )
    s.add_argument("--seed", default="dealstream", help="arena seed: walls and bot seeds derive from it")
    s.add_argument("--json", action="store_true", help="print one JSON object (no progress bar)")
    program_opts(s)
    s.set_defaults(func=play.cmd_arena)

    for name, func, help_ in (
        ("audit", logs.cmd_audit, "audit a deal (id in Redis, or an exported .jsonl file)"),
        ("export", logs.cmd_export, "print a deal's stored log as JSON lines"),
        ("replay", logs.cmd_replay, "step through a deal in words, with the table (Enter: next, q: quit)"),
    ):
        s = sub.add_parser(name, help=help_)
        s.add_argument(
            "deal", nargs="?" if name == "export" else None, help="deal id or path to a .jsonl export"
        )
        log_opts(s)
        if name == "audit":
            s.add_argument("--json", action="store_true")
        if name == "export":  # docs/records.md (jsonl), docs/botzone.md (a Botzone match of an MCR deal)
            s.add_argument("--format", choices=("jsonl", "botzone"), default="jsonl")
            s.add_argument(
                "--public", action="store_true",
                help="the copy anyone may be given (as GET /deals/{id}/log shows someone without a seat): "
                "no token digest, no match place; the chain and the audit still hold",
            )  # fmt: skip
            s.add_argument(
                "--all", action="store_true",
                help="every deal of the store, Redis and archive (docs/runbook.md)",
            )  # fmt: skip
            s.add_argument(
                "--out", help="with --all: a directory (a .jsonl and a .meta.json per deal) or one file"
            )
        if name == "replay":
            s.add_argument("--perspective", default="all", help="a seat number, or all (after the end)")
            s.add_argument("--no-pause", action="store_true", help="print every step without waiting")
            s.add_argument("--json", action="store_true", help="each event as raw JSON (for scripts)")
        s.set_defaults(func=func)

    s = sub.add_parser("tournament", help="a tournament's record (TN-5): export it as one bundle")
    s.add_argument("action", choices=("export",))
    s.add_argument("tournament", help="tournament id")
    s.add_argument("--out", help="the bundle's file (default: standard output)")
    log_opts(s)
    s.set_defaults(func=tournament.cmd_tournament)

    s = sub.add_parser("review", help="review one seat's decisions of a finished deal (id or .jsonl file)")
    s.add_argument("deal", help="deal id or path to a .jsonl export")
    s.add_argument("--seat", type=int, required=True)
    s.add_argument("--seed", type=review_seed, default=0, help="review seed (the same seed, the same review)")
    s.add_argument("--jobs", type=at_least_one, default=1, help="worker processes")
    s.add_argument("--json", action="store_true", help="the review as one JSON object")
    log_opts(s)
    s.set_defaults(func=logs.cmd_review)

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
    s.add_argument("--jobs", type=at_least_one, default=4, help="deals archived at once (default 4)")
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
    s.set_defaults(func=archive.cmd_archive)

    s = sub.add_parser("ratings", help="the ratings, recomputed from the deal logs alone")
    s.add_argument("action", choices=("rebuild",), help="rebuild: every rating from the logs")
    s.add_argument(
        "--archive", help="postgresql://… or sqlite:///path (default: DEALSTREAM_ARCHIVE_URL, else the"
        " SQLite file archive.sqlite3 in the data directory)",
    )  # fmt: skip
    s.add_argument(
        "--json", action="store_true", help="{game: {name: {mu, sigma, games}}} as one JSON object"
    )
    s.add_argument(
        "--write", action="store_true",
        help="also make the service's index of rated results hold exactly the logs' results",
    )  # fmt: skip
    redis_opts(s)
    s.set_defaults(func=ratings.cmd_ratings)

    s = sub.add_parser("import", help="store an exported deal log (its hash chain must verify)")
    s.add_argument(
        "file", help="an exported .jsonl; with --all an export --all stream (- for stdin) or directory"
    )
    s.add_argument(
        "--all", action="store_true", help="every deal of an export --all, each audited before it is stored"
    )
    s.add_argument("--format", choices=("jsonl", "botzone"), default="jsonl",
                   help="jsonl: an exported log (docs/records.md); "
                   "botzone: a Botzone match (docs/botzone.md)")  # fmt: skip
    log_opts(s)
    s.set_defaults(func=logs.cmd_import)

    botzone.add_parser(sub)  # our MCR bots as Botzone programs (docs/botzone.md)

    args = p.parse_args(argv)
    if args.cmd == "serve":
        try:
            env_config.resolve(serve_parser, args, serve_defaults)
        except env_config.BadVariable as exc:
            print(f"dealstream serve: {exc}", file=sys.stderr)
            return 2
    if getattr(args, "redis_timeout", 10.0) < 0.5:
        p.error("--redis-timeout must be at least 0.5 seconds")
    if getattr(args, "max_streams", 1) < 1 or getattr(args, "keepalive", 1.0) <= 0:
        p.error("--max-streams and --keepalive must be positive")
    if getattr(args, "streams_per_address", 1) < 1:
        p.error("--streams-per-address must be positive")
    program_bounds = ("bot_program_processes", "bot_program_processes_per_address")
    if min(getattr(args, name, 1) for name in program_bounds) < 1:
        p.error("--bot-program-processes and --bot-program-processes-per-address must be positive")
    if getattr(args, "bot_program", None) or getattr(args, "bot_program_protocol", None):
        from service.app.bots import programs

        problem = programs.configure(
            args.bot_program, args.bot_program_protocol,
            decision_s=args.bot_program_timeout, memory_mib=args.bot_program_memory,
        )  # fmt: skip
        if problem is not None:
            print(f"dealstream {args.cmd}: {problem}", file=sys.stderr)
            return 2
    if getattr(args, "print_config", None):
        return env_config.print_config(serve_parser, args, as_json=args.print_config == "json")
    try:
        return args.func(args)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError) as exc:
        # a path the operator gave that is not there, or not what it should be
        what = exc.strerror.lower() if exc.strerror else type(exc).__name__
        print(f"dealstream {args.cmd}: {exc.filename}: {what}", file=sys.stderr)
        return 1
    except (redis.ConnectionError, redis.TimeoutError) as exc:
        where = getattr(args, "redis", None) or os.environ.get("DEALSTREAM_REDIS_URL") or "the embedded Redis"
        print(
            f"dealstream {args.cmd}: cannot reach Redis at {env_config.mask(where)} ({exc});"
            " start it, or give --redis (DEALSTREAM_REDIS_URL)",
            file=sys.stderr,
        )
        return 1
