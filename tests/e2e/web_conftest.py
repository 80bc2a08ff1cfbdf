"""Browser-test fixtures: real `dealstream serve --dev` processes over the test Redis, and headless Chromium.

A Chromium on the machine (`DEALSTREAM_CHROMIUM`, else Debian's, else the one Playwright installed;
tests/servers.py) is driven by the `playwright` package through `executable_path`; only when none is
found is Playwright's installer asked for one. Screenshots go to `test-artifacts/` at the repository root.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
import redis

from tests import servers
from tests.conftest import REAL_REDIS_URL

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


_CHROMIUM: list[str] = []


def chromium_executable() -> str:
    """The session's browser, found once; none: the test fails with one line saying what to do."""
    if not _CHROMIUM:
        try:
            _CHROMIUM.append(servers.chromium())
        except servers.SetupError as exc:
            pytest.fail(str(exc), pytrace=False)
    return _CHROMIUM[0]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(name: str, *extra: str):
    """`dealstream serve --dev` on a free port with its own key prefix; yields the base URL."""
    prefix = f"dstest-web-{uuid.uuid4().hex[:10]}"
    data_dir = tempfile.mkdtemp(prefix="ds-web-data-")  # its prefix's archive, gone with it
    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / f"{name}.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--redis", REAL_REDIS_URL]
        + ["--prefix", prefix, "--dev", "--processes", "1", "--review-nice", "0", "--data-dir", data_dir]
        + list(extra),
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90  # a loaded machine imports slowly; a slow start fails the module
    while True:
        try:
            with urllib.request.urlopen(base + "/health", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None:
            log.close()
            raise RuntimeError("server exited: " + log_path.read_text())
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("server did not start")
        time.sleep(0.1)
    try:
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        client = redis.Redis.from_url(REAL_REDIS_URL)
        keys = list(client.scan_iter(match=f"{prefix}:*", count=500))
        if keys:
            client.delete(*keys)
        shutil.rmtree(data_dir, ignore_errors=True)
        client.close()


@pytest.fixture(scope="module")
def web_server():
    """A server whose bots do not think (every pace is 0 s): whole deals in seconds."""
    yield from _serve("web-server", "--bot-delay", "0")


@pytest.fixture(scope="module")
def paced_server():
    """A server whose bots think a little (0.25 s at normal pace, 0.5 s slow), so a person's
    prompt is on screen before a bot's answer closes its window, and the thinking mark shows."""
    yield from _serve("web-server-paced", "--bot-delay", "0.25")


@pytest.fixture(scope="module")
def patient_server():
    """A server whose bots think a second (two at the slow pace): a test that must see a prompt
    before a bot's answer closes its window, and read it while it is held, has room on a
    loaded machine."""
    yield from _serve("web-server-patient", "--bot-delay", "1.0")


@pytest.fixture
async def browser():
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        yield b
        await b.close()


PAGE_WAIT_MS = 120_000


async def new_page(browser, base: str, width: int = 1280, height: int = 800):
    """A page whose every request must go to the test server (anything else fails the test)."""
    context = await browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    # every wait for a state is bounded by what a loaded two-core machine meets with room (the
    # library's default of 30 s is not: two suites and two busy loops beside a browser missed it)
    context.set_default_timeout(PAGE_WAIT_MS)
    page = await context.new_page()
    errors: list[str] = []
    foreign: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    requests: list[str] = []

    async def guard(route):
        requests.append(route.request.url)
        if route.request.url.startswith(base) or route.request.url.startswith("data:"):
            await route.continue_()
        else:
            foreign.append(route.request.url)
            await route.abort()

    await page.route("**/*", guard)
    page.js_errors = errors  # type: ignore[attr-defined]
    page.foreign_requests = foreign  # type: ignore[attr-defined]
    page.requests = requests  # type: ignore[attr-defined]
    return page


def shot(name: str) -> str:
    ARTIFACTS.mkdir(exist_ok=True)
    return str(ARTIFACTS / f"{name}.png")


def post_json(base: str, path: str, body: dict, token: str | None = None) -> tuple[int, dict]:
    """A JSON request to the test server (for setting up deals the lobby cannot make)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def get_json(base: str, path: str, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=10) as r:
        return json.loads(r.read())


def seat_visible_versions(base: str, deal: str, seat: int | None) -> list[tuple[int, str, dict]]:
    """(version, type, event) of every event of a finished deal that `seat` (None: a spectator) saw live:
    the server's whole log, filtered by the game's own redaction."""
    from service.app.games import kit

    with urllib.request.urlopen(f"{base}/deals/{deal}/log", timeout=10) as r:
        records = [json.loads(line) for line in r.read().decode().splitlines() if line.strip()]
    game = records[0]["data"]["ruleset"].split("/", 1)[0]
    k = kit(game)
    out = []
    for rec in records:
        event = k.decode_event(json.dumps(rec["data"]).encode())
        if k.projections.redact_event(event, seat) is not None:
            out.append((rec["version"], rec["type"], rec["data"]))
    return out


async def card_name(page, name: str, numeral: str) -> str:
    """A card's name as the page writes it: with its Chinese numeral, "small 5 (五)", where the
    browser has a font that draws it, else without (``cards.js``). A test asks the page which, so
    it holds on a machine with or without CJK fonts."""
    cjk = await page.evaluate("() => document.documentElement.dataset.cjk")
    assert cjk in ("yes", "no"), cjk  # the page has named a card by now
    return f"{name} ({numeral})" if cjk == "yes" else name


async def wait_js(page, predicate: str, timeout: float = PAGE_WAIT_MS / 1000) -> None:
    """Poll a JS predicate (the page's CSP forbids the eval that `wait_for_function` uses); the
    bound is one a machine with other work running meets with room."""
    deadline = time.monotonic() + timeout
    while not await page.evaluate(f"() => !!({predicate})"):
        assert time.monotonic() < deadline, f"timed out waiting for {predicate}"
        await page.wait_for_timeout(40)


async def put_tokens(page, base: str, deal: str, tokens: dict, seed: str = "browser-seed") -> None:
    """Give the browser the seat tokens of a deal made over the API (as the lobby would)."""
    await page.goto(base + "/")
    await page.wait_for_selector("#start")
    await page.evaluate(
        "([deal, tokens, seed]) => { localStorage.setItem('ds.tokens.' + deal, JSON.stringify(tokens));"
        " localStorage.setItem('ds.seed.' + deal, JSON.stringify(seed)); }",
        [deal, tokens, seed],
    )
