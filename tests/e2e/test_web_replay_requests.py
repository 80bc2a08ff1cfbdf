"""The replay page asks only for what exists: opening the replay of a finished deal makes no
request the server answers with an error (no review of the seat yet: it is not asked for), and
once a review exists the page shows it, still without a failed request."""

from __future__ import annotations

import time

import pytest

from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    PAGE_WAIT_MS,
    browser,
    get_json,
    new_page,
    post_json,
    wait_js,
    web_server,
)

pytestmark = pytest.mark.redis


def finished_deal(base: str) -> str:
    status, created = post_json(base, "/deals", {"game": "paohuzi", "seats": ["bot:greedy"] * 3})
    assert status == 201, created
    deal = created["deal_id"]
    deadline = time.monotonic() + 120
    while not get_json(base, f"/deals/{deal}")["over"]:
        assert time.monotonic() < deadline, "the bot deal did not finish in 120 s"
        time.sleep(0.05)
    return deal


async def open_replay(page, base: str, deal: str) -> list[str]:
    """Open the replay and wait until the page has asked about the seat's review (answered);
    every request the server answered with an error status, and every console error, meanwhile."""
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda m: failed.append(f"console: {m.text}") if m.type == "error" else None)
    async with page.expect_response(lambda r: "/reviews" in r.url, timeout=PAGE_WAIT_MS):
        await page.goto(f"{base}/#/replay/{deal}")
    await page.wait_for_selector("#review #rv-go", timeout=PAGE_WAIT_MS)
    await page.evaluate("() => new Promise((done) => setTimeout(done, 0))")  # pending events delivered
    return failed


async def test_a_replay_page_makes_no_failed_request(web_server, browser):  # noqa: F811
    base = web_server
    deal = finished_deal(base)
    page = await new_page(browser, base)
    failed = await open_replay(page, base, deal)
    assert failed == [], failed
    assert await page.locator("#rv-summary").count() == 0  # no review yet: none shown

    # a review made meanwhile is shown when the replay opens again
    status, _ = post_json(base, f"/deals/{deal}/reviews", {"seat": 0})
    assert status in (200, 202)
    deadline = time.monotonic() + 300  # a few seconds of one core; minutes on a loaded machine
    while get_json(base, f"/deals/{deal}/reviews/0")["status"] != "done":
        assert time.monotonic() < deadline, "the review did not finish in 300 s"
        time.sleep(0.2)
    page = await new_page(browser, base)
    failed = await open_replay(page, base, deal)
    await wait_js(page, "document.querySelector('#rv-summary')")
    assert failed == [], failed
    assert page.js_errors == [] and page.foreign_requests == []
