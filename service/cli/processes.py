"""``dealstream serve --processes N``: N service processes on one port, and how each one stops.

The parent (``supervise``) owns what there is one of: the embedded Redis (started once, before
any worker, and stopped last) and the settings. It starts N workers, each ``python -m
service.cli serve`` with the parent's own arguments plus ``--processes 1`` and the store's URL in
``DEALSTREAM_REDIS_URL`` (the one the parent resolved: ``--redis``, a variable, or the embedded
server's socket; never on a command line ``ps`` shows): a whole
process of today's kind (its own stream hub, fold cache, bot runner and review workers over the
same store) that binds the port with ``SO_REUSEPORT``, so the kernel spreads new connections over
them. Nothing is forked from a process that has threads or an event loop: each worker is a fresh
interpreter (``subprocess``), told which it is by ``DEALSTREAM_SERVE_WORKER`` (its index and the
pipe on which it says it listens; taken out of its environment at once, so nothing it starts
inherits it). A worker dies with the parent (``PR_SET_PDEATHSIG``), however the parent dies.

The parent forwards SIGTERM and SIGINT to the workers (each in a process group of its own, so a
terminal's Ctrl-C reaches them once, through the parent), waits for them (bounded by
``STOP_WAIT_S``, then SIGKILL), stops the embedded Redis, and exits 0 when every worker stopped
cleanly. A worker that exits while the service runs (a crash, a kill, an operator's SIGTERM of
that one process) is started again after a backoff (1 s, doubling to 30 s, back to 1 s once a
worker ran a minute), with a line in the log saying which, its pid, and how it ended. A worker
that fails before it ever listened at the first start (a port taken, Redis unreachable) stops
the whole start, with that worker's exit code.

A worker (and ``--processes 1``) stops cleanly on SIGTERM (``stop_on_signals``): aiohttp closes
the listening socket first (new connections go to the other processes), closes idle keep-alive
connections, runs the app's shutdown hooks (the stream hub ends every live stream with a
``retry`` message: the client reconnects, to another process), lets requests in flight finish
for up to ``SHUTDOWN_S`` seconds, then the cleanup stops the bot runner, the clocks, the review
workers and the archiver, and closes the Redis clients. A second signal while stopping is only
logged.
"""

from __future__ import annotations

import asyncio
import logging
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

from service.store.embedded import _die_with_parent as _arm_parent_death

log = logging.getLogger("dealstream.processes")

WORKER_VAR = "DEALSTREAM_SERVE_WORKER"  # "<index> <ready fd>", set by the parent for its workers
SHUTDOWN_S = 10.0  # how long requests in flight may take once a process was told to stop
STOP_WAIT_S = 45.0  # how long the parent waits for its workers to stop (shutdown, then the cleanup)
BACKOFF_S = (1.0, 30.0)  # a dead worker's restart delay: first, at most
STEADY_S = 60.0  # a worker that ran this long before it died restarts after the first delay again


@dataclass(frozen=True)
class WorkerRole:
    index: int
    ready_fd: int


def worker_role() -> WorkerRole | None:
    """This process's place among its parent's workers (None: not started by ``supervise``);
    the variable is removed, so no process this one starts sees it."""
    text = os.environ.pop(WORKER_VAR, None)
    if not text:
        return None
    index, fd = (int(x) for x in text.split())
    return WorkerRole(index, fd)


def ready_callback(role: WorkerRole | None) -> Any:
    """What ``web.run_app`` calls once its site listens (its ``print``): a worker tells its
    parent on the pipe; a single process says nothing."""
    if role is None:
        return None

    def ready(*_args: Any) -> None:
        try:
            os.write(role.ready_fd, b"ready\n")
            os.close(role.ready_fd)
        except OSError:  # the parent is gone: the parent-death signal ends this process
            pass

    return ready


async def stop_on_signals(_app: Any) -> None:
    """An ``on_startup`` hook: SIGTERM or SIGINT start aiohttp's graceful stop once; a second
    signal is only logged (it would cut the stop short)."""
    from aiohttp.web_runner import GracefulExit

    loop = asyncio.get_running_loop()

    def again(name: str) -> None:
        log.info("%s while stopping: the stop goes on", name)

    def first(name: str) -> None:
        log.info(
            "%s: stopping (no new connections; requests in flight get %.0f s; live streams told to retry)",
            name, SHUTDOWN_S,
        )  # fmt: skip
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, again, sig.name)
        raise GracefulExit()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, first, sig.name)


def _die_with_parent(parent: int) -> None:
    """In a worker between fork and exec (the parent has no threads): SIGTERM when the parent
    dies; a process group of its own, so a terminal's Ctrl-C reaches it only through the parent."""
    os.setpgid(0, 0)
    _arm_parent_death(parent)


@dataclass(eq=False)
class Worker:
    index: int
    argv: list[str]
    url: str
    proc: subprocess.Popen[bytes] | None = None
    ready_r: int | None = None
    ready: bool = False  # listening now
    ever_ready: bool = False
    started: float = 0.0
    restart_at: float | None = None
    backoff: float = BACKOFF_S[0]

    def start(self) -> None:
        r, w = os.pipe()
        # the URL goes in the environment, not on a command line every user can read (ps)
        env = {**os.environ, WORKER_VAR: f"{self.index} {w}", "DEALSTREAM_REDIS_URL": self.url}
        command = [sys.executable, "-m", "service.cli", *self.argv, "--processes", "1"]
        parent = os.getpid()
        try:
            self.proc = subprocess.Popen(
                command, env=env, pass_fds=(w,), stdin=subprocess.DEVNULL,
                preexec_fn=lambda: _die_with_parent(parent),  # noqa: PLW1509 - the parent has no threads
            )  # fmt: skip
        except BaseException:
            os.close(r)
            raise
        finally:
            os.close(w)
        self.ready_r, self.ready, self.started, self.restart_at = r, False, time.monotonic(), None

    def close_pipe(self) -> None:
        if self.ready_r is not None:
            os.close(self.ready_r)
            self.ready_r = None


def supervise(argv: list[str], url: str, count: int) -> int:
    """Run ``count`` workers of ``dealstream serve <argv>`` on ``url`` until SIGTERM or SIGINT;
    the exit code (0: every worker stopped cleanly)."""
    stop: list[int] = []

    def on_signal(signum: int, _frame: Any) -> None:
        stop.append(signum)

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    workers = [Worker(i, argv, url) for i in range(count)]
    try:
        for worker in workers:
            worker.start()
        code = _watch(workers, stop)
        return _stop_all(workers, code)
    finally:
        for worker in workers:
            worker.close_pipe()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _watch(workers: list[Worker], stop: list[int]) -> int | None:
    """Until a signal (None) or a failed first start (that worker's exit code)."""
    announced = False
    while not stop:
        pipes = {w.ready_r: w for w in workers if w.ready_r is not None}
        try:
            readable, _, _ = select.select(list(pipes), [], [], 0.2)
        except InterruptedError:  # a signal: looked at on the next round
            readable = []
        for fd in readable:
            worker = pipes[fd]
            if os.read(fd, 64):
                worker.ready = worker.ever_ready = True
                assert worker.proc is not None
                log.info("worker %d (pid %d) listens", worker.index, worker.proc.pid)
            worker.close_pipe()  # said so, or died before it listened (seen below)
        if not announced and all(w.ready for w in workers):
            announced = True
            pids = " ".join(str(w.proc.pid) for w in workers if w.proc is not None)
            log.info("%d processes serve the port (pids %s)", len(workers), pids)
        now = time.monotonic()
        for worker in workers:
            if worker.proc is None or worker.restart_at is not None:
                if worker.restart_at is not None and now >= worker.restart_at and not stop:
                    try:
                        worker.start()
                    except OSError as exc:  # no process to be had now (too many): try again later
                        log.warning("worker %d could not be started (%s); trying again in %.0f s",
                                    worker.index, exc, worker.backoff)  # fmt: skip
                        worker.restart_at = now + worker.backoff
                        worker.backoff = min(BACKOFF_S[1], worker.backoff * 2)
                continue
            code = worker.proc.poll()
            if code is None:
                continue
            worker.close_pipe()
            if not worker.ever_ready and not announced:
                log.error(
                    "worker %d (pid %d) %s before it listened; stopping",
                    worker.index, worker.proc.pid, _ended(code),
                )  # fmt: skip
                return code if code > 0 else 1
            ran = now - worker.started
            if ran >= STEADY_S:
                worker.backoff = BACKOFF_S[0]
            log.warning(
                "worker %d (pid %d) %s after %.0f s; starting it again in %.0f s",
                worker.index, worker.proc.pid, _ended(code), ran, worker.backoff,
            )  # fmt: skip
            worker.ready = False
            worker.restart_at = now + worker.backoff
            worker.backoff = min(BACKOFF_S[1], worker.backoff * 2)
    return None


def _ended(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _stop_all(workers: list[Worker], failed: int | None) -> int:
    """SIGTERM every running worker, wait (bounded), SIGKILL what is left; the exit code."""
    running = [w for w in workers if w.proc is not None and w.proc.poll() is None]
    if running:
        log.info("stopping %d worker processes", len(running))
    for worker in running:
        assert worker.proc is not None
        try:
            worker.proc.send_signal(signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + STOP_WAIT_S
    clean = True
    for worker in running:
        assert worker.proc is not None
        try:
            code = worker.proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.error(
                "worker %d (pid %d) did not stop within %.0f s; killed",
                worker.index,
                worker.proc.pid,
                STOP_WAIT_S,
            )
            worker.proc.kill()
            worker.proc.wait()
            clean = False
            continue
        if code != 0 and not (code == -signal.SIGTERM and not worker.ready):  # (stopped while starting)
            log.warning("worker %d (pid %d) %s while stopping", worker.index, worker.proc.pid, _ended(code))
            clean = False
    if failed is not None:
        return failed
    return 0 if clean else 1
