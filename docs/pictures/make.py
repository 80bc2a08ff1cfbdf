"""Takes the pictures of the web table that docs/web.md and the README show.

    python docs/pictures/make.py                 # an embedded Redis, in a temporary folder
    python docs/pictures/make.py --redis redis://127.0.0.1:6379/15

Starts `dealstream serve --dev` on a free port, deals Paohuzi and MCR from fixed decks with the
greedy bot in the other seats, plays the person's seat by clicking (first claim option, the last
card of the hand) until the person has made a few moves and a prompt waits for them, and saves the
table at a phone's size (390x844, touch) and a laptop's (1280x800): docs/pictures/<game>-<w>x<h>.png.
Every step waits for a state of the page, never for a time. Needs the test extras (`playwright`)
and Debian's `chromium` (or DEALSTREAM_CHROMIUM); nothing is downloaded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("DEALSTREAM_CHROMIUM", "/usr/bin/chromium")
SIZES = ((1280, 800, False), (390, 844, True))  # width, height, touch
GAMES = {  # game: (seats, deck size, the deck's shuffle seed, the person's moves before the picture)
    "paohuzi": (3, 80, 4242, 5),
    "mcr": (4, 144, 4243, 6),
}

# what the page shows of the person's seat: the same hooks the browser tests read
STATE_JS = """() => {
  const page = document.querySelector('.play-page');
  return {
    version: page ? Number(page.dataset.version) : -1,
    result: !!document.querySelector('#result'),
    options: [...document.querySelectorAll('[data-action]')].map(b => b.dataset.kind),
    discards: document.querySelectorAll('#my-hand button.piece.can').length,
    ready: !!page && page.dataset.busy !== '1' && page.dataset.held !== '1' && page.dataset.armed !== '0',
  };
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


class Server:
    """`dealstream serve --dev` with bots that answer at once, on its own key prefix."""

    def __init__(self, redis_url: str | None) -> None:
        self.redis_url = redis_url
        self.prefix = f"dspictures-{uuid.uuid4().hex[:8]}"
        self.data = tempfile.mkdtemp(prefix="ds-pictures-")
        self.base = f"http://127.0.0.1:{free_port()}"
        args = [sys.executable, "-m", "service.cli", "serve", "--port", self.base.rsplit(":", 1)[1]]
        args += ["--dev", "--bot-delay", "0", "--processes", "1", "--data-dir", self.data]
        args += ["--prefix", self.prefix] + (["--redis", redis_url] if redis_url else [])
        self.log = open(Path(self.data) / "serve.log", "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(args, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit("the server did not start")
            time.sleep(0.2)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
        if self.redis_url:  # leave nothing behind in a shared Redis
            import redis

            client = redis.Redis.from_url(self.redis_url)
            keys = list(client.scan_iter(match=f"{self.prefix}:*", count=500))
            if keys:
                client.delete(*keys)
            client.close()
        shutil.rmtree(self.data, ignore_errors=True)


async def wait_state(page: Page, test: Callable[[dict], bool], timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = await page.evaluate(STATE_JS)
        if test(state):
            return state
        if time.monotonic() > deadline:
            raise SystemExit(f"the table did not reach the state: {state}")
        await page.wait_for_timeout(50)


def at_prompt(state: dict) -> bool:
    return state["result"] or (state["ready"] and bool(state["options"] or state["discards"]))


async def play_to_a_prompt(page: Page, moves: int) -> bool:
    """Answers the person's prompts until `moves` are made and the next prompt waits; False when
    the deal ended first."""
    made = 0
    while True:
        state = await wait_state(page, at_prompt)
        if state["result"]:
            return False
        if made >= moves:
            return True
        if state["options"] and not state["discards"]:
            await page.click(f'[data-action][data-kind="{state["options"][0]}"]')
        elif "DeclareWin" in state["options"]:
            return True  # a win on offer is a picture too
        else:
            await page.click("#my-hand button.piece.can >> nth=-1")
            await page.click("#confirm")
        made += 1
        await wait_state(page, lambda s, v=state["version"]: s["version"] != v or s["result"])


async def open_seat(
    browser: Browser, base: str, deal: str, tokens: dict, width: int, height: int, touch: bool
) -> Page:
    context = await browser.new_context(
        viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch, locale="en-US"
    )
    stored = {f"ds.tokens.{deal}": json.dumps(tokens), f"ds.seed.{deal}": json.dumps("pictures")}
    stored["ds.set.grain"] = "0"  # the grain slider at 0: pictures a third of the size
    await context.add_init_script(
        f"for (const [k, v] of Object.entries({json.dumps(stored)})) localStorage.setItem(k, v);"
    )
    page = await context.new_page()
    await page.goto(f"{base}/#/play/{deal}/0")
    return page


async def picture(browser: Browser, base: str, game: str) -> list[Path]:
    seats, size, seed, moves = GAMES[game]
    for attempt in range(6):  # a bot may win before the person's moves are made: deal the next deck
        deck = list(range(size))
        random.Random(seed + attempt).shuffle(deck)
        body = {"game": game, "seats": ["human"] + ["bot:greedy"] * (seats - 1), "deck": deck, "dealer": 0}
        created = post(base, "/deals", {**body, "pace": "fast"})
        deal, tokens = created["deal_id"], created["tokens"]
        # one page per size, all open before the deal starts, so each follows it live (its move
        # log and newest line too); the first plays
        pages = [await open_seat(browser, base, deal, tokens, w, h, t) for w, h, t in SIZES]
        for page in pages:
            await page.wait_for_selector("#do-start")
        await pages[0].click("#do-start")
        if not await play_to_a_prompt(pages[0], moves):
            for page in pages:
                await page.context.close()
            continue
        version = (await pages[0].evaluate(STATE_JS))["version"]
        saved = []
        for page, (w, h, _t) in zip(pages, SIZES, strict=True):
            await wait_state(page, lambda s, v=version: at_prompt(s) and s["version"] == v)
            await page.evaluate("document.fonts.ready.then(() => true)")
            await page.evaluate("window.scrollTo(0, 0)")
            path = OUT / f"{game}-{w}x{h}.png"
            await page.screenshot(path=str(path), animations="disabled")  # transitions at their end
            saved.append(path)
            await page.context.close()
        return saved
    raise SystemExit(f"{game}: every deal ended before the person's {moves} moves")


async def main_async(redis_url: str | None) -> None:
    from playwright.async_api import async_playwright

    server = Server(redis_url)
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            try:
                for game in GAMES:
                    for path in await picture(browser, server.base, game):
                        print(path.relative_to(ROOT))
            finally:
                await browser.close()
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--redis", default=os.environ.get("DEALSTREAM_REDIS_URL"), help="default: embedded")
    asyncio.run(main_async(parser.parse_args().redis))


if __name__ == "__main__":
    main()
