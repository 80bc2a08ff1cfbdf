"""What the table says about the other people, in two headless Chromium contexts that share
nothing: "not connected" follows a person leaving and coming back without waiting for a move, and
is not shown where it says nothing (after the end, before a deal is dealt); the match strip names
a friend who joined; the waiting room between a match's hands never asks for a person who is
ready.

Every wait is for a state, bounded with room for a loaded machine. The deals that need a
situation are dealt from fixed decks (`--dev`); the clocks are long, so no move and no expiry
happens while a test waits for the page to follow presence."""

from __future__ import annotations

import asyncio

import pytest

from domain.paohuzi.scenario import deck_for
from tests.e2e.test_web_people import wait_dealt
from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    PAGE_WAIT_MS,
    browser,
    get_json,
    new_page,
    post_json,
    put_tokens,
    shot,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]

QUICK_END = deck_for(0, {2: ["s1"] * 4 + ["s2"] * 4 + ["b3"] * 4})  # the bot's three ti win at once
NO_WIN = deck_for(0, {})  # nobody wins on the deal: it waits for the dealer (seat 0), a person
LONG_CLOCK = {"move_s": 600, "claim_s": 600, "bank_s": 0}
OFFLINE_1 = "document.querySelector('[data-offline=\"1\"]')"
STRIP_1 = "document.querySelector('#match-scores li[data-seat=\"1\"] bdi')"


async def _match_with_a_friend(base: str, browser, deck: list[int]):  # noqa: F811
    """A Paohuzi match of two deals: Bo (seat 0, its creator), Ana invited to seat 1, a bot;
    both pages at the first deal once it is dealt."""
    body = {
        "game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "name": "Bo", "length": 2,
        "deck": deck, "dealer": 0, "clock": LONG_CLOCK,
    }  # fmt: skip
    status, created = post_json(base, "/matches", body)
    assert status == 201, created
    deal = created["deal_id"]
    bo = await new_page(browser, base)
    await put_tokens(bo, base, deal, created["tokens"], seed="bo-seed")
    await bo.evaluate("deal => localStorage.setItem('ds.ready.' + deal, JSON.stringify('bo-seed'))", deal)
    await bo.goto(f"{base}/#/play/{deal}/0")
    await bo.wait_for_selector("#waiting-room")
    ana = await new_page(browser, base)
    await ana.goto(f"{base}/#/join/{deal}/{created['invites']['1']}")
    await ana.wait_for_selector("#join-name")
    await ana.fill("#join-name", "Ana")
    await ana.click("#join-submit")
    return deal, created["tokens"]["0"], bo, ana


async def _until(check, timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out waiting"
        await asyncio.sleep(0.1)


async def test_not_connected_follows_a_person_leaving_and_coming_back(web_server, browser):  # noqa: F811
    """The deal waits for Bo (a ten-minute clock): nothing is appended while Ana leaves and comes
    back, and Bo's table still says so within seconds each way. The match strip names Ana from
    the moment she sat down, not "Open seat 1"."""
    base = web_server
    deal, _token, bo, ana = await _match_with_a_friend(base, browser, NO_WIN)
    for page in (bo, ana):
        await wait_dealt(page)
    await wait_js(bo, f"{STRIP_1} && {STRIP_1}.textContent === 'Ana'", 30)
    await wait_js(bo, f"!{OFFLINE_1}", 20)  # Ana's stream may open just after the deal is dealt
    version = await bo.evaluate("window.dealstream.state().version")
    await ana.goto(f"{base}/#/")  # Ana leaves the table: her stream ends
    await wait_js(bo, OFFLINE_1, 20)
    await bo.screenshot(path=shot("marks-not-connected"))
    await ana.goto(f"{base}/#/play/{deal}/1")  # and comes back
    await wait_js(bo, f"!{OFFLINE_1}", 20)
    assert await bo.evaluate("window.dealstream.state().version") == version  # no move in between
    for page in (bo, ana):
        assert page.js_errors == []


async def test_between_hands_nobody_ready_is_asked_for_and_nobody_is_not_connected(web_server, browser):  # noqa: F811
    """The first deal ends at once. On both result sheets nobody is "not connected"; Bo goes on
    to the next hand first: its waiting room waits for Ana only (Bo is ready), and does not call
    Ana, still on the sheet, "not connected". Ana follows and the hand is dealt."""
    base = web_server
    first, token, bo, ana = await _match_with_a_friend(base, browser, QUICK_END)
    for page in (bo, ana):
        await page.wait_for_selector("#result", timeout=PAGE_WAIT_MS)
        await page.wait_for_selector("#match-next", timeout=PAGE_WAIT_MS)
    # after the end no stream is open on the deal, so nobody is connected to it any more
    await _until(lambda: get_json(base, f"/deals/{first}/view", token)["seating"]["connected"] == [])
    await bo.reload()
    await bo.wait_for_selector("#match-next", timeout=PAGE_WAIT_MS)
    assert not await bo.evaluate(f"!!{OFFLINE_1}"), "Ana is on her result sheet"
    await bo.click("#match-next")
    await wait_js(bo, f"!location.hash.includes('{first}')", 30)
    await bo.wait_for_selector("#waiting-room")
    await wait_js(bo, "document.querySelector('#waiting-room li[data-room-seat=\"0\"] .room-status')"
                  ".textContent === 'ready'", 30)  # fmt: skip
    note = await bo.text_content("#room-note")
    assert "Ana" in note and "You" not in note, note
    assert not await bo.evaluate(f"!!{OFFLINE_1}"), "Ana has not opened the next hand yet"
    await bo.screenshot(path=shot("marks-between-hands"))
    await ana.click("#match-next")
    for page in (bo, ana):
        await wait_dealt(page)
    for page in (bo, ana):
        assert page.js_errors == []
