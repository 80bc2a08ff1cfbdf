""" "Play again" with a friend in two headless Chromium contexts that share nothing: the creator's
click makes the new deal, the friend's open result sheet follows to it, and both sit in their
own seats with their names, deal it with their seeds and play on.

Every wait is for a state, bounded with room for a loaded machine. The first deal is dealt from a
fixed deck (`--dev`) in which the bot wins at once, so it ends with no move."""

from __future__ import annotations

import pytest

from domain.paohuzi.scenario import deck_for
from tests.e2e.test_web_people import seat_names, wait_dealt
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


async def _ended_with_a_friend(base: str, browser, seats: list[str] | None = None):  # noqa: F811
    """Bo's deal with Ana invited (seat 1) beside a bot, ended at once: both pages on the sheet."""
    body = {
        "game": "paohuzi", "seats": seats or ["human", "open", "bot:greedy"], "name": "Bo",
        "deck": QUICK_END, "dealer": 0, "pace": "fast",
    }  # fmt: skip
    status, created = post_json(base, "/deals", body)
    assert status == 201, created
    old = created["deal_id"]
    bo = await new_page(browser, base)
    await put_tokens(bo, base, old, created["tokens"], seed="bo-seed")
    await bo.evaluate("deal => localStorage.setItem('ds.ready.' + deal, JSON.stringify('bo-seed'))", old)
    await bo.goto(f"{base}/#/play/{old}/0")
    await bo.wait_for_selector("#waiting-room")
    ana = await new_page(browser, base)
    await ana.goto(f"{base}/#/join/{old}/{created['invites']['1']}")
    await ana.wait_for_selector("#join-name")
    await ana.fill("#join-name", "Ana")
    await ana.fill("#join-seed", "ana-seed")
    await ana.click("#join-submit")
    for page in (bo, ana):
        await page.wait_for_selector("#result", timeout=PAGE_WAIT_MS)
    return old, bo, ana


async def _on_new_deal(page, old: str, seat: int) -> str:
    await wait_js(page, f"location.hash.startsWith('#/play/') && !location.hash.includes('{old}')", 60)
    new, shown_seat = page.url.split("#/play/")[1].split("/")[:2]
    assert int(shown_seat) == seat
    return new


async def test_play_again_seats_both_people_again_with_their_names(web_server, browser):  # noqa: F811
    """Bo clicks "Play again"; Ana does nothing: her page follows to the new deal, in her seat.
    Both are seated there by name, no seat is open, and the deal is dealt with both seeds."""
    base = web_server
    old, bo, ana = await _ended_with_a_friend(base, browser)
    await bo.click("#play-again")
    new = await _on_new_deal(bo, old, 0)
    assert await _on_new_deal(ana, old, 1) == new
    for page in (bo, ana):
        await wait_dealt(page)
        assert await page.evaluate("window.dealstream.state().deal") == new
    assert (await seat_names(bo))[1] == "Ana"
    assert (await seat_names(ana))[0] == "Bo"
    summary = get_json(base, f"/deals/{new}")
    assert summary["rematch_of"] == old and summary["names"] == ["Bo", "Ana", None]
    assert summary["seats"] == ["human", "human", "bot:greedy"] and summary["open_seats"] == []
    assert summary["waiting_to_start"] == []
    await ana.screenshot(path=shot("play-again-friend-follows"))
    for page in (bo, ana):
        assert page.js_errors == []
        assert page.foreign_requests == []


async def test_the_friend_may_ask_first_and_the_creator_follows(web_server, browser):  # noqa: F811
    """Ana, who joined with an invite, clicks "Play again" first: Bo keeps his seat and name."""
    base = web_server
    old, bo, ana = await _ended_with_a_friend(base, browser)
    await ana.click("#play-again")
    new = await _on_new_deal(ana, old, 1)
    assert await _on_new_deal(bo, old, 0) == new
    for page in (bo, ana):
        await wait_dealt(page)
    assert (await seat_names(ana))[0] == "Bo" and (await seat_names(bo))[1] == "Ana"
    assert get_json(base, f"/deals/{new}")["names"] == ["Bo", "Ana", None]
    for page in (bo, ana):
        assert page.js_errors == []
