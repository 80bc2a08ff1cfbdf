"""Browser-test fixtures: a real `dealstream serve` process over the test Redis, and headless Chromium.

Debian's chromium is driven by the `playwright` package through `executable_path`; no browser is
ever downloaded. Screenshots go to `test-artifacts/` at the repository root.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
import redis

from tests.conftest import REAL_REDIS_URL

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("DEALSTREAM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def web_server():
    """`dealstream serve` on a free port with its own key prefix; yields the base URL."""
    prefix = f"dstest-web-{uuid.uuid4().hex[:10]}"
    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / "web-server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "serve",
            "--port",
            str(port),
            "--redis",
            REAL_REDIS_URL,
            "--prefix",
            prefix,
            "--bot-delay",
            "0",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(base + "/health", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None:
            log.close()
            raise RuntimeError("server exited: " + (ARTIFACTS / "web-server.log").read_text())
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("server did not start")
        time.sleep(0.1)
    ARTIFACTS.mkdir(exist_ok=True)
    yield base
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
    client.close()


@pytest.fixture
async def browser():
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        await b.close()


async def new_page(browser, base: str, width: int = 1280, height: int = 800):
    """A page whose every request must go to the test server (anything else fails the test)."""
    context = await browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
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
