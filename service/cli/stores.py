"""Where the commands find a deal's log: the store a serving process would use (Redis, then the
archive) or an exported ``.jsonl`` file, and reading that log as a deal (``read_log``). The
commands on logs, the moves between stores and the Botzone records all read through here."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

import msgspec

from domain.envelope import decode_record
from domain.errors import RuleViolation
from domain.game import DealCreated
from service.app.games import kit_for_ruleset


def _archive(args: argparse.Namespace) -> Any:
    """The archive the serving process would read (``--archive``, ``DEALSTREAM_ARCHIVE_URL``, else
    the prefix's SQLite file in the data directory), so a deal that left Redis is still found by id; None when
    only that default file would serve and it does not exist (nothing was ever archived here)."""
    import os

    from service.store.archive import ARCHIVE_URL_ENV, archive_file, open_archive
    from service.store.embedded import DEFAULT_DATA_DIR

    url = getattr(args, "archive", None) or os.environ.get(ARCHIVE_URL_ENV) or None
    data_dir = Path(args.data_dir or os.environ.get("DEALSTREAM_DATA_DIR") or DEFAULT_DATA_DIR)
    if url is None and not (data_dir / archive_file(args.prefix)).is_file():
        return None
    return open_archive(url, data_dir, prefix=args.prefix)


def with_store(args: argparse.Namespace, work: Any) -> Any:
    from service.store.connection import connect, resolve_redis_url
    from service.store.event_store import EventStore

    url, embedded = resolve_redis_url(args.redis, args.data_dir)

    async def run() -> Any:
        client = connect(url)
        archive = _archive(args)
        try:
            return await work(EventStore(client, args.prefix, archive=archive))
        finally:
            await client.aclose()
            if archive is not None:
                await archive.close()

    try:
        return asyncio.run(run())
    finally:
        if embedded is not None:
            embedded.stop()


def load_raws(args: argparse.Namespace) -> tuple[list[bytes], str | None]:
    path = Path(args.deal)
    if path.is_file():
        return [line for line in path.read_bytes().splitlines() if line.strip()], None

    async def read(store: Any) -> tuple[list[bytes], str | None]:
        return await store.read_raw(args.deal), await store.reader.head_hash(args.deal)

    return with_store(args, read)


class NotADealLog(Exception):
    """A file (or stored log) this build cannot read as a deal's log; the message says where."""


def read_log(raws: list[bytes]) -> tuple[list[Any], DealCreated, Any, list[Any]]:
    """(records, the creation, the game kit, the typed events) of a log, or ``NotADealLog``
    naming the first record that does not read or does not replay. The audit reads a broken log
    as a finding;
    replay and review need a log they can follow, and say so instead of failing halfway."""
    records = []
    for i, raw in enumerate(raws, start=1):
        try:
            records.append(decode_record(raw))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise NotADealLog(f"line {i} is no record: {exc}") from None
    try:
        created = msgspec.json.decode(records[0].data, type=DealCreated)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise NotADealLog(f"its first record is no DealCreated event: {exc}") from None
    try:
        k = kit_for_ruleset(created.ruleset)  # the log's own rules
    except RuleViolation as exc:
        raise NotADealLog(exc.message) from None
    events = []
    for record in records:
        try:
            events.append(k.decode_event(record.data))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise NotADealLog(f"the event at version {record.version} does not read: {exc}") from None
    state = k.game.initial_state()
    for record, event in zip(records, events, strict=True):
        try:  # a log whose events do not fold is named here, not halfway through the replay
            state = k.game.evolve(state, event)
        except Exception:  # noqa: BLE001 - a forged log may break the rules' code anywhere
            raise NotADealLog(
                f"its events do not replay at version {record.version}: its {record.type[:40]} event"
                " does not apply to the deal before it"
            ) from None
    return records, created, k, events


def load_log(args: argparse.Namespace, command: str) -> Any:
    """(raw records, head hash, ``read_log``'s answer) of ``args.deal``, or the exit code once
    it has said why there is none."""
    raws, head = load_raws(args)
    if not raws:
        print(f"no deal {args.deal!r}", file=sys.stderr)
        return 1
    try:
        return raws, head, read_log(raws)
    except NotADealLog as exc:
        print(f"{command}: {args.deal} is not a deal log this build reads: {exc}", file=sys.stderr)
        return 1
