"""What ``dealstream serve`` checks before it listens, each with a sentence that says
what is wrong and what to do.

* **The data directory** (the embedded Redis's, and the SQLite archive's directory) must be
  writable: else the start is refused.
* **Replicas**: with ``--wait-replicas N`` above 0 every master must have N replicas online (the
  masters from ``CLUSTER NODES``, each one's ``INFO replication``), else no append could ever be
  acknowledged: the start is refused, naming the master and ``--wait-replicas 0``.
* **Durability**: ``CONFIG GET appendonly`` on every master: ``aof`` when all keep an
  append-only file, ``none`` when one does not (the service starts and logs a warning: a restart
  of that Redis loses the deals since its last snapshot), ``unknown`` when Redis refuses the
  command (a managed Redis often does).
* **The archive** is opened and asked once with a short timeout: ``ok``, or ``unreachable``
  (the service starts, ``/health`` says ``"degraded": true``; finished deals wait in Redis and
  ``ServiceStatus.watch_archive`` asks again until it answers).

``/health`` and ``/ready`` show what was found (``service.app.status``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError, ResponseError

from service.store.connection import cluster_nodes, is_cluster_url

log = logging.getLogger("dealstream.startup")
CHECK_TIMEOUT_S = 5.0  # one Redis answer at start-up
ARCHIVE_TIMEOUT_S = 3.0  # the archive's first answer at start-up


class Refused(Exception):
    """The service must not start; the message is one sentence that says why and what to do."""


@dataclass(frozen=True)
class StartupReport:
    durability: str  # "aof" | "none" | "unknown"
    archive: str  # "ok" | "unreachable" | "off"


def check_writable(path: Path | str, what: str, hint: str) -> None:
    """``path`` (made if missing) takes a new file, else ``Refused``."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".dealstream-write-check-"):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise Refused(f"{what} {path} cannot be written ({reason}); {hint}") from None


def check_data_dirs(
    redis_url: str | None, archive_url: str | None, data_dir: str | None, archive: bool
) -> None:
    """The directories this process will write: the embedded Redis's data directory (no Redis
    URL) and the SQLite archive's (no archive URL: the data directory; ``sqlite:///path``: its
    directory)."""
    from service.store.embedded import DEFAULT_DATA_DIR

    data = Path(data_dir or os.environ.get("DEALSTREAM_DATA_DIR") or DEFAULT_DATA_DIR)
    hint = "give --data-dir (or DEALSTREAM_DATA_DIR) a directory this user may write"
    if not (redis_url or os.environ.get("DEALSTREAM_REDIS_URL")):
        check_writable(data, "the data directory", hint)
    if not archive:
        return
    archive_url = archive_url or os.environ.get("DEALSTREAM_ARCHIVE_URL") or None
    if archive_url is None:
        check_writable(data, "the data directory (the SQLite archive's)", hint)
    elif archive_url.startswith("sqlite:///"):
        where = Path(archive_url.removeprefix("sqlite://")).parent
        check_writable(where, "the SQLite archive's directory", "give --archive a path this user may write")


def _client(host: str, port: int, url: str | None = None) -> Any:
    kwargs = {"socket_timeout": CHECK_TIMEOUT_S, "socket_connect_timeout": CHECK_TIMEOUT_S}
    if url is not None:
        return aioredis.from_url(url, **kwargs)
    return aioredis.Redis(host=host, port=port, **kwargs)


def parse_cluster_nodes(text: str) -> dict[str, dict[str, Any]]:
    """``CLUSTER NODES`` → {master address: {"slots": "0-5460 …", "replicas": [addresses]}} for
    every master that serves slots and is not failed; a replica counts when it is not failed."""
    masters: dict[str, dict[str, Any]] = {}
    replicas: list[tuple[str, str]] = []
    by_id: dict[str, str] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 8:
            continue
        node_id, address, flags = parts[0], parts[1].split("@")[0], set(parts[2].split(","))
        if "fail" in flags or "noaddr" in flags or "handshake" in flags:
            continue
        by_id[node_id] = address
        if "master" in flags and len(parts) > 8:
            masters[node_id] = {"address": address, "slots": " ".join(parts[8:]), "replicas": []}
        elif "slave" in flags and parts[7] == "connected":
            replicas.append((parts[3], address))
    for master_id, address in replicas:
        if master_id in masters:
            masters[master_id]["replicas"].append(address)
    return {m["address"]: {"slots": m["slots"], "replicas": m["replicas"]} for m in masters.values()}


async def _masters(url: str) -> tuple[list[tuple[str, int]], dict[str, dict[str, Any]] | None]:
    """The addresses to ask about durability, and (on a cluster) what ``CLUSTER NODES`` says."""
    if not is_cluster_url(url):
        return [], None
    last: Exception | None = None
    for host, port in cluster_nodes(url):
        client = _client(host, port)
        try:
            raw = await client.execute_command("CLUSTER", "NODES")
        except (RedisError, OSError) as exc:
            last = exc
            continue
        finally:
            await client.aclose()
        text = raw.decode() if isinstance(raw, bytes) else str(raw)
        # a node that has met no other one names itself ":port": it is the node we asked
        nodes = {(f"{host}{a}" if a.startswith(":") else a): n for a, n in parse_cluster_nodes(text).items()}
        addresses = []
        for address in nodes:
            h, _, p = address.rpartition(":")
            addresses.append((h, int(p)))
        return addresses, nodes
    raise Refused(
        f"no node of the Redis Cluster {url} answers ({last}); check --redis and that the cluster runs"
    )


async def _replicas_online(address: str, gossiped: int) -> int:
    """Replicas online at the master ``address`` (``INFO replication``), else what the cluster's
    gossip said."""
    host, _, port = address.rpartition(":")
    client = _client(host, int(port))
    try:
        info = await client.info("replication")
    except (RedisError, OSError):
        return gossiped
    finally:
        await client.aclose()
    return sum(
        1
        for k, v in info.items()
        if k.startswith("slave") and isinstance(v, dict) and v.get("state") == "online"
    )


async def _appendonly(client: Any) -> str:
    try:
        answer = await client.config_get("appendonly")
    except ResponseError:  # CONFIG refused (a managed Redis, an ACL): we cannot tell
        return "unknown"
    value = answer.get("appendonly") if isinstance(answer, dict) else None
    if isinstance(value, bytes):
        value = value.decode()
    return {"yes": "aof", "no": "none"}.get(str(value).lower(), "unknown")


def _where(url: str) -> str:
    return url.split("@")[-1]  # never a password


async def check_store(url: str, wait_replicas: int | None) -> str:
    """Refuse a store that could acknowledge no append (replicas missing for ``--wait-replicas``);
    the durability of what it acknowledges: ``aof``, ``none`` or ``unknown``."""
    cluster = is_cluster_url(url)
    wait = wait_replicas if wait_replicas is not None else (1 if cluster else 0)
    durabilities: list[str] = []
    if cluster:
        addresses, nodes = await _masters(url)
        if wait > 0:
            for address, node in sorted((nodes or {}).items()):
                # the master's own INFO: CLUSTER NODES on another node may lag the gossip by seconds
                count = await _replicas_online(address, len(node["replicas"]))
                if count < wait:
                    have = "no replica" if not count else f"only {count} replicas"
                    raise Refused(
                        f"the cluster's master {address} (slots {node['slots']}) has {have}, so with "
                        f"--wait-replicas {wait} no append it takes could be acknowledged; add replicas, "
                        "or start with --wait-replicas 0 (acknowledged writes then live on one master)"
                    )
        for host, port in addresses:
            client = _client(host, port)
            try:
                durabilities.append(await _appendonly(client))
            except (RedisError, OSError):
                durabilities.append("unknown")
            finally:
                await client.aclose()
    else:
        client = _client("", 0, url)
        try:
            try:
                await client.ping()
            except (RedisError, OSError) as exc:
                raise Refused(
                    f"Redis at {_where(url)} does not answer ({exc}); check --redis and that it runs"
                ) from None
            if wait > 0:
                info = await client.info("replication")
                have = int(info.get("connected_slaves", 0) or 0)
                if have < wait:
                    raise Refused(
                        f"Redis at {_where(url)} has {have} replicas connected, so with --wait-replicas "
                        f"{wait} no append could be acknowledged; add a replica, or start with "
                        "--wait-replicas 0"
                    )
            durabilities.append(await _appendonly(client))
        finally:
            await client.aclose()
    if "none" in durabilities:
        return "none"
    if not durabilities or "unknown" in durabilities:
        return "unknown"
    return "aof"


async def check_archive(archive: Any) -> str:
    """``ok`` when the archive answers one read within ``ARCHIVE_TIMEOUT_S``, else ``unreachable``."""
    if archive is None:
        return "off"
    try:
        await asyncio.wait_for(archive.meta("startup-check"), ARCHIVE_TIMEOUT_S)
    except Exception as exc:  # noqa: BLE001 - whatever it is, the archive did not answer
        log.warning(
            "the archive does not answer (%s): the service starts; finished deals stay in Redis "
            "until it answers, reads of archived deals answer 503, /health says degraded",
            str(exc) or type(exc).__name__,
        )
        return "unreachable"
    return "ok"


async def run(url: str, settings: Any) -> StartupReport:
    """Every check on the store and the archive ``settings`` name (``Refused`` to stop)."""
    durability = await check_store(url, settings.wait_replicas)
    if durability == "none":
        log.warning(
            "Redis at %s keeps no append-only file (appendonly no): a restart of it loses every "
            'deal since its last snapshot; /health says "durability": "none" (docs/runbook.md)',
            _where(url),
        )
    elif durability == "unknown":
        log.warning(
            "Redis at %s does not say whether it keeps an append-only file (CONFIG GET refused)", _where(url)
        )
    archive = settings.open_archive()
    try:
        state = await check_archive(archive)
    finally:
        if archive is not None:
            try:
                await archive.close()
            except Exception:  # noqa: BLE001 - closing what never connected
                pass
    return StartupReport(durability=durability, archive=state)
