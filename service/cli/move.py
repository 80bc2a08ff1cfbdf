"""``dealstream export --all`` and ``import --all``: every deal of one store moved to another
(issue 26; docs/runbook.md, "Moving deals between stores").

``export --all`` writes every deal the store holds, in Redis (live and finished) and in the
archive, either to one JSON-lines stream (stdout, or ``--out FILE``) or, with ``--out DIR`` (an
existing directory, or a path ending in ``/``), to ``DIR/<deal>.jsonl`` (the records, as ``export
DEAL`` prints them) beside ``DIR/<deal>.meta.json``. In the stream each deal is a header line,
``{"deal_id", "created_ms", "public", "head_hash", "meta", "records": n}``, followed by its
``n`` records byte for byte.

``import --all`` reads either form and stores each deal in the target store (``--redis``,
``--prefix``) only after its audit passes there: the hash chain, the head hash, the commitment
and every command decided again (``service.app.reads.audit.audit_log``). The meta comes along
(seat token digests included, so the seats of a live deal play on), the deal is listed as it was,
and a finished deal is listed for the target's archiver. A deal the target already holds with the
same records is skipped; with other records it is refused. Exit code 1 when any deal was refused.
The files hold the meta's token digests: keep them as private as the store.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PAGE = 200


async def _redis_deals(store: Any) -> list[str]:
    ids: list[str] = []
    offset = 0
    while True:
        page = await store.list_deals(offset, PAGE, newest_first=False)
        ids += page
        if len(page) < PAGE:
            return ids
        offset += PAGE


async def _deal_from_redis(store: Any, deal_id: str) -> dict[str, Any] | None:
    records = await store.read_raw(deal_id)
    if not records:
        return None
    meta = await store.get_meta(deal_id)
    created = await store.redis.zscore(store.index_key, deal_id)
    public = await store.redis.zscore(store.public_index_key, deal_id) is not None
    return {
        "deal_id": deal_id,
        "created_ms": int(created) if created is not None else int(meta.get("created_ms") or 0),
        "public": public,
        "head_hash": await store.head_hash(deal_id),
        "meta": meta,
        "records": records,
    }


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
    fields = {k: deal[k] for k in ("deal_id", "created_ms", "public", "head_hash", "meta")}
    return json.dumps({**fields, "records": len(deal["records"])}, sort_keys=True).encode()


def cmd_export_all(args: argparse.Namespace) -> int:
    from service.cli.stores import with_store

    out = getattr(args, "out", None)
    to_dir = out is not None and (out.endswith("/") or Path(out).is_dir())

    async def work(store: Any) -> int:
        ids = await _redis_deals(store)
        deals = [d for d in [await _deal_from_redis(store, i) for i in ids] if d is not None]
        if store.archived is not None:
            deals += await _archived_deals(store.archived.archive, {d["deal_id"] for d in deals})
        if to_dir:
            where = Path(out)
            where.mkdir(parents=True, exist_ok=True)
            for deal in deals:
                (where / f"{deal['deal_id']}.jsonl").write_bytes(b"\n".join(deal["records"]) + b"\n")
                (where / f"{deal['deal_id']}.meta.json").write_bytes(_header(deal) + b"\n")
        else:
            stream = open(out, "wb") if out else sys.stdout.buffer  # noqa: SIM115 - closed below
            try:
                for deal in deals:
                    stream.write(_header(deal) + b"\n" + b"\n".join(deal["records"]) + b"\n")
            finally:
                if out:
                    stream.close()
                else:
                    stream.flush()
        print(f"exported {len(deals)} deals", file=sys.stderr)
        return 0

    return with_store(args, work)


def read_deals(source: str) -> Iterator[dict[str, Any]]:
    """The deals of an ``export --all`` stream (a file, ``-`` for stdin) or directory."""
    path = Path(source)
    if path.is_dir():
        for records_path in sorted(path.glob("*.jsonl")):
            meta_path = records_path.with_name(records_path.name.removesuffix(".jsonl") + ".meta.json")
            header = json.loads(meta_path.read_bytes()) if meta_path.is_file() else {}
            records = [line for line in records_path.read_bytes().splitlines() if line.strip()]
            yield {**header, "deal_id": header.get("deal_id") or records_path.stem, "records": records}
        return
    data = sys.stdin.buffer.read() if source == "-" else path.read_bytes()
    lines = [line for line in data.splitlines() if line.strip()]
    i = 0
    while i < len(lines):
        header = json.loads(lines[i])
        if "deal_id" not in header or not isinstance(header.get("records"), int):
            raise ValueError(f"line {i + 1} is no deal header of an export --all stream")
        count = header["records"]
        records = lines[i + 1 : i + 1 + count]
        if len(records) != count:
            raise ValueError(f"deal {header['deal_id']}: {count} records announced, {len(records)} found")
        yield {**header, "records": records}
        i += 1 + count


def cmd_import_all(args: argparse.Namespace) -> int:
    import msgspec

    from domain.envelope import decode_record
    from domain.game import DealCreated
    from service.app.reads.audit import audit_log
    from service.cli.stores import with_store
    from service.store.event_store import now_ms

    try:
        deals = list(read_deals(args.file))
    except (OSError, ValueError) as exc:
        print(f"import --all: {exc}", file=sys.stderr)
        return 1

    async def work(store: Any) -> int:
        stored = skipped = refused = 0
        for deal in deals:
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
                if held == raws:
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
            await store.put_meta(deal_id, meta)
            await store.append_records(deal_id, raws)
            finished = report.finished
            created_ms = int(deal.get("created_ms") or now_ms())
            public = bool(deal.get("public", finished))
            # the status last: "over" lists the deal for the target's archiver
            await store.put_meta(deal_id, {"status": status} if status else {}, created_ms, public=public)
            stored += 1
        print(f"imported {stored} deals, {skipped} already there, {refused} refused", file=sys.stderr)
        return 1 if refused else 0

    return with_store(args, work)
