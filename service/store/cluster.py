"""Pipelined writes on Redis Cluster: each batch split by the node that owns each key's slot, sent
on a lean connection of our own per node, and acknowledged only once a replica has it.

Every write the store pipelines (the append script, meta ``HSET``, index ``ZADD``) names keys of
one slot, so it goes to that slot's master. A batch for one node ends with ``WAIT <replicas>
<timeout>``: Redis answers it when that many replicas have every write sent before it on the
same connection (WAIT counts per connection, which is why the batch and its WAIT share one), and
the writes of a batch that too few replicas confirmed are answered ``NotReplicated``: the caller
answers 503 and the client retries with the same command id, which finds its first append if it
survived and appends it again if a failover lost it. So a master failover loses no command the
service acknowledged.

``MOVED`` (a slot that moved) refreshes the slot map and sends the command again to its new
master; ``ASK`` (a slot being migrated) sends it once to the node named, after ``ASKING``. A node
that cannot be reached (a master that died: its replica takes over within the cluster's node
timeout) refreshes the slot map and sends again after a short pause, until ``timeout``. Sending
again is safe for every command here: the append script checks the expected version and the
command id before it writes, and the meta and index writes are idempotent.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from typing import Any

from redis.crc import key_slot
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from service.store.outages import is_outage, is_outage_reply
from service.store.resp import RespConnection


class NotReplicated(RedisConnectionError):
    """The write reached its master but no replica confirmed it within the WAIT timeout."""


def command_key(args: tuple[Any, ...]) -> Any:
    """The key that routes a pipelined command (EVALSHA/EVAL: its first key)."""
    name = args[0].upper() if isinstance(args[0], str) else args[0]
    if name in ("EVALSHA", "EVAL"):
        return args[3]
    return args[1]


class ClusterWrites:
    """``run(commands)``: the replies in order, each command sent to its slot's master."""

    def __init__(
        self,
        cluster: Any,
        *,
        wait_replicas: int = 1,
        wait_timeout_ms: int = 1000,
        timeout: float | None = None,
    ) -> None:
        self.cluster = cluster
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        # how long a batch may wait out a failover: the client's own timeout (--redis-timeout)
        kwargs = getattr(cluster, "connection_kwargs", {}) or {}
        self.timeout = timeout if timeout is not None else (kwargs.get("socket_timeout") or 10.0)
        self._conns: dict[tuple[str, int], RespConnection] = {}
        self._refresh_lock = asyncio.Lock()

    def _settings(self, host: str, port: int) -> dict[str, Any]:
        kwargs = getattr(self.cluster, "connection_kwargs", {}) or {}
        return {
            "host": host,
            "port": port,
            "socket_timeout": kwargs.get("socket_timeout") or self.timeout,
            "socket_connect_timeout": kwargs.get("socket_connect_timeout") or 5.0,
            "username": kwargs.get("username"),
            "password": kwargs.get("password"),
        }

    def _conn(self, address: tuple[str, int]) -> RespConnection:
        conn = self._conns.get(address)
        if conn is None:
            conn = self._conns[address] = RespConnection(self._settings(*address))
        return conn

    async def _master_of(self, key: Any) -> tuple[str, int]:
        if not self.cluster.nodes_manager.slots_cache:
            await self._refresh()
        node = self.cluster.nodes_manager.get_node_from_slot(
            key_slot(key.encode() if isinstance(key, str) else key)
        )
        return node.host, node.port

    async def _refresh(self) -> None:
        async with self._refresh_lock:
            await self.cluster.nodes_manager.initialize()

    async def run(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        replies: list[Any] = [None] * len(commands)
        pending = list(range(len(commands)))
        asked: dict[int, tuple[str, int]] = {}
        outage: dict[int, Exception] = {}  # the last "not now" answer of a command sent again
        deadline = time.monotonic() + self.timeout
        pause = 0.05
        while pending:
            groups: dict[tuple[tuple[str, int], bool], list[int]] = defaultdict(list)
            for i in pending:
                if i in asked:
                    groups[(asked.pop(i), True)].append(i)
                else:
                    groups[(await self._master_of(command_key(commands[i])), False)].append(i)
            results = await asyncio.gather(
                *(
                    self._send(address, [commands[i] for i in idx], ask)
                    for (address, ask), idx in groups.items()
                ),
                return_exceptions=True,
            )
            retry: list[int] = []
            refresh = False
            for ((_address, _ask), idx), result in zip(groups.items(), results, strict=True):
                if isinstance(result, RedisTimeoutError):  # stalled: not retried, as on one server
                    for i in idx:
                        replies[i] = result
                    continue
                if isinstance(result, (RedisConnectionError, OSError)):
                    retry += idx  # the node is gone (a failover) or the connection broke
                    refresh = True
                    continue
                if isinstance(result, BaseException):
                    raise result
                answers, confirmed = result
                for i, answer in zip(idx, answers, strict=True):
                    if is_outage_reply(answer):  # mid-failover (CLUSTERDOWN, TRYAGAIN, LOADING…)
                        outage[i] = answer
                        refresh = True
                        retry.append(i)
                    elif isinstance(answer, ResponseError) and str(answer).startswith(("MOVED ", "ASK ")):
                        kind, _slot, where = str(answer).split(" ", 2)
                        host, _, port = where.rpartition(":")
                        if kind == "ASK":
                            asked[i] = (host, int(port))
                        else:
                            refresh = True
                        retry.append(i)
                    elif (
                        confirmed is not None
                        and confirmed < self.wait_replicas
                        and not isinstance(answer, Exception)
                    ):
                        replies[i] = NotReplicated(
                            f"{confirmed} of {self.wait_replicas} replicas confirmed the write in "
                            f"{self.wait_timeout_ms} ms; retry with the same command id"
                        )
                    else:
                        replies[i] = answer
            if retry and time.monotonic() > deadline:
                late = RedisConnectionError("the cluster did not take the write in time")
                for i in retry:
                    replies[i] = outage.get(i, late)
                break
            if refresh and retry:
                await asyncio.sleep(pause)
                pause = min(0.5, pause * 2)
                try:
                    await self._refresh()
                except Exception as exc:  # noqa: BLE001 - an outage is waited out, a bug is not
                    if not is_outage(exc):
                        raise  # else the next round tries again
            pending = retry
        return replies

    async def _send(
        self, address: tuple[str, int], commands: list[tuple[Any, ...]], ask: bool = False
    ) -> tuple[list[Any], int | None]:
        """The replies of ``commands`` on ``address`` and how many replicas confirmed them.
        ``ask``: each command is preceded by ``ASKING`` (a slot being migrated to this node)."""
        batch: list[tuple[Any, ...]] = []
        for command in commands:
            if ask:
                batch.append(("ASKING",))
            batch.append(command)
        if self.wait_replicas:
            batch.append(("WAIT", self.wait_replicas, self.wait_timeout_ms))
        answers = await self._conn(address).pipeline(batch)
        confirmed = None
        if self.wait_replicas:
            last = answers.pop()
            confirmed = int(last) if isinstance(last, int) else 0
        if ask:
            answers = answers[1::2]
        return answers, confirmed

    def close(self) -> None:
        for conn in self._conns.values():
            conn.close()
        self._conns.clear()
