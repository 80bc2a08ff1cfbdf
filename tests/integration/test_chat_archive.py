"""A deal's chat leaves Redis with the deal: the archiver copies it beside the archived log,
checks the copy, and removes the chat's keys in the same script as the deal's; a message said
between the copy and the removal makes the removal refuse, so nothing said is lost; an archived
deal's chat is read from the archive and takes no more messages (DS-43). The spectators' room
goes the same way, under its own archive row, never mixed with the seats'. Both archive backends."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from service.app.archive.archiver import Archiver
from service.app.chat import WATCH_SUFFIX, ChatMessage, WatcherMessage
from service.store.chat import ChatStore
from tests.integration.archive_helpers import in_redis
from tests.integration.test_archive_reads import archive, client, play_finished, store  # noqa: F401

pytestmark = pytest.mark.redis


def _said(seat: int, text: str, at: int) -> ChatMessage:
    return ChatMessage(seat=seat, name=f"P{seat}", text=text, at=at)


async def test_the_chat_moves_into_the_archive_with_its_deal(store, archive):  # noqa: F811
    [original] = await play_finished(store, ["paohuzi"])
    deal_id = original.deal_id
    chat = ChatStore(store.redis, store.prefix, store.reader.archived)
    for i, text in enumerate(["good luck", "好牌", "gg"]):
        await chat.add(deal_id, _said(i % 3, text, 1000 + i))
    before = await chat.messages(deal_id)
    assert [m.text for m in before] == ["good luck", "好牌", "gg"]

    counts = await Archiver(store, archive, older_than=0).archive_once()
    assert counts.archived == 1 and not await in_redis(store, deal_id)
    # the chat's keys went with the deal's; the chat reads the same from the archive
    assert not await store.redis.exists(chat.key(deal_id), chat.counter(deal_id))
    assert await chat.messages(deal_id) == before
    assert (await archive.chat(deal_id))[0] == 3
    # and is closed: a message now would stay behind in Redis
    with pytest.raises(RuleViolation) as refused:
        await chat.add(deal_id, _said(0, "anyone?", 2000))
    assert refused.value.rule_id == "DS-43"
    assert not await store.redis.exists(chat.key(deal_id), chat.counter(deal_id))
    assert await chat.messages(deal_id) == before


async def test_a_word_said_after_the_copy_stops_the_removal_and_is_copied_next(store, archive):  # noqa: F811
    [original] = await play_finished(store, ["mcr"])
    deal_id = original.deal_id
    chat = ChatStore(store.redis, store.prefix, store.reader.archived)
    await chat.add(deal_id, _said(1, "well played", 1))
    archiver = Archiver(store, archive, older_than=0)
    # the copy as the archiver makes it, then a word, then the removal: refused (4), nothing gone
    finished_ms = int(await store.redis.zscore(store.keys.finished_index, deal_id))
    deal = await archiver._snapshot(deal_id, finished_ms)
    said, messages = await store.removal.chat_snapshot(deal_id)
    await archive.put(deal)
    await archive.put_chat(deal_id, said, messages)
    await chat.add(deal_id, _said(2, "one more?", 2))
    token = "t" * 24
    assert await store.indexes.take_archive_lease(deal_id, token, 60_000)
    answer = await store.removal.remove_archived(
        deal_id, token, deal.head_hash, len(deal.records), deal.meta, said
    )
    assert answer == 4 and await in_redis(store, deal_id)
    await store.indexes.release_archive_lease(deal_id, token)
    # the archiver's round copies the chat again, with the late word, and then removes
    counts = await archiver.archive_once()
    assert (counts.archived, counts.already) == (1, 1) and not await in_redis(store, deal_id)
    assert [m.text for m in await chat.messages(deal_id)] == ["well played", "one more?"]
    assert (await archive.chat(deal_id))[0] == 2


async def test_a_deal_without_chat_archives_no_chat(store, archive):  # noqa: F811
    [original] = await play_finished(store, ["paohuzi"])
    await Archiver(store, archive, older_than=0).archive_once()
    assert await archive.chat(original.deal_id) is None
    assert await archive.chat(original.deal_id + WATCH_SUFFIX) is None
    assert await ChatStore(store.redis, store.prefix, store.reader.archived).messages(original.deal_id) == []


def _watched(name: str, text: str, at: int) -> WatcherMessage:
    return WatcherMessage(name=name, text=text, at=at)


async def test_the_spectators_room_moves_into_the_archive_apart_from_the_seats(store, archive):  # noqa: F811
    [original] = await play_finished(store, ["paohuzi"])
    deal_id = original.deal_id
    chat = ChatStore(store.redis, store.prefix, store.reader.archived)
    room = ChatStore(store.redis, store.prefix, store.reader.archived, room="watch")
    assert room.key(deal_id) == store.keys.watch_chat(deal_id) != chat.key(deal_id)
    await chat.add(deal_id, _said(0, "seats only", 1))
    for i, text in enumerate(["from the rail", "旁观"]):
        await room.add(deal_id, _watched(f"W{i}", text, 10 + i))
    before = await room.watcher_messages(deal_id)
    assert [m.text for m in before] == ["from the rail", "旁观"]

    counts = await Archiver(store, archive, older_than=0).archive_once()
    assert counts.archived == 1 and not await in_redis(store, deal_id)
    # both rooms' keys left with the deal; each reads the same from its own archive row
    assert not await store.redis.exists(room.key(deal_id), room.counter(deal_id))
    assert not await store.redis.exists(chat.key(deal_id), chat.counter(deal_id))
    assert await room.watcher_messages(deal_id) == before
    assert [m.text for m in await chat.messages(deal_id)] == ["seats only"]
    assert (await archive.chat(deal_id + WATCH_SUFFIX))[0] == 2
    assert (await archive.chat(deal_id))[0] == 1
    with pytest.raises(RuleViolation) as refused:
        await room.add(deal_id, _watched("W9", "late", 99))
    assert refused.value.rule_id == "DS-43"
    assert not await store.redis.exists(room.key(deal_id), room.counter(deal_id))


async def test_a_word_in_the_room_after_the_copy_stops_the_removal(store, archive):  # noqa: F811
    [original] = await play_finished(store, ["mcr"])
    deal_id = original.deal_id
    room = ChatStore(store.redis, store.prefix, store.reader.archived, room="watch")
    await room.add(deal_id, _watched("Kim", "go on", 1))
    archiver = Archiver(store, archive, older_than=0)
    finished_ms = int(await store.redis.zscore(store.keys.finished_index, deal_id))
    deal = await archiver._snapshot(deal_id, finished_ms)
    watch_said, watched = await store.removal.chat_snapshot(deal_id, watch=True)
    assert watch_said == 1
    await archive.put(deal)
    await archive.put_chat(deal_id + WATCH_SUFFIX, watch_said, watched)
    await room.add(deal_id, _watched("Lee", "late word", 2))
    token = "t" * 24
    assert await store.indexes.take_archive_lease(deal_id, token, 60_000)
    answer = await store.removal.remove_archived(
        deal_id, token, deal.head_hash, len(deal.records), deal.meta, 0, watch_said
    )
    assert answer == 4 and await in_redis(store, deal_id)
    await store.indexes.release_archive_lease(deal_id, token)
    counts = await archiver.archive_once()
    assert (counts.archived, counts.already) == (1, 1) and not await in_redis(store, deal_id)
    assert [m.text for m in await room.watcher_messages(deal_id)] == ["go on", "late word"]
    assert (await archive.chat(deal_id + WATCH_SUFFIX))[0] == 2
    assert await archive.chat(deal_id) is None  # the seats said nothing: no row of theirs
