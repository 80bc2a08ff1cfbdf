"""Privacy in the browser: a live table not open to spectators is not watched (the watch page
says so instead of retrying its stream), and the player key comes from the server (a key the
browser once made itself, or one the server refuses, is replaced by a minted one)."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    PAGE_WAIT_MS,
    browser,
    new_page,
    post_json,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]


def list_status(base: str, key: str) -> int:
    request = urllib.request.Request(base + "/players/me/deals", headers={"X-Player-Key": key})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code


async def test_the_browser_gets_a_minted_key_instead_of_an_old_one(web_server, browser):  # noqa: F811
    page = await new_page(browser, web_server)
    await page.goto(web_server + "/")
    await page.wait_for_selector("#mine-empty", timeout=PAGE_WAIT_MS)  # the list asked for, with a key
    first = await page.evaluate("JSON.parse(localStorage.getItem('ds.player.key'))")
    assert len(first) == 44 and list_status(web_server, first) == 200
    # a key made in the browser (43 characters), and a well-formed one the server never minted
    for old in ("A" * 43, "B" * 44):
        assert list_status(web_server, old) == 400
        await page.evaluate(f"localStorage.setItem('ds.player.key', JSON.stringify('{old}'))")
        await page.reload()
        await page.wait_for_selector("#mine-empty", timeout=PAGE_WAIT_MS)
        key = await page.evaluate("JSON.parse(localStorage.getItem('ds.player.key'))")
        assert key != old and len(key) == 44 and list_status(web_server, key) == 200
    assert page.js_errors == []
    assert page.foreign_requests == []


async def test_a_table_not_open_to_spectators_is_not_watched_while_live(web_server, browser):  # noqa: F811
    body = {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "lobby": True}
    status, created = post_json(web_server, "/deals", body)
    assert status == 201, created
    page = await new_page(browser, web_server)
    await page.goto(web_server + "/#/watch/" + created["deal_id"])
    await page.wait_for_selector("#watch-closed", timeout=PAGE_WAIT_MS)
    assert "not open to spectators" in await page.text_content("#watch-closed")
    assert page.js_errors == []
