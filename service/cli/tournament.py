"""``dealstream tournament export ID --out FILE``: a tournament's record (docs/rules/tournament.md,
TN-5); ``dealstream audit FILE`` recognises one and audits it offline."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from service.cli.stores import with_store


def cmd_tournament(args: argparse.Namespace) -> int:
    from service.app.commands.deals import DealService
    from service.app.commands.matches import MatchService
    from service.app.state.match_log import MatchLog
    from service.app.tournaments import TournamentService
    from service.app.tournaments.record import bundle

    async def export(store: Any) -> list[bytes] | None:
        deals = DealService(store)
        service = TournamentService(MatchService(deals, MatchLog(store)))
        try:
            return await bundle(service, args.tournament)
        except KeyError:
            return None
        finally:
            service.close()

    lines = with_store(args, export)
    if lines is None:
        print(f"no tournament {args.tournament!r}", file=sys.stderr)
        return 1
    data = b"\n".join(lines) + b"\n"
    if args.out:
        Path(args.out).write_bytes(data)
        print(f"wrote {len(lines)} lines to {args.out}")
    else:
        sys.stdout.buffer.write(data)
    return 0


def audit_file(path: Path) -> int:
    from service.app.tournaments.record import audit_bundle

    lines = [line for line in path.read_bytes().splitlines() if line.strip()]
    failure = audit_bundle(lines)
    if failure is not None:
        print(f"first failing record: {failure}")
        print("AUDIT FAILED")
        return 1
    print("AUDIT OK")
    return 0


def is_bundle_file(name: str | None) -> bool:
    from service.app.tournaments.record import is_bundle

    path = Path(name) if name else None
    if path is None or not path.is_file():
        return False
    with path.open("rb") as f:
        return is_bundle(f.readline())
