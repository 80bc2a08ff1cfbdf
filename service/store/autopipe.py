"""Auto-pipelining: commands issued while another batch is on the wire go out together.

A redis-py round trip costs this process about 100 µs of CPU (connection checkout, packing,
parsing, a future and a timer), far more than Redis spends running the append script. With many
deals active at once, the appends that arrive while one pipeline is in flight wait for it and
then leave as the next pipeline, so the client pays that cost once per batch instead of once per
command. An idle server sends each command alone, one event-loop turn after it was issued.

On a plain TCP or unix-socket client the batches go over a connection of our own
(``service.resp``), packed and parsed in C; on anything else (fakeredis, TLS, a cluster) through
a redis-py pipeline.

Every command keeps its own reply or its own error (``raise_on_error=False``): one refused
script never fails its neighbours. Only a failure of the whole round trip (connection lost,
timeout) reaches every caller of that batch; a timeout also reaches every command queued behind
it, since they waited on the same stalled server and would only wait a second timeout on it: so
no caller waits more than one timeout. Order is kept, but nothing here relies on it: each
append is one atomic script guarded by its own version check.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from service.store.cluster import ClusterWrites, NotReplicated
from service.store.resp import RespConnection

MAX_PIPELINE = 256


class AutoPipeline:
    """``await call(*args)`` runs ``execute_command(*args)``, batched with concurrent calls."""

    def __init__(
        self,
        redis: Any,
        max_batch: int = MAX_PIPELINE,
        *,
        resend: bool = False,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 1000,
    ) -> None:
        """``resend``: after a lost connection, send the batch once more on a new one (as
        redis-py does for its own calls). Only for commands that are safe to run twice.
        ``wait_replicas``: a batch counts as written only once this many replicas confirm it
        (``WAIT`` on the batch's own connection); otherwise its writes answer ``NotReplicated``."""
        self.redis = redis
        self.max_batch = max_batch
        self.resend = resend
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self._cluster = (
            ClusterWrites(redis, wait_replicas=wait_replicas, wait_timeout_ms=wait_timeout_ms)
            if isinstance(redis, RedisCluster)
            else None
        )
        self._queue: deque[tuple[tuple[Any, ...], asyncio.Future[Any]]] = deque()
        self._sender: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.batches = 0  # how many pipelines went out, and how many commands (for benchmarks)
        self.commands = 0
        # metrics: ``observe_append_batch(commands, seconds)`` after each round trip
        # and ``observe_append(seconds)`` per command, from its queueing to its reply; None: none
        self.observer: Any = None
        # a plain TCP or unix-socket client gets its own lean connection; others go through redis-py
        self._resp = RespConnection.for_client(redis)

    def call(self, *args: Any) -> asyncio.Future[Any]:
        """Queue one command; the future holds its reply, or raises its error."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a store outliving its event loop (tests) starts afresh
            self._loop, self._queue, self._sender = loop, deque(), None
            self._resp = RespConnection.for_client(self.redis)
        future = loop.create_future()
        if self.observer is not None:
            queued, observe = time.perf_counter(), self.observer.observe_append
            future.add_done_callback(lambda _f: observe(time.perf_counter() - queued))
        self._queue.append((args, future))
        if self._sender is None or self._sender.done():
            self._sender = loop.create_task(self._send())
        return future

    async def _send(self) -> None:
        """Drain the queue, one pipeline at a time, while callers keep adding to it."""
        queue = self._queue
        while queue:
            batch = [queue.popleft() for _ in range(min(len(queue), self.max_batch))]
            batch = [(args, future) for args, future in batch if not future.cancelled()]
            if not batch:
                continue
            sent = time.perf_counter()
            try:
                replies = await self._round_trip([args for args, _ in batch])
            except BaseException as exc:  # the whole round trip failed: every caller hears it
                if isinstance(exc, RedisTimeoutError):  # and so does everyone who waited behind it
                    batch += [queue.popleft() for _ in range(len(queue))]
                for _, future in batch:
                    if not future.done():
                        future.set_exception(_copy_error(exc))
                if isinstance(exc, asyncio.CancelledError):
                    for _, future in queue:
                        future.cancel()
                    queue.clear()
                    raise
                continue
            self.batches += 1
            self.commands += len(batch)
            if self.observer is not None:
                self.observer.observe_append_batch(len(batch), time.perf_counter() - sent)
            for (_, future), reply in zip(batch, replies, strict=True):
                if future.done():
                    continue
                if isinstance(reply, Exception):
                    future.set_exception(reply)
                else:
                    future.set_result(reply)

    async def _round_trip(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        if self._cluster is not None:
            return await self._cluster.run(commands)
        if self._resp is not None:
            batch = (
                commands + [("WAIT", self.wait_replicas, self.wait_timeout_ms)]
                if self.wait_replicas
                else commands
            )
            try:
                replies = await self._resp.pipeline(batch)
            except RedisConnectionError:
                if not self.resend:
                    raise
                replies = await self._resp.pipeline(batch)  # on a new connection
            if self.wait_replicas:
                confirmed = replies.pop()
                if not isinstance(confirmed, int) or confirmed < self.wait_replicas:
                    missing = NotReplicated(
                        f"{confirmed} of {self.wait_replicas} replicas confirmed the write"
                    )
                    replies = [r if isinstance(r, Exception) else missing for r in replies]
            return replies
        if len(commands) == 1:  # alone: a plain call, no pipeline object
            try:
                return [await self.redis.execute_command(*commands[0])]
            except ResponseError as exc:  # Redis answered this command with an error
                return [exc]
        pipe = self.redis.pipeline(transaction=False)
        for args in commands:
            pipe.execute_command(*args)
        return await pipe.execute(raise_on_error=False)

    def close(self) -> None:
        """Close the lean connections, if any (the next call opens them again)."""
        if self._resp is not None:
            self._resp.close()
        if self._cluster is not None:
            self._cluster.close()


def _copy_error(exc: BaseException) -> BaseException:
    """Each waiting caller gets its own exception object (tracebacks are per raise)."""
    if isinstance(exc, asyncio.CancelledError):
        return ConnectionError("the Redis pipeline was cancelled")
    try:
        copy = type(exc)(*exc.args)
    except Exception:
        return exc
    copy.__cause__ = exc
    return copy
