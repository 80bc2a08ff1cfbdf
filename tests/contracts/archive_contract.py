"""The archive contract, one abstract base run against every backend (SQLite, PostgreSQL).

A backend's test class subclasses ``ArchiveContract`` and provides one fixture, ``open_same``:
a callable that opens another handle (as another process would) on the same, initially empty,
storage, removed again after the test.
"""

from __future__ import annotations

import asyncio
import hashlib

import msgspec
import pytest

from domain.envelope import GENESIS, StoredEvent, encode_record, record_hash, verify_chain
from domain.selfplay import play_deal
from service.app.games import kit
from service.store.archive import ArchiveConflict, ArchivedDeal, ArchivedListing


def chained(payloads: list[bytes], command_id: str = "c") -> list[bytes]:
    """Records as the store writes them, each chained onto the one before."""
    prev = GENESIS
    records = []
    for version, data in enumerate(payloads, start=1):
        raw = encode_record(
            StoredEvent(
                version=version,
                type="Played",
                data=msgspec.Raw(data),
                prev=prev,
                recorded_at="2026-12-01T10:00:00.000001Z",
                command_id=f"{command_id}{version}",
            )
        )
        records.append(raw)
        prev = record_hash(raw)
    return records


def make_deal(
    deal_id: str,
    n: int = 30,
    created_ms: int = 1_000,
    finished_ms: int = 2_000,
    *,
    size: int = 40,
    meta: dict[str, str] | None = None,
) -> ArchivedDeal:
    payloads = [
        msgspec.json.encode({"seat": i % 4, "card": i, "note": f"Ω{deal_id}-{i}" + "x" * (size + i % 7)})
        for i in range(n)
    ]
    records = chained(payloads, deal_id)
    return ArchivedDeal(
        deal_id=deal_id,
        game="mcr",
        created_ms=created_ms,
        finished_ms=finished_ms,
        meta=meta
        if meta is not None
        else {
            "game": "mcr",
            "status": "over",
            "spectators": "1",
            "created_ms": str(created_ms),
            "token:0": hashlib.sha256(deal_id.encode()).hexdigest(),
        },
        records=records,
        head_hash=record_hash(records[-1]),
    )


def played_deal(deal_id: str) -> ArchivedDeal:
    """A real Paohuzi deal, played by greedy bots in memory, as stored records."""
    k = kit("paohuzi")
    bots = [k.make_bot("greedy", 7 + i) for i in range(3)]
    events, _state = play_deal(
        k.game,
        k.projections.view_from_state,
        bots,
        deal_id=deal_id,
        seats=["bot:greedy"] * 3,
        server_seed=hashlib.sha256(deal_id.encode()).digest(),
    )
    from service.store.event_store import event_type_name

    prev = GENESIS
    records = []
    for version, event in enumerate(events, start=1):
        raw = encode_record(
            StoredEvent(
                version=version,
                type=event_type_name(event),
                data=msgspec.Raw(msgspec.json.encode(event)),
                prev=prev,
                recorded_at="2026-12-01T10:00:00.000001Z",
            )
        )
        records.append(raw)
        prev = record_hash(raw)
    meta = {"game": "paohuzi", "status": "over", "spectators": "1", "seats": '["bot:greedy"]'}
    return ArchivedDeal(deal_id, "paohuzi", 5, 6, meta, records, prev)


class ArchiveContract:
    @pytest.fixture
    async def archive(self, open_same):
        archive = open_same()
        yield archive
        await archive.close()

    # round trip ------------------------------------------------------------------------
    async def test_round_trip_keeps_every_byte_and_the_chain(self, archive):
        deal = played_deal("a1b2c3d4e5f60718")
        assert verify_chain(deal.records) is None
        assert await archive.put(deal) is True
        back = await archive.get(deal.deal_id)
        assert back == deal
        assert [bytes(r) for r in back.records] == deal.records
        assert verify_chain(back.records) is None
        assert record_hash(back.records[-1]) == back.head_hash
        assert await archive.records(deal.deal_id) == deal.records
        assert await archive.count() == 1

    async def test_records_with_any_bytes_round_trip(self, archive):
        odd = [b"", b"\x00\xff\n\r", "é漢\u2028".encode(), bytes(range(256)), b'{"a":"\\n"}\n']
        deal = msgspec.structs.replace(make_deal("odd", 3), records=odd, head_hash=record_hash(odd[-1]))
        await archive.put(deal)
        assert await archive.records("odd") == odd
        assert (await archive.get("odd")).records == odd

    async def test_unknown_deal_is_none(self, archive):
        assert await archive.get("nobody") is None
        assert await archive.records("nobody") is None
        assert await archive.list() == []
        assert await archive.count() == 0

    async def test_a_new_handle_sees_what_was_put(self, archive, open_same):
        deal = make_deal("kept", 12)
        await archive.put(deal)
        await archive.close()
        other = open_same()
        try:
            assert await other.get("kept") == deal
        finally:
            await other.close()

    # the matches shelf (TB-5.1) --------------------------------------------------------
    async def test_matches_have_a_shelf_of_their_own(self, archive, open_same):
        """A match's log is kept like a deal's, apart from the deals: never listed or counted
        with them, and an id on one shelf says nothing of the other."""
        shelf = archive.matches()
        assert archive.matches() is shelf
        match = msgspec.structs.replace(make_deal("m1", 6), meta={})
        deal = make_deal("d1", 4)
        assert await shelf.put(match) is True
        assert await shelf.put(match) is False
        assert await archive.put(deal) is True
        assert await shelf.get("m1") == match and await shelf.records("m1") == match.records
        assert await archive.get("m1") is None and await shelf.get("d1") is None
        assert [x.deal_id for x in await archive.list()] == ["d1"] and await archive.count() == 1
        assert [x.deal_id for x in await shelf.list()] == ["m1"] and await shelf.count() == 1
        with pytest.raises(ArchiveConflict):
            await shelf.put(msgspec.structs.replace(match, finished_ms=match.finished_ms + 1))
        await shelf.close()  # the shelf's connections are the archive's: this closes nothing
        assert await archive.get("d1") == deal
        await archive.close()
        other = open_same()
        try:
            assert await other.matches().get("m1") == match
        finally:
            await other.close()

    # idempotence and refusal ---------------------------------------------------------
    async def test_put_again_is_a_no_op(self, archive):
        deal = make_deal("d1")
        assert await archive.put(deal) is True
        assert await archive.put(deal) is False
        assert await archive.put(msgspec.structs.replace(deal)) is False
        assert await archive.count() == 1
        assert await archive.get("d1") == deal

    @pytest.mark.parametrize("change", ["one_byte", "one_record_more", "head_hash", "finished_ms", "game"])
    async def test_different_bytes_are_refused_and_nothing_changes(self, archive, change):
        deal = make_deal("d1", 20)
        await archive.put(deal)
        if change == "one_byte":
            records = list(deal.records)
            records[7] = records[7].replace(b"Played", b"Plazed", 1)
            other = msgspec.structs.replace(deal, records=records)
        elif change == "one_record_more":
            longer = make_deal("d1", 21)
            other = msgspec.structs.replace(deal, records=longer.records, head_hash=longer.head_hash)
        elif change == "head_hash":
            other = msgspec.structs.replace(deal, head_hash="f" * 64)
        elif change == "finished_ms":
            other = msgspec.structs.replace(deal, finished_ms=deal.finished_ms + 1)
        else:
            other = msgspec.structs.replace(deal, game="paohuzi")
        with pytest.raises(ArchiveConflict):
            await archive.put(other)
        assert await archive.get("d1") == deal
        assert await archive.count() == 1

    async def test_meta_only_grows(self, archive):
        deal = make_deal("d1")
        await archive.put(deal)
        claimed = msgspec.structs.replace(deal, meta={**deal.meta, "rematched_by": "e" * 16})
        assert await archive.put(claimed) is False  # a field added later is kept
        assert (await archive.get("d1")).meta == claimed.meta
        assert await archive.put(deal) is False  # an older copy without it drops nothing
        assert (await archive.get("d1")).meta == claimed.meta
        changed = msgspec.structs.replace(deal, meta={**deal.meta, "status": "live"})
        with pytest.raises(ArchiveConflict):
            await archive.put(changed)
        assert (await archive.get("d1")).meta == claimed.meta

    async def test_claim_meta_sets_a_field_once(self, archive):
        await archive.put(make_deal("d1"))
        assert await archive.claim_meta("d1", "rematched_by", "first") == "first"
        assert await archive.claim_meta("d1", "rematched_by", "second") == "first"
        assert await archive.claim_meta("nobody", "rematched_by", "x") is None
        await archive.release_meta("d1", "rematched_by", "second")  # not its value: kept
        assert (await archive.get("d1")).meta["rematched_by"] == "first"
        await archive.release_meta("d1", "rematched_by", "first")
        assert "rematched_by" not in (await archive.get("d1")).meta
        assert await archive.count() == 1

    async def test_concurrent_claims_have_one_winner(self, archive, open_same):
        await archive.put(make_deal("d1"))
        other = open_same()
        try:
            handles = [archive, other]
            answers = await asyncio.gather(
                *(handles[i % 2].claim_meta("d1", "rematched_by", f"v{i}") for i in range(16))
            )
        finally:
            await other.close()
        assert len(set(answers)) == 1 and answers[0].startswith("v")

    # listing ---------------------------------------------------------------------------
    async def test_listing_is_newest_first_and_pages(self, archive):
        created = [50, 10, 30, 30, 70, 20, 30, 60, 40, 10, 80, 5, 30]
        deals = [make_deal(f"deal{i:02d}", 3, created_ms=c, finished_ms=c + 9) for i, c in enumerate(created)]
        deals[3] = msgspec.structs.replace(deals[3], meta={**deals[3].meta, "spectators": "0"})
        for deal in reversed(deals):
            await archive.put(deal)
        expected = sorted(deals, key=lambda d: (d.created_ms, d.deal_id), reverse=True)
        want = [
            ArchivedListing(d.deal_id, d.game, d.created_ms, d.finished_ms, d.meta["spectators"] == "1")
            for d in expected
        ]
        assert await archive.list(0, 100) == want
        paged = []
        for offset in range(0, len(deals), 4):
            page = await archive.list(offset, 4)
            assert len(page) == min(4, len(deals) - offset)
            paged += page
        assert paged == want
        assert await archive.list(len(deals), 10) == []
        assert await archive.count() == len(deals)
        assert [x.spectators for x in want].count(False) == 1

    # concurrency -----------------------------------------------------------------------
    async def test_concurrent_puts_of_one_deal_store_it_once(self, archive, open_same):
        deal = played_deal("race0000race0000")
        other = open_same()
        try:
            handles = [archive, other]
            results = await asyncio.gather(*(handles[i % 2].put(deal) for i in range(12)))
            assert results.count(True) == 1 and results.count(False) == 11
            assert await other.get(deal.deal_id) == deal
        finally:
            await other.close()
        assert await archive.count() == 1

    async def test_concurrent_puts_of_many_deals(self, archive, open_same):
        deals = [make_deal(f"m{i:03d}", 10 + i % 5, created_ms=i) for i in range(40)]
        other = open_same()
        try:
            handles = [archive, other]
            await asyncio.gather(*(handles[i % 2].put(d) for i, d in enumerate(deals)))
            await asyncio.gather(*(handles[(i + 1) % 2].put(d) for i, d in enumerate(deals)))
        finally:
            await other.close()
        assert await archive.count() == 40
        for deal in deals[::7]:
            assert await archive.get(deal.deal_id) == deal

    async def test_a_conflicting_racer_never_overwrites(self, archive, open_same):
        deal = make_deal("d1", 15)
        rival = msgspec.structs.replace(deal, head_hash="0" * 63 + "1")
        other = open_same()
        try:
            results = await asyncio.gather(archive.put(deal), other.put(rival), return_exceptions=True)
        finally:
            await other.close()
        winners = [r for r in results if r is True]
        assert len(winners) == 1 and sum(isinstance(r, ArchiveConflict) for r in results) == 1
        kept = await archive.get("d1")
        assert kept == (deal if results[0] is True else rival)

    # size ------------------------------------------------------------------------------
    async def test_a_large_deal_round_trips(self, archive):
        # 6,000 records of about 1 KB and a last one of 2 MB, one chain
        payloads = [msgspec.json.encode({"i": i, "pad": "p" * (900 + i % 50)}) for i in range(6_000)]
        records = chained([*payloads, msgspec.json.encode({"blob": "z" * 2_000_000})], "h")
        big = msgspec.structs.replace(make_deal("big"), records=records, head_hash=record_hash(records[-1]))
        assert await archive.put(big) is True
        back = await archive.records("big")
        assert len(back) == 6_001
        assert back == records
        assert verify_chain(back) is None
        assert record_hash(back[-1]) == big.head_hash
        assert await archive.put(big) is False
        assert (await archive.get("big")).records == records

    # chat ------------------------------------------------------------------------------
    async def test_chat_is_kept_beside_the_deal_and_never_shrinks(self, archive, open_same):
        assert await archive.chat("talk") is None
        said = [b'{"seat":0,"text":"hi","at":1}', '{"seat":1,"text":"好","at":2}'.encode()]
        await archive.put_chat("talk", 2, said)
        assert await archive.chat("talk") == (2, said)
        # a later copy with more said replaces it; an older copy (fewer said) never does
        more = [*said, b'{"seat":2,"text":"gg","at":3}']
        await archive.put_chat("talk", 3, more)
        await archive.put_chat("talk", 2, said)
        other = open_same()
        try:
            assert await other.chat("talk") == (3, more)
        finally:
            await other.close()
        # the chat is not a deal: no listing, no count
        assert await archive.count() == 0 and await archive.get("talk") is None
