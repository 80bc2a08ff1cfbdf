"""What a store that cannot answer now raises: one list for the HTTP answer (503, DS-12), the bot
runner and the stream reader, which wait these out.

A Redis Cluster in a failover answers more than a broken connection: ``CLUSTERDOWN`` while a
master is marked failed and no replica has taken over (every slot, with full coverage required),
``TRYAGAIN`` and ``MASTERDOWN`` for a slot in the middle of it, ``LOADING`` from a node that came
back and reads its data, ``READONLY`` from a master that came back as a replica. redis-py raises
these as ``ResponseError`` subclasses, not as connection errors, so a list of connection errors
alone turned them into 500s.
"""

from __future__ import annotations

from redis import exceptions as rx

# error replies that mean "not now": the same command, sent again later, may be answered
OUTAGE_REPLIES: dict[str, type[rx.RedisError]] = {
    "CLUSTERDOWN": rx.ClusterDownError,
    "MASTERDOWN": rx.MasterDownError,
    "TRYAGAIN": rx.TryAgainError,
    "LOADING": rx.BusyLoadingError,
    "READONLY": rx.ReadOnlyError,
}

STORE_OUTAGES: tuple[type[BaseException], ...] = (
    rx.ConnectionError,  # with BusyLoadingError (LOADING)
    rx.TimeoutError,
    rx.ClusterError,  # with ClusterDownError, MasterDownError
    rx.TryAgainError,
    rx.ReadOnlyError,
    rx.SlotNotCoveredError,  # the client's slot map has no node for the key (mid-failover)
    ConnectionError,  # a socket's own (refused, reset), and the archive's ArchiveUnavailable
)


def is_outage(exc: BaseException) -> bool:
    """``STORE_OUTAGES``, and the cluster client's "cannot be connected" (no startup node answered
    its first look at the slots), which shares its class with programming errors."""
    if isinstance(exc, STORE_OUTAGES):
        return True
    return isinstance(exc, rx.RedisClusterException) and "cannot be connected" in str(exc)


def reply_error(message: str) -> rx.RedisError:
    """The redis-py exception for an error reply, as redis-py's own parser would raise it."""
    if message.startswith("NOSCRIPT"):
        return rx.NoScriptError(message)
    kind = OUTAGE_REPLIES.get(message.split(" ", 1)[0])
    if kind is not None:
        return kind(message.split(" ", 1)[1] if " " in message else message)
    return rx.ResponseError(message)


def is_outage_reply(reply: object) -> bool:
    """An error reply (from ``reply_error``) that a later retry may see answered."""
    return isinstance(reply, tuple(OUTAGE_REPLIES.values()))


# an outage's kind, for the metrics (a short fixed list: a label of bounded cardinality)
_KINDS: tuple[tuple[type[BaseException], str], ...] = (
    (rx.BusyLoadingError, "loading"),
    (rx.ClusterDownError, "clusterdown"),
    (rx.MasterDownError, "masterdown"),
    (rx.TryAgainError, "tryagain"),
    (rx.ReadOnlyError, "readonly"),
    (rx.SlotNotCoveredError, "slot_not_covered"),
    (rx.TimeoutError, "timeout"),
    (TimeoutError, "timeout"),
    (rx.ConnectionError, "connection"),
    (rx.ClusterError, "cluster"),
    (ConnectionError, "connection"),
)


def outage_kind(exc: BaseException) -> str:
    """One of a fixed list of words for what kind of outage ``exc`` is (``other`` if none)."""
    name = type(exc).__name__
    if name == "NotReplicated":
        return "not_replicated"
    if name == "ArchiveUnavailable":
        return "archive"
    for kind, word in _KINDS:
        if isinstance(exc, kind):
            return word
    return "other"
