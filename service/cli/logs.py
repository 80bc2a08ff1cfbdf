"""The commands on one deal's stored log, from Redis (by deal id) or an exported ``.jsonl`` file:
``audit``, ``export``, ``import``, ``replay`` and ``review``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import msgspec

from domain.envelope import decode_record
from domain.errors import RuleViolation
from domain.game import DealCreated
from service.app.games import kit_for_ruleset
from service.cli.stores import NotADealLog, load_log, load_raws, read_log, with_store  # noqa: F401


def cmd_audit(args: argparse.Namespace) -> int:
    from service.app.reads.audit import audit_log
    from service.cli.tournament import audit_file, is_bundle_file

    if is_bundle_file(args.deal):  # a tournament's record (TN-5)
        return audit_file(Path(args.deal))

    raws, head = load_raws(args)
    if not raws:
        print(f"no deal {args.deal!r}", file=sys.stderr)
        return 1
    report = audit_log(raws, head)
    if args.json:
        print(msgspec.json.encode(report).decode())
    else:
        mark = {True: "ok", False: "FAILED", None: "n/a"}
        print(f"deal {report.deal_id} ({report.game}), {report.versions} events, finished: {report.finished}")
        checks = ("chain_ok", "replay_ok", "commitment_ok", "shuffle_ok", "redecided_ok", "claim_windows_ok")
        for name in checks:
            print(f"  {name[:-3]:<14} {mark[getattr(report, name)]}")
        if report.imported == "botzone":
            print("  note: imported from Botzone (no seed commitment); the judge dealt its wall")
        elif report.imported is not None:
            print(f"  note: imported from {report.imported} (no seed commitment)")
        elif report.fixed_deck:
            print("  note: this deal used a fixed deck (--dev); the shuffle was not random")
        for p in report.problems:
            print(f"  problem at version {p.version}: [{p.check}] {p.detail}")
        print("AUDIT OK" if report.ok else "AUDIT FAILED")
    return 0 if report.ok else 1


def sealed_board(args: argparse.Namespace, raws: list[bytes]) -> bool:
    """Whether the stored deal ``args.deal`` is a finished duplicate board whose round is not
    over (TN-3.6: the gate's ``sealed``, asked of the tournament's record); a file is no board."""
    from service.app.visibility import sealed
    from service.store.tournaments import TournamentNotFound, TournamentStore

    if Path(args.deal).is_file() or not raws:
        return False
    match = (json.loads(bytes(decode_record(raws[0]).data)).get("match") or {}).get("match_id")
    if match is None:
        return False
    over = decode_record(raws[-1]).type == "SeedRevealed"

    async def round_over(store: Any) -> bool | None:
        tournaments = TournamentStore(store)
        try:
            where = await tournaments.board_of(match)
            if where is None:
                return None
            try:
                state, _ = await tournaments.state(where[0])
            except TournamentNotFound:
                return False
            rnd = state.rounds.get(where[1])
            return rnd is not None and rnd.seed is not None
        finally:
            tournaments.close()

    return sealed(over, with_store(args, round_over))


def cmd_export(args: argparse.Namespace) -> int:
    if getattr(args, "all", False) or args.deal is None:
        if args.deal is not None or not getattr(args, "all", False):
            print("export: give a deal id or file, or --all", file=sys.stderr)
            return 2
        from service.cli.move import cmd_export_all

        return cmd_export_all(args)
    raws, _head = load_raws(args)
    if not raws:
        print(f"no deal {args.deal!r}", file=sys.stderr)
        return 1
    if getattr(args, "format", "jsonl") == "botzone":
        from service.cli.botzone import export_botzone

        return export_botzone(args, raws)
    if getattr(args, "public", False):  # as the read side publishes it to someone without a seat
        from service.app.reads.gate import public_record

        if sealed_board(args, raws):
            print(
                f"deal {args.deal!r} is a duplicate board still played at another table of its round"
                " (TN-3.6): its public copy exists once the round ends",
                file=sys.stderr,
            )
            return 1

        raws = [public_record(raw, hide_match=True) for raw in raws]
    sys.stdout.buffer.write(b"\n".join(raws) + b"\n")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from domain.envelope import verify_chain
    from service.store.event_store import now_ms

    if getattr(args, "all", False):
        from service.cli.move import cmd_import_all

        return cmd_import_all(args)
    if getattr(args, "format", "jsonl") == "botzone":
        from service.cli.botzone import import_botzone

        return import_botzone(args)
    raws = [line for line in Path(args.file).read_bytes().splitlines() if line.strip()]
    broken = verify_chain(raws)
    if not raws or broken is not None:
        print(
            f"refused: the file's hash chain breaks at version {broken.version if broken else 1}",
            file=sys.stderr,
        )
        return 1
    try:
        first = decode_record(raws[0])
        created = msgspec.json.decode(first.data, type=DealCreated)
        if first.type != "DealCreated":
            raise msgspec.ValidationError(f"a deal log starts with DealCreated, not {first.type}")
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        print(
            f"refused: {args.file}, line 1: not the DealCreated a deal log starts with ({exc})",
            file=sys.stderr,
        )
        return 1
    try:
        game = kit_for_ruleset(created.ruleset).name  # a ruleset this build lacks is refused
    except RuleViolation as exc:
        print(f"refused: {exc.message}", file=sys.stderr)
        return 1
    refusal = import_refusal(raws)
    if refusal is not None:
        print(f"refused: {args.file}: {refusal}", file=sys.stderr)
        return 1

    async def work(store: Any) -> int:
        if await store.version(created.deal_id):
            print(f"deal {created.deal_id} exists already", file=sys.stderr)
            return 1
        finished = decode_record(raws[-1]).type == "SeedRevealed"
        await store.indexes.put_meta(created.deal_id, {"game": game, "seats": json.dumps(created.seats)})
        await store.log.append_records(created.deal_id, raws)
        # a finished log is public like any finished deal; an unfinished one stays unlisted
        status = {"status": "over" if finished else "imported", "imported": "1"}
        await store.indexes.put_meta(created.deal_id, status, created_ms=now_ms(), public=finished)
        print(created.deal_id)
        return 0

    return with_store(args, work)


def import_refusal(raws: list[bytes], head_hash: str | None = None) -> str | None:
    """Why a log may not be stored (None: it may): every read of a stored deal folds its log,
    so a log that does not replay is refused at the version that does not apply, and one whose
    audit finds anything else (a command that decides to other events, a clock, a claim window)
    is refused too, as ``import --all`` refuses it. A live deal's audit has no commitment to
    check yet: no problem found is a pass."""
    from service.app.reads.audit import audit_log

    report = audit_log(raws, head_hash)
    problems = sorted(report.problems, key=lambda p: (p.check != "replay", p.version))
    if not problems:
        return None
    first = problems[0]
    return f"its audit fails at version {first.version} ({first.check}): {first.detail}"


def cmd_replay(args: argparse.Namespace) -> int:
    """Step through a deal: in words with the table after each step (``service.replay_text``), or
    with ``--json`` each event as JSON (the form scripts read)."""
    loaded = load_log(args, "replay")
    if isinstance(loaded, int):
        return loaded
    _raws, _head, (records, created, k, events) = loaded
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


def cmd_review(args: argparse.Namespace) -> int:
    from service.cli.review import cmd_review as review

    loaded = load_log(args, "review")
    if isinstance(loaded, int):
        return loaded
    raws, head, (_records, created, _k, _events) = loaded
    if not 0 <= args.seat < len(created.seats):
        print(f"--seat is a seat 0..{len(created.seats) - 1}", file=sys.stderr)
        return 2
    return review(args, lambda _args: (raws, head))
