"""``dealstream export --all`` and ``import --all``: every deal of one store moved to another
(docs/runbook.md, "Moving deals between stores").

``export --all`` writes every deal the store holds, in Redis (live and finished) and in the
archive, either to one JSON-lines stream (stdout, or ``--out FILE``) or, with ``--out DIR`` (an
existing directory, or a path ending in ``/``), to ``DIR/<deal>.jsonl`` (the records, as ``export
DEAL`` prints them) beside ``DIR/<deal>.meta.json``. In the stream each deal is a header line,
``{"deal_id", "created_ms", "public", "head_hash", "meta", "records": n}``, followed by its
``n`` records byte for byte.

Beside the deals the export holds what the store keeps about them elsewhere, so a move loses
nothing a player sees: a live deal's place in the clock keeper's index (``clock_at`` in its
header, TB-2.5), the matches the deals belong to (their own small logs under ``<prefix>:match``,
each a header ``{"match_id", "head_hash", "look_at", "records": n}`` and its records; in a
directory ``DIR/matches/<match>.jsonl`` and ``.meta.json``), and the players' lists of their
deals (``{"players": {"salt", "rows"}, "records": 0}``, the digests and the salt they were made
with; in a directory ``DIR/players.json``).

``import --all`` reads either form and stores each deal in the target store (``--redis``,
``--prefix``) only after its audit passes there: the hash chain, the head hash, the commitment
and every command decided again (``service.app.reads.audit.audit_log``). The meta comes along
(seat token digests included, so the seats of a live deal play on), the deal is listed as it was,
and a finished deal is listed for the target's archiver. A deal the target already holds with the
same records is skipped; with other records it is refused. A match is stored once its hash chain
verifies (it is audited against its deals like any match, ``GET /matches/{id}/audit``); a live
deal or match is scheduled for the target's clock keeper and match sweep as it was, an ended
match listed for the target's archiver. The players'
rows are added to the target's lists when the target has no salt yet or the same one (a digest
made with another salt names nobody there: refused). Exit code 1 when anything was refused. The
files hold the meta's token digests and the players' digests: keep them as private as the store.

Accounts move too: ``{"accounts": {<id>: {"name", "skeleton", "password", "created_ms"}},
"records": 0}`` (in a directory ``DIR/accounts.json``), the password as its Argon2id hash;
sessions and device codes stay behind (a moved account signs in again). An account's list of
games is a player list (``account-<id>``) and moves with the players' rows, whatever the salt.
The import stores an account under its id unless another account of the target holds its name
(refused, exit code 1); the same account again is skipped.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from service.cli.words import Progress, count

PAGE = 200


async def _redis_deals(store: Any) -> list[str]:
    ids: list[str] = []
    offset = 0
    while True:
        page = await store.indexes.list_deals(offset, PAGE, newest_first=False)
        ids += page
        if len(page) < PAGE:
            return ids
        offset += PAGE


async def _deal_from_redis(store: Any, deal_id: str) -> dict[str, Any] | None:
    records = await store.read_raw(deal_id)
    if not records:
        return None
    meta = await store.reader.get_meta(deal_id)
    created = await store.redis.zscore(store.keys.index, deal_id)
    public = await store.redis.zscore(store.keys.public_index, deal_id) is not None
    clock_at = await store.redis.zscore(store.keys.clocks, deal_id)
    deal = {
        "deal_id": deal_id,
        "created_ms": int(created) if created is not None else int(meta.get("created_ms") or 0),
        "public": public,
        "head_hash": await store.reader.head_hash(deal_id),
        "meta": meta,
        "records": records,
    }
    if clock_at is not None:
        deal["clock_at"] = int(clock_at)
    return deal


def _match_of(first_record: bytes) -> str | None:
    """The match a deal belongs to, from its first record (``DealCreated.match``)."""
    import msgspec

    from domain.envelope import decode_record

    data = msgspec.json.decode(decode_record(first_record).data)
    match = data.get("match") if isinstance(data, dict) else None
    return match.get("match_id") if isinstance(match, dict) else None


def _match_store(store: Any) -> Any:
    from service.app.state.match_log import MatchLog

    return MatchLog(store).store


async def _matches(store: Any, deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids = sorted({m for d in deals if d["records"] and (m := _match_of(d["records"][0])) is not None})
    matches = _match_store(store)
    found = []
    try:
        for match_id in ids:
            records = await matches.read_raw(match_id)
            if not records:
                continue
            look_at = await matches.redis.zscore(matches.keys.clocks, match_id)
            found.append(
                {
                    "match_id": match_id,
                    "head_hash": await matches.reader.head_hash(match_id),
                    "look_at": None if look_at is None else int(look_at),
                    "records": records,
                }
            )
    finally:
        matches.close()
    return found


async def _players(store: Any) -> dict[str, Any] | None:
    """The salt and every player's rows, or None when no player key was ever seen."""
    from service.store.redis_log import text

    salt = await store.redis.get(store.keys.player_salt)
    head, tail = store.keys.player("\0").split("\0")
    rows: dict[str, list[list[Any]]] = {}
    async for key in store.redis.scan_iter(match=f"{head}*{tail}", count=500):
        name = text(key)
        digest = name[len(head) : len(name) - len(tail)]
        members = await store.redis.zrange(name, 0, -1, withscores=True)
        rows[digest] = [[text(m), int(score)] for m, score in members]
    if salt is None:  # no player key was ever minted: only accounts' lists (``account-<id>``)
        rows = {d: r for d, r in rows.items() if d.startswith("account-")}
        return {"salt": None, "rows": dict(sorted(rows.items()))} if rows else None
    return {"salt": text(salt), "rows": dict(sorted(rows.items()))}


async def _archived_deals(archive: Any, skip: set[str]) -> list[dict[str, Any]]:
    from service.store.archive import spectators_of

    found: list[dict[str, Any]] = []
    offset = 0
    while True:
        page = await archive.list(offset, PAGE)
        for listing in page:
            if listing.deal_id in skip:
                continue
            deal = await archive.get(listing.deal_id)
            if deal is None:
                continue
            found.append(
                {
                    "deal_id": deal.deal_id,
                    "created_ms": deal.created_ms,
                    "public": spectators_of(deal.meta) or deal.meta.get("status") == "over",
                    "head_hash": deal.head_hash,
                    "meta": dict(deal.meta),
                    "records": list(deal.records),
                }
            )
        if len(page) < PAGE:
            return found
        offset += PAGE


def _header(deal: dict[str, Any]) -> bytes:
    names = ("deal_id", "created_ms", "public", "head_hash", "meta", "clock_at")
    fields = {k: deal[k] for k in names if k in deal}
    return json.dumps({**fields, "records": len(deal["records"])}, sort_keys=True).encode()


def _match_header(match: dict[str, Any]) -> bytes:
    fields = {k: match[k] for k in ("match_id", "head_hash", "look_at")}
    return json.dumps({**fields, "records": len(match["records"])}, sort_keys=True).encode()


def _accounts_header(accounts: dict[str, Any]) -> bytes:
    return json.dumps({"accounts": accounts, "records": 0}, sort_keys=True).encode()


def _players_header(players: dict[str, Any]) -> bytes:
    return json.dumps({"players": players, "records": 0}, sort_keys=True).encode()


def cmd_export_all(args: argparse.Namespace) -> int:
    from service.cli.stores import with_store
    from service.store.accounts import AccountStore

    out = getattr(args, "out", None)
    to_dir = out is not None and (out.endswith("/") or Path(out).is_dir())
    if out is not None and not to_dir and not Path(out).parent.is_dir():
        print(
            f"dealstream export: the folder {Path(out).parent} does not exist"
            " (create it, or end --out with / to export into a new folder)",
            file=sys.stderr,
        )
        return 1

    async def work(store: Any) -> int:
        ids = await _redis_deals(store)
        reading = Progress("export: read from Redis", len(ids), "deal")
        deals = []
        for deal_id in ids:
            deal = await _deal_from_redis(store, deal_id)
            reading.step()
            if deal is not None:
                deals.append(deal)
        if store.reader.archived is not None:
            deals += await _archived_deals(store.reader.archived.archive, {d["deal_id"] for d in deals})
        matches = await _matches(store, deals)
        players = await _players(store)
        accounts = await AccountStore(store.redis, store.prefix).export()
        if to_dir:
            where = Path(out)
            where.mkdir(parents=True, exist_ok=True)
            for deal in deals:
                (where / f"{deal['deal_id']}.jsonl").write_bytes(b"\n".join(deal["records"]) + b"\n")
                (where / f"{deal['deal_id']}.meta.json").write_bytes(_header(deal) + b"\n")
            if matches:
                (where / "matches").mkdir(exist_ok=True)
            for match in matches:
                path = where / "matches" / f"{match['match_id']}.jsonl"
                path.write_bytes(b"\n".join(match["records"]) + b"\n")
                path.with_name(f"{match['match_id']}.meta.json").write_bytes(_match_header(match) + b"\n")
            if players is not None:
                (where / "players.json").write_bytes(_players_header(players) + b"\n")
            if accounts:
                (where / "accounts.json").write_bytes(_accounts_header(accounts) + b"\n")
        else:
            stream = open(out, "wb") if out else sys.stdout.buffer  # noqa: SIM115 - closed below
            try:
                for deal in deals:
                    stream.write(_header(deal) + b"\n" + b"\n".join(deal["records"]) + b"\n")
                for match in matches:
                    stream.write(_match_header(match) + b"\n" + b"\n".join(match["records"]) + b"\n")
                if players is not None:
                    stream.write(_players_header(players) + b"\n")
                if accounts:
                    stream.write(_accounts_header(accounts) + b"\n")
            finally:
                if out:
                    stream.close()
                else:
                    stream.flush()
        rows = sum(len(r) for r in players["rows"].values()) if players else 0
        print(
            f"exported {count(len(deals), 'deal')}, {count(len(matches), 'match')},"
            f" {count(rows, 'player row')}, {count(len(accounts), 'account')}",
            file=sys.stderr,
        )
        return 0

    return with_store(args, work)


def read_deals(source: str) -> Iterator[dict[str, Any]]:
    """The deals of an ``export --all`` stream (a file, ``-`` for stdin) or directory."""
    path = Path(source)
    if path.is_dir():
        for folder, key in ((path, "deal_id"), (path / "matches", "match_id")):
            for records_path in sorted(folder.glob("*.jsonl")):
                meta_path = records_path.with_name(records_path.name.removesuffix(".jsonl") + ".meta.json")
                header = json.loads(meta_path.read_bytes()) if meta_path.is_file() else {}
                records = [line for line in records_path.read_bytes().splitlines() if line.strip()]
                yield {**header, key: header.get(key) or records_path.stem, "records": records}
        for name in ("players.json", "accounts.json"):
            if (path / name).is_file():
                yield json.loads((path / name).read_bytes())
        return
    data = sys.stdin.buffer.read() if source == "-" else path.read_bytes()
    lines = [line for line in data.splitlines() if line.strip()]
    i = 0
    while i < len(lines):
        header = json.loads(lines[i])
        kinds = [k for k in ("deal_id", "match_id", "players", "accounts") if k in header]
        if len(kinds) != 1 or not isinstance(header.get("records"), int):
            raise ValueError(f"line {i + 1} is no header of an export --all stream")
        count = header["records"]
        records = lines[i + 1 : i + 1 + count]
        if len(records) != count:
            name = (
                f"{kinds[0].removesuffix('_id')} {header[kinds[0]]}" if kinds[0].endswith("_id") else kinds[0]
            )
            raise ValueError(f"{name}: {count} records announced, {len(records)} found")
        yield {**header, "records": records}
        i += 1 + count


def cmd_import_all(args: argparse.Namespace) -> int:
    import msgspec

    from domain.envelope import decode_record
    from domain.game import DealCreated
    from service.app.reads.audit import audit_log
    from service.cli.stores import with_store
    from service.store.accounts import AccountStore
    from service.store.event_store import now_ms

    try:
        deals = list(read_deals(args.file))
    except (OSError, ValueError) as exc:
        print(f"import --all: {exc}", file=sys.stderr)
        return 1

    async def work(store: Any) -> int:
        stored = skipped = refused = 0
        matches = [d for d in deals if "match_id" in d]
        players = [d["players"] for d in deals if "players" in d]
        accounts = [d["accounts"] for d in deals if "accounts" in d]
        logs = [d for d in deals if "deal_id" in d]
        progress = Progress("import", len(logs), "deal")
        for deal in logs:
            progress.step()
            deal_id, raws = deal["deal_id"], deal["records"]
            report = audit_log(raws, deal.get("head_hash"))
            # a live deal's audit has no commitment to check yet: no problem found is a pass
            if report.problems or not report.chain_ok or report.deal_id != deal_id:
                why = "; ".join(f"v{p.version} {p.check}: {p.detail}" for p in report.problems[:3])
                print(f"refused {deal_id}: its audit fails ({why or 'another deal id'})", file=sys.stderr)
                refused += 1
                continue
            held = await store.read_raw(deal_id)
            if held:
                if held == raws:  # imported before (the ids again: that run may have stopped short)
                    await store.log.restore_command_ids(deal_id, raws)
                    skipped += 1
                else:
                    print(f"refused {deal_id}: the target holds another log of it", file=sys.stderr)
                    refused += 1
                continue
            meta = dict(deal.get("meta") or {})
            if not meta:  # records only (an export DEAL file): what plain import writes
                created = msgspec.json.decode(decode_record(raws[0]).data, type=DealCreated)
                meta = {"game": report.game, "seats": json.dumps(created.seats)}
                meta.update({"status": "over" if report.finished else "imported", "imported": "1"})
            status = meta.pop("status", None)
            await store.indexes.put_meta(deal_id, meta)
            await store.log.append_records(deal_id, raws)
            finished = report.finished
            created_ms = int(deal.get("created_ms") or now_ms())
            public = bool(deal.get("public", finished))
            # the status last: "over" lists the deal for the target's archiver
            await store.indexes.put_meta(
                deal_id, {"status": status} if status else {}, created_ms, public=public
            )
            if not finished and isinstance(deal.get("clock_at"), int):
                await store.indexes.schedule_clock(deal_id, deal["clock_at"])  # the clock keeper looks then
            stored += 1
        moved = await _import_matches(store, matches)
        rows = 0
        for table in players:
            added = await _import_players(store, table)
            if added is None:
                refused += 1
            else:
                rows += added
        refused += moved["refused"]
        counted = {"stored": 0, "skipped": 0, "refused": 0}
        for table in accounts:
            for account_id, fields in table.items() if isinstance(table, dict) else ():
                ok = isinstance(fields, dict) and all(isinstance(v, str) for v in fields.values())
                outcome = (
                    await AccountStore(store.redis, store.prefix).import_one(account_id, fields)
                    if ok
                    else "refused"
                )
                counted[outcome] += 1
                if outcome == "refused":
                    print(f"refused account {account_id}: its name is taken in the target", file=sys.stderr)
        refused += counted["refused"]
        print(
            f"imported {count(stored, 'deal')}, {skipped} already there, {refused} refused;"
            f" {count(moved['stored'], 'match')} ({moved['skipped']} already there),"
            f" {count(rows, 'player row')};"
            f" {count(counted['stored'], 'account')} ({counted['skipped']} already there)",
            file=sys.stderr,
        )
        return 1 if refused else 0

    return with_store(args, work)


async def _import_matches(store: Any, matches: list[dict[str, Any]]) -> dict[str, int]:
    """Each match's log stored once its hash chain verifies (and its head hash is the one
    exported); a live match is scheduled for the target's sweep as it was."""
    from domain.envelope import decode_record, record_hash, verify_chain
    from service.app.archive.archiver import MATCH_FINAL_EVENT
    from service.store.event_store import now_ms

    counts = {"stored": 0, "skipped": 0, "refused": 0}
    target = _match_store(store)
    try:
        for match in matches:
            match_id, raws = match["match_id"], match["records"]
            broken = verify_chain(raws)
            head = record_hash(raws[-1]) if raws else None
            if broken is not None or not raws or match.get("head_hash") not in (None, head):
                why = broken.reason if broken is not None else "its head hash is not the one exported"
                print(f"refused match {match_id}: {why}", file=sys.stderr)
                counts["refused"] += 1
                continue
            held = await target.read_raw(match_id)
            if held:
                if held == raws:
                    counts["skipped"] += 1
                else:
                    print(f"refused match {match_id}: the target holds another log of it", file=sys.stderr)
                    counts["refused"] += 1
                continue
            await target.log.append_records(match_id, raws)
            if isinstance(match.get("look_at"), int):
                await target.indexes.schedule_clock(match_id, match["look_at"])
            if decode_record(raws[-1]).type == MATCH_FINAL_EVENT:  # ended: for the target's archiver
                await target.indexes.mark_finished(match_id, now_ms())
            counts["stored"] += 1
    finally:
        target.close()
    return counts


async def _import_players(store: Any, table: dict[str, Any]) -> int | None:
    """The players' rows added to the target's lists (ZADD: a row already there stays one);
    None when the target's digests are made with another salt."""
    from service.store.player_index import parse_member
    from service.store.redis_log import text

    salt = table.get("salt")
    rows = table.get("rows")
    if not isinstance(rows, dict) or not (salt is None or isinstance(salt, str)):
        print("refused the players' rows: no rows, or a salt that is not text", file=sys.stderr)
        return None
    added = 0
    rows = dict(rows)
    for digest in [d for d in rows if d.startswith("account-")]:  # accounts' lists: no salt in them
        good = [(m, int(score)) for m, score in rows.pop(digest) if parse_member(m, score) is not None]
        if good:
            await store.redis.zadd(store.keys.player(digest), dict(good))
            added += len(good)
    if salt is None:  # only accounts' lists
        return added
    key = store.keys.player_salt
    await store.redis.set(key, salt, nx=True)
    if text(await store.redis.get(key)) != salt:
        print(
            "refused the players' rows: the target's player keys are digested with another salt"
            " (its players' lists would name nobody)",
            file=sys.stderr,
        )
        return None
    for digest, members in rows.items():
        good = [(m, int(score)) for m, score in members if parse_member(m, score) is not None]
        if good:
            await store.redis.zadd(store.keys.player(digest), dict(good))
            added += len(good)
    return added
