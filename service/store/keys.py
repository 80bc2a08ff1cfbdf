"""The store's Redis key layout, in one place.

Every part of the store (the log, the meta and indexes, the archive hand-off) names keys through
this one object, so a key a part writes is the key another part reads and deletes. The names
are what old data in Redis is stored under: they never change.

A deal's own keys share the hash tag ``{<deal>}``, so on Redis Cluster they live in one slot
and one script can touch them all; the indexes are one sorted set each (see ``DealIndexes``).
"""

from __future__ import annotations


class StoreKeys:
    """Key names under one prefix:
    ``<prefix>:{<deal>}:events|meta|cmds|presence|archiving|chat|chat:n|chat:watch|chat:watch:n``
    and ``<prefix>:deals``, ``…:deals:public``, ``…:deals:finished``, ``…:deals:clocks``,
    ``…:deals:open`` (with ``…:deals:open:built``); a
    player's deals ``<prefix>:{player:<digest>}:deals`` and the salt of those digests
    ``<prefix>:players:salt``."""

    __slots__ = (
        "prefix", "index", "public_index", "finished_index", "clocks", "player_salt", "open_tables",
        "open_tables_built",
    )  # fmt: skip

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.index = f"{prefix}:deals"
        # deals anyone may find: finished ones, and live ones open to spectators
        self.public_index = f"{prefix}:deals:public"
        # finished deals scored by their finish time (ms): what the archiver works from
        self.finished_index = f"{prefix}:deals:finished"
        # live deals with a clock, scored by when to look at them next (ms, TB-2.5)
        self.clocks = f"{prefix}:deals:clocks"
        # lobby tables with a free seat, scored by creation time (ms): what the lobby reads
        self.open_tables = f"{prefix}:deals:open"
        # set once the open tables of a store from before that index were listed in it
        self.open_tables_built = f"{prefix}:deals:open:built"
        # the server-wide salt of player-key digests (``service.store.player_index``)
        self.player_salt = f"{prefix}:players:salt"

    def events(self, deal_id: str) -> str:
        """The deal's stream, one entry per record; also the channel its appends ring."""
        return f"{self.prefix}:{{{deal_id}}}:events"

    def commands(self, deal_id: str) -> str:
        """The append script's hash: the head (``v``, ``h``) and each command id's versions."""
        return f"{self.prefix}:{{{deal_id}}}:cmds"

    def meta(self, deal_id: str) -> str:
        return f"{self.prefix}:{{{deal_id}}}:meta"

    def presence(self, deal_id: str) -> str:
        return f"{self.prefix}:{{{deal_id}}}:presence"

    def chat(self, deal_id: str) -> str:
        """The deal's chat (newest messages, oldest first): beside its log, never in it; also the
        channel a new message rings."""
        return f"{self.prefix}:{{{deal_id}}}:chat"

    def chat_said(self, deal_id: str) -> str:
        """How many chat messages the deal was ever said (the chat list keeps the newest)."""
        return f"{self.prefix}:{{{deal_id}}}:chat:n"

    def watch_chat(self, deal_id: str) -> str:
        """The spectators' room of the deal (newest messages, oldest first), apart from the
        seats' chat; also the channel a new message in it rings."""
        return f"{self.prefix}:{{{deal_id}}}:chat:watch"

    def watch_chat_said(self, deal_id: str) -> str:
        """How many messages the spectators' room was ever said."""
        return f"{self.prefix}:{{{deal_id}}}:chat:watch:n"

    def archive_lease(self, deal_id: str) -> str:
        return f"{self.prefix}:{{{deal_id}}}:archiving"

    def player(self, digest: str) -> str:
        """The deals (and matches) a player took a seat in, by the digest of its player key; a
        hash tag of its own, and no deal's: the archiver never removes it with a deal."""
        return f"{self.prefix}:{{player:{digest}}}:deals"
