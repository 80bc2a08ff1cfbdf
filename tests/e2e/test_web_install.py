"""The web table as an app installed on a phone's home screen, in headless Chromium: the manifest
and its icons, the service worker that keeps the page's shell and nothing else, sound unlocked by
the first tap, and the vibrate setting.

The worker runs in every browser test; each test's context starts without it and without a cache,
and it asks the network first, so no test sees another's files. Its own test here uses a context
the test does not route, to see the browser's requests as they are."""

from __future__ import annotations

import json
import random
import re
import struct
import urllib.parse
import urllib.request
from html.parser import HTMLParser

import pytest

from tests.e2e.test_web_table import play_by_clicking
from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    CHROMIUM_ARGS,
    PAGE_WAIT_MS,
    browser,
    chromium_executable,
    new_page,
    post_json,
    put_tokens,
    shot,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]

PHONE_AUTOPLAY = "--autoplay-policy=document-user-activation-required"  # audio waits for a tap
# the real AudioContext, saying its state at its making and at each change
AUDIO_STATES_JS = """(() => {
  const Real = window.AudioContext;
  if (Real) window.AudioContext = class extends Real {
    constructor(...a) {
      super(...a);
      console.log('audio ' + this.state);
      this.addEventListener('statechange', () => console.log('audio ' + this.state));
    }
  };
})();"""
NO_VIBRATE_JS = "delete Navigator.prototype.vibrate;"
API_PATH = re.compile(r"^/(deals|matches|players|games|lobby|health|ready|metrics|openapi\.json)\b")


def fetch(base: str, path: str) -> tuple[int, dict[str, str], bytes]:
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height from its header (and that it is a PNG at all)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def csp_sources(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def assert_self_only(header: str) -> None:
    """The policy lets the page load nothing from any other host: every fetching directive names
    'self' (images also data: URLs, styles also inline ones), no host, no scheme, no wildcard."""
    csp = csp_sources(header)
    allowed = {"'self'", "data:", "'unsafe-inline'", "'none'"}
    for directive, sources in csp.items():
        assert set(sources) <= allowed, (directive, sources)
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"] and csp["connect-src"] == ["'self'"]
    assert csp.get("worker-src", ["'self'"]) == ["'self'"]
    assert csp.get("manifest-src", ["'self'"]) == ["'self'"]
    assert "data:" not in csp["script-src"] + csp["connect-src"] + csp["default-src"]


class HeadLinks(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: dict[str, dict] = {}
        self.metas: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link":
            self.links[a.get("rel", "")] = a
        elif tag == "meta" and "name" in a:
            self.metas[a["name"]] = a.get("content", "")
        elif tag == "meta" and a.get("http-equiv") == "Content-Security-Policy":
            self.metas["csp"] = a.get("content", "")


def test_the_manifest_its_icons_and_the_worker_are_served_from_self(web_server):  # noqa: F811
    base = web_server
    status, headers, body = fetch(base, "/")
    assert status == 200
    assert_self_only(headers["content-security-policy"])
    head = HeadLinks()
    head.feed(body.decode())
    assert_self_only(head.metas["csp"])
    assert head.metas["theme-color"] == "#123d2a"
    manifest_url = head.links["manifest"]["href"]
    assert manifest_url.startswith("/") and not manifest_url.startswith("//")

    status, headers, body = fetch(base, manifest_url)
    assert headers["content-type"].split(";")[0] == "application/manifest+json"
    assert headers["cache-control"] == "no-cache"
    manifest = json.loads(body)
    assert manifest["name"] == "dealstream table" and manifest["short_name"] == "dealstream"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "fullscreen" and manifest["display_override"][-1] == "standalone"
    assert manifest["theme_color"] == manifest["background_color"] == head.metas["theme-color"]
    seen = set()
    for icon in manifest["icons"]:
        assert icon["src"].startswith("/web/icons/") and icon["type"] == "image/png"
        status, headers, data = fetch(base, icon["src"])
        assert headers["content-type"] == "image/png"
        w, h = png_size(data)
        assert f"{w}x{h}" == icon["sizes"], icon
        seen.add((icon["sizes"], icon.get("purpose", "any")))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= seen
    for rel in ("apple-touch-icon", "icon"):
        _status, headers, data = fetch(base, head.links[rel]["href"])
        assert headers["content-type"] == "image/png" and min(png_size(data)) >= 180

    status, headers, body = fetch(base, "/web/sw.js")
    assert headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript")
    assert headers["service-worker-allowed"] == "/"  # its scope may be the whole site
    assert headers["cache-control"] == "no-cache"  # a new worker reaches the browser at once
    assert_self_only(headers["content-security-policy"])  # the worker's own policy
    # an API answer gets none of the page's headers: the worker is no reason to widen them
    _status, headers, _body = fetch(base, "/games")
    assert "service-worker-allowed" not in headers


CACHED_JS = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      const type = response.headers.get('Content-Type') || '';
      const text = /image/.test(type) ? '' : await response.text();
      out.push({ cache: name, url: request.url, type, text });
    }
  }
  return out;
}"""


async def test_the_worker_keeps_the_shell_and_nothing_of_a_deal(web_server, browser):  # noqa: F811
    """In a context the test does not route: the worker
    registers, controls the page after a reload, answers the shell's files; a whole deal is then
    played by clicking and its fairness check run (its log downloaded), and the cache holds the
    page, its modules, style sheets, manifest and icons, and no API answer, no URL of the deal, no
    token or player key in any URL or body. Offline, the page still opens from the cache."""
    base = web_server
    deck = list(range(80))
    random.Random(4201).shuffle(deck)
    body = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "deck": deck}
    status, created = post_json(base, "/deals", {**body, "dealer": 0, "pace": "fast"})
    assert status == 201, created
    deal, tokens = created["deal_id"], created["tokens"]

    context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    context.set_default_timeout(PAGE_WAIT_MS)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    requests: list = []
    context.on("request", lambda r: requests.append(r))
    answered: list = []
    context.on("response", lambda r: answered.append(r))

    await put_tokens(page, base, deal, tokens)  # the lobby: the worker registers
    assert await page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)") == base + "/"
    await page.reload()
    await page.wait_for_selector("#start")
    assert await page.evaluate("!!navigator.serviceWorker.controller")  # in control after a reload
    from_worker = {r.url for r in answered if r.from_service_worker}
    assert {base + "/", base + "/web/app.js", base + "/web/sound.js"} <= from_worker, sorted(from_worker)

    await page.goto(f"{base}/#/play/{deal}/0")
    await page.click("#do-start")
    await page.wait_for_selector("#my-hand button.piece")
    assert await page.evaluate("!!navigator.serviceWorker.controller")
    await play_by_clicking(page, lambda options: options[0], name="install-deal")
    await page.click("#fair-run")  # it downloads the deal's whole log (a fixed deck fails the check)
    await page.wait_for_selector("#fair-verdict")

    # the deal went over the wire with its tokens while the worker was in control, past it
    api = [r for r in requests if API_PATH.match(urllib.parse.urlsplit(r.url).path)]
    assert any(f"/deals/{deal}" in r.url for r in api)
    secrets = set(tokens.values())
    sent_keys = set()
    for r in api:
        headers = await r.all_headers()
        if "x-player-key" in headers:
            sent_keys.add(headers["x-player-key"])
        if "authorization" in headers:
            assert headers["authorization"].removeprefix("Bearer ") in secrets
    key = await page.evaluate("JSON.parse(localStorage.getItem('ds.player.key') || 'null')")
    secrets |= sent_keys | ({key} if key else set())
    assert any(f"/deals/{deal}/log" in r.url for r in api)  # the fairness check's download
    api_urls = {r.url for r in api}
    assert not [r.url for r in answered if r.url in api_urls and r.from_service_worker]

    cached = await page.evaluate(CACHED_JS)
    urls = {c["url"] for c in cached}
    assert {c["cache"] for c in cached} == {"dealstream-shell-1"}
    for path in ("/", "/web/app.js", "/web/play.js", "/web/sound.js", "/web/style.css"):
        assert base + path in urls, (path, sorted(urls))
    assert base + "/web/manifest.webmanifest" in urls and base + "/web/icons/icon-192.png" in urls
    for c in cached:
        path = urllib.parse.urlsplit(c["url"])
        assert path.path == "/" or path.path.startswith("/web/"), c["url"]
        assert not path.query and not API_PATH.match(path.path), c["url"]
        assert deal not in c["url"] and "application/json" not in c["type"], c["url"]
        for secret in secrets:
            assert secret not in c["url"] and secret not in c["text"], c["url"]

    # offline, the page opens from the worker's cache (its API calls fail, its chrome does not)
    await context.set_offline(True)
    await page.goto(base + "/#/")
    await page.reload()
    await page.wait_for_selector("#brand")
    assert await page.text_content("#brand") == "dealstream table"
    await page.screenshot(path=shot("install-offline-390"))
    await context.set_offline(False)
    assert errors == []
    await context.close()


async def test_the_first_tap_unlocks_sound(web_server):  # noqa: F811
    """A browser that starts audio only after the person acts on the page (a phone's policy):
    reopening the table with sound on, the page sounds "your turn" on a context the browser keeps
    suspended; the first tap anywhere lets it run, and it stays the one context."""
    from playwright.async_api import async_playwright

    base = web_server
    deck = list(range(80))
    random.Random(4202).shuffle(deck)
    body = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "deck": deck}
    status, created = post_json(base, "/deals", {**body, "dealer": 0, "pace": "fast"})
    assert status == 201, created
    deal, tokens = created["deal_id"], created["tokens"]
    async with async_playwright() as p:
        phone = await p.chromium.launch(
            executable_path=chromium_executable(),
            args=[*CHROMIUM_ARGS, "--autoplay-policy=document-user-activation-required"],
        )
        try:
            first = await new_page(phone, base, 390, 844)  # deals it: the person's prompt is waiting
            await put_tokens(first, base, deal, tokens)
            await first.goto(f"{base}/#/play/{deal}/0")
            await first.click("#do-start")
            await first.wait_for_selector("#my-hand button.piece.can")
            await first.context.close()

            # a fresh page on the phone, nothing tapped yet; sound was switched on before
            context = await phone.new_context(
                viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="en-US"
            )
            context.set_default_timeout(PAGE_WAIT_MS)
            stored = {
                f"ds.tokens.{deal}": json.dumps(tokens),
                f"ds.seed.{deal}": '"s"',
                "ds.set.sound": "true",
            }
            await context.add_init_script(
                f"for (const [k, v] of Object.entries({json.dumps(stored)})) localStorage.setItem(k, v);"
            )
            # the page's audio context says its state in the console: the test reads nothing of
            # the page (an evaluation counts as the person's activation) until the tone was tried
            await context.add_init_script(AUDIO_STATES_JS)
            page = await context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            states: list[str] = []
            page.on("console", lambda m: states.append(m.text) if m.text.startswith("audio ") else None)
            async with page.expect_console_message(
                lambda m: m.text.startswith("audio "), timeout=PAGE_WAIT_MS
            ):
                await page.goto(f"{base}/#/play/{deal}/0")  # the prompt's "your turn" makes the context
            assert states == ["audio suspended"], states  # no sound before the person touches the page
            await page.wait_for_selector("#my-hand button.piece.can")
            tones = await page.evaluate("window.dealstream.tones")
            assert tones["kinds"]["turn"] == 1 and tones["contexts"] == 1, tones
            assert states == ["audio suspended"], states  # reading the page did not start it
            box = await page.locator(".topbar").bounding_box()
            await page.touchscreen.tap(box["x"] + 3, box["y"] + 3)  # the bar's corner: a tap on nothing
            await wait_js(page, "window.dealstream.tones.state === 'running'")
            assert states[-1] == "audio running", states
            assert (await page.evaluate("window.dealstream.tones"))["contexts"] == 1
            assert errors == []
            await context.close()

            # with sound off, a tap makes no audio context at all
            page = await new_page(phone, base, 390, 844)
            await page.goto(base + "/")
            await page.wait_for_selector("#start")
            await page.click("#settings-toggle")
            await page.click("#settings-toggle")
            assert (await page.evaluate("window.dealstream.tones"))["contexts"] == 0
            await page.context.close()
        finally:
            await phone.close()


async def test_the_vibrate_setting(web_server, browser):  # noqa: F811
    """Off by default; switched on in Display it vibrates once as a sample, is remembered, and
    the page vibrates when the table waits on the person (their turn, with sound off); switched
    off, not. A browser without `navigator.vibrate` does not show it, and keeps it off whatever
    was stored."""
    base = web_server
    deck = list(range(80))
    random.Random(4203).shuffle(deck)
    body = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "deck": deck}
    status, created = post_json(base, "/deals", {**body, "dealer": 0, "pace": "fast"})
    assert status == 201, created
    deal, tokens = created["deal_id"], created["tokens"]

    page = await new_page(browser, base, 390, 844)
    await put_tokens(page, base, deal, tokens)
    await page.click("#settings-toggle")
    assert await page.is_visible("#set-vibrate")
    assert not await page.is_checked("#set-vibrate")
    assert await page.evaluate("localStorage.getItem('ds.set.vibrate')") is None
    assert (await page.text_content("#lbl-vibrate")).startswith("Vibrate")
    await page.check("#set-vibrate")
    assert await page.evaluate("localStorage.getItem('ds.set.vibrate')") == "true"
    assert (await page.evaluate("window.dealstream.tones"))["vibrations"] == 1  # the sample
    await page.select_option("#lang", "fi")  # its label in every language
    assert (await page.text_content("#lbl-vibrate")).startswith("Värinä")
    await page.select_option("#lang", "en")
    await page.reload()
    await page.wait_for_selector("#start")
    await page.click("#settings-toggle")
    assert await page.is_checked("#set-vibrate")  # remembered

    await page.goto(f"{base}/#/play/{deal}/0")
    await page.click("#do-start")
    await page.wait_for_selector("#my-hand button.piece.can")
    await wait_js(page, "window.dealstream.tones.vibrations >= 1")  # your turn (sound is off)
    assert (await page.evaluate("window.dealstream.tones"))["played"] == 0
    if not await page.is_visible("#set-vibrate"):
        await page.click("#settings-toggle")
    await page.uncheck("#set-vibrate")
    assert await page.evaluate("localStorage.getItem('ds.set.vibrate')") == "false"
    before = (await page.evaluate("window.dealstream.tones"))["vibrations"]
    await page.evaluate("import('/web/sound.js').then(m => m.tone('turn'))")
    assert (await page.evaluate("window.dealstream.tones"))["vibrations"] == before
    assert page.js_errors == []
    await page.context.close()

    # a browser that cannot vibrate: no such setting, and off even if one was stored
    page = await new_page(browser, base, 390, 844)
    await page.add_init_script(NO_VIBRATE_JS)
    await page.add_init_script("localStorage.setItem('ds.set.vibrate', 'true');")
    await page.goto(base + "/")
    await page.wait_for_selector("#start")
    await page.click("#settings-toggle")
    assert await page.is_visible("#set-sound")
    assert not await page.is_visible("#set-vibrate")
    assert await page.evaluate("import('/web/sound.js').then(m => [m.canVibrate(), m.vibrateOn()])") == [
        False,
        False,
    ]
    await page.evaluate("import('/web/sound.js').then(m => m.tone('turn'))")
    assert (await page.evaluate("window.dealstream.tones"))["vibrations"] == 0
    assert page.js_errors == []
    await page.context.close()


def test_the_icons_are_the_ones_the_script_draws():
    """The committed 192-pixel icon is what `docs/pictures/icons.py` draws, byte for byte, so the
    script is the icons' source (the larger ones take longer to draw; they share the code)."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("icons", root / "docs" / "pictures" / "icons.py")
    icons = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(icons)
    assert icons.draw(192, False) == (root / "service/http/web/icons/icon-192.png").read_bytes()
