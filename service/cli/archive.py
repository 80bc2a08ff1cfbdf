"""``dealstream archive``: move deals (and match logs) finished a while ago from Redis to the
archive, in rounds."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Any

import msgspec

from service.cli.stores import with_store


def cmd_archive(args: argparse.Namespace) -> int:
    """Move deals finished more than --older-than seconds ago from Redis to the archive."""
    import os

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from service.app.archive.archiver import Archiver
    from service.store.archive import open_archive
    from service.store.embedded import DEFAULT_DATA_DIR

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.older_than < 0 or args.interval <= 0 or args.lease <= 0 or args.jobs < 1:
        print("--older-than must be >= 0, --interval and --lease > 0, --jobs >= 1", file=sys.stderr)
        return 2
    data_dir = Path(args.data_dir or os.environ.get("DEALSTREAM_DATA_DIR", DEFAULT_DATA_DIR))
    console = Console(stderr=True)

    async def work(store: Any) -> int:
        from service.app.state.match_log import MatchLog

        archive = open_archive(args.archive, data_dir, prefix=args.prefix)
        lease_ms = int(args.lease * 1000)
        options = {"older_than": args.older_than, "lease_ms": lease_ms, "concurrency": args.jobs}
        archiver = Archiver(store, archive, **options)
        match_log = MatchLog(store)
        matches = Archiver.of_matches(match_log.store, archive, **options)  # TB-5.1: match logs too
        failed = 0
        try:
            if args.backfill:
                added = await archiver.backfill()
                added_matches = await matches.backfill_by_keys()
                if not args.json:
                    console.print(f"backfill: {added} finished deals added to the finished index")
                    console.print(f"backfill: {added_matches} finished matches added to their finished index")
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
                match_counts = await matches.archive_once()
                failed += counts.failed + match_counts.failed
                report = {**msgspec.to_builtins(counts), "deals_per_s": counts.deals_per_s}
                report["archive_count"] = await archive.count()
                report["redis_finished"] = await store.indexes.finished_count()
                report["matches"] = {
                    **msgspec.to_builtins(match_counts),
                    "archive_count": await archive.matches().count(),
                    "redis_finished": await match_log.store.indexes.finished_count(),
                }
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
                    print(
                        f"matches: {match_counts.archived} archived, {match_counts.failed} failed;"
                        f" {report['matches']['archive_count']} in the archive,"
                        f" {report['matches']['redis_finished']} finished in Redis",
                        flush=True,
                    )
                if args.once:
                    return 1 if failed else 0
                await asyncio.sleep(args.interval)
        finally:
            match_log.close()
            await archive.close()

    try:
        return with_store(args, work)
    except KeyboardInterrupt:
        return 0  # Ctrl-C ends the loop; every finished round stands
