"""The log recorder contract (``service.store.log.LogRecorder``), one abstract base per backend.

What the reader above a recorder relies on: "no log" is an answer (empty, version 0, no head,
``has_logs`` False, no command versions) so it knows when to ask the archive, and a recorded
head is the hash of the last record. A backend's test class subclasses ``LogRecorderContract``
and provides ``redis_client`` (the same fixture the ``EventStoreContract`` needs).
"""

from __future__ import annotations

import msgspec
import pytest

from domain.envelope import GENESIS, decode_record, record_hash, verify_chain
from service.store.keys import StoreKeys
from service.store.log import LogRecorder, StreamHead, VersionConflict
from service.store.redis_log import RedisLogRecorder
from tests.conftest import drop_prefix


class Noted(msgspec.Struct, frozen=True, tag=True):
    n: int


def _payloads(*numbers: int) -> list[tuple[str, bytes]]:
    return [("Noted", msgspec.json.encode(Noted(n))) for n in numbers]


class LogRecorderContract:
    @pytest.fixture
    async def recorder(self, redis_client, key_prefix):
        recorder = RedisLogRecorder(redis_client, StoreKeys(key_prefix))
        yield recorder
        recorder.close()
        await drop_prefix(redis_client, key_prefix)

    async def test_it_is_a_log_recorder(self, recorder):
        assert isinstance(recorder, LogRecorder)

    async def test_a_deal_without_a_log_answers_no_log(self, recorder):
        assert await recorder.read_raw("nobody") == []
        assert await recorder.read_many_raw([("nobody", 0)]) == [[]]
        assert await recorder.version("nobody") == 0
        assert await recorder.head_hash("nobody") is None
        assert await recorder.heads(["nobody"]) == [None]
        assert await recorder.has_logs(["nobody"]) == [False]
        assert not await recorder.has_log("nobody")
        assert await recorder.command_lookup("nobody", "c1") == (None, None)
        assert await recorder.command_result("nobody", "c1") is None

    async def test_the_recorded_head_is_the_last_record_hash(self, recorder):
        first = await recorder.append_encoded("d1", 0, _payloads(1, 2), command_id="c1")
        second = await recorder.append_encoded("d1", 2, _payloads(3))
        raws = await recorder.read_raw("d1")
        assert verify_chain(raws) is None
        assert (first.first_version, first.last_version, second.last_version) == (1, 2, 3)
        assert second.head_hash == record_hash(raws[-1]) == await recorder.head_hash("d1")
        assert await recorder.version("d1") == 3
        assert await recorder.heads(["d1", "nobody"]) == [StreamHead(3, record_hash(raws[-1])), None]
        assert await recorder.has_logs(["d1", "nobody"]) == [True, False]

    async def test_a_command_id_is_looked_up_with_the_log_version(self, recorder):
        await recorder.append_encoded("d1", 0, _payloads(1, 2), command_id="c1")
        await recorder.append_encoded("d1", 2, _payloads(3), command_id="c2")
        assert await recorder.command_lookup("d1", "c1") == ((1, 2), 3)
        assert await recorder.command_lookup("d1", "never") == (None, 3)
        assert await recorder.command_result("d1", "c2") == (3, 3)

    async def test_many_tails_in_one_call(self, recorder):
        await recorder.append_encoded("a", 0, _payloads(1, 2, 3))
        await recorder.append_encoded("b", 0, _payloads(1))
        tails = await recorder.read_many_raw([("a", 1), ("b", 1), ("a", 0)], count=2)
        assert [len(t) for t in tails] == [2, 0, 2]
        assert tails[0] == (await recorder.read_raw("a"))[1:]

    async def test_an_import_is_verbatim_and_only_into_an_empty_log(self, recorder):
        await recorder.append_encoded("src", 0, _payloads(1, 2), command_id="c1")
        raws = await recorder.read_raw("src")
        imported = await recorder.append_records("copy", raws)
        assert (imported.first_version, imported.last_version) == (1, 2)
        assert await recorder.read_raw("copy") == raws
        assert await recorder.head_hash("copy") == record_hash(raws[-1])
        with pytest.raises(VersionConflict):
            await recorder.append_records("copy", raws)
        assert await recorder.read_raw("copy") == raws

    async def test_an_import_keeps_what_each_command_id_produced(self, recorder):
        """A deal moved between stores (``dealstream import --all``) answers a retried command
        with its first result, as before the move, instead of making it a second move."""
        await recorder.append_encoded("src", 0, _payloads(1, 2), command_id="create")
        await recorder.append_encoded("src", 2, _payloads(3))  # a batch without a command id
        await recorder.append_encoded("src", 3, _payloads(4, 5, 6), command_id="0:c7")
        await recorder.append_encoded("src", 6, _payloads(7), command_id="1:c1")
        raws = await recorder.read_raw("src")
        await recorder.append_records("copy", raws)
        for command_id in ("create", "0:c7", "1:c1", "never"):
            assert await recorder.command_lookup("copy", command_id) == await recorder.command_lookup(
                "src", command_id
            )
        again = await recorder.append_encoded("copy", 7, _payloads(8), command_id="0:c7")
        assert again.duplicate and (again.first_version, again.last_version) == (4, 6)
        assert len(await recorder.read_raw("copy")) == 7
        assert await recorder.restore_command_ids("copy", raws) == 3  # idempotent

    async def test_a_forgotten_head_is_read_again(self, recorder, redis_client):
        """After ``forget`` an append at the true version chains onto the recorded head; after
        the deal's keys were removed behind it (and ``forget``), a new log starts at genesis."""
        await recorder.append_encoded("d1", 0, _payloads(1))
        recorder.forget("d1")
        await recorder.append_encoded("d1", 1, _payloads(2))
        assert verify_chain(await recorder.read_raw("d1")) is None
        await redis_client.delete(recorder.keys.events("d1"), recorder.keys.commands("d1"))
        recorder.forget("d1")
        again = await recorder.append_encoded("d1", 0, _payloads(3))
        assert again.last_version == 1
        assert decode_record((await recorder.read_raw("d1"))[0]).prev == GENESIS

    async def test_an_append_chains_onto_the_head_its_caller_folded(self, recorder):
        """With ``--processes N`` the process that appended last may be another one, so this
        recorder's head is stale; a caller that folded the log passes the head it folded. The
        script checks it: a head that is not the recorded one is a conflict and writes nothing."""
        first = await recorder.append_encoded("d1", 0, _payloads(1))
        recorder.forget("d1")  # as if another process had appended version 1
        with pytest.raises(VersionConflict):
            await recorder.append_encoded("d1", 1, _payloads(2), head_hash="f" * 64)
        assert len(await recorder.read_raw("d1")) == 1
        recorder.forget("d1")
        second = await recorder.append_encoded("d1", 1, _payloads(2), head_hash=first.head_hash)
        assert second.last_version == 2
        assert verify_chain(await recorder.read_raw("d1")) is None
