"""The ratings pages in headless Chromium: after two rated deals of a signed-in account against
house bots (played to their end over HTTP with a fixed deck), the leaderboard lists the three
rated players, best first, marked provisional, and the account's profile draws its rating as a
line through one point per rated deal."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from service.app.games import kit
from tests.e2e.test_http_players import play_seats
from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    PAGE_WAIT_MS,
    browser,
    new_page,
    shot,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]
PASSWORD = "charted rating"


async def _rated_games(base: str, name: str, deals: int) -> list[str]:
    async with aiohttp.ClientSession(base, cookie_jar=aiohttp.DummyCookieJar()) as http:
        async with http.post("/accounts", json={"name": name, "password": PASSWORD}) as resp:
            assert resp.status == 201, await resp.text()
            cookie = {"Cookie": f"ds_session={resp.cookies['ds_session'].value}"}
        body = {
            "game": "paohuzi",
            "seats": ["human", "bot:greedy", "bot:strong"],
            "rated": True,
            "deck": list(range(kit("paohuzi").game.deck_size)),
            "dealer": 0,
        }
        made_ids = []
        for n in range(deals):
            async with http.post("/deals", json=body, headers=cookie) as resp:
                assert resp.status == 201, await resp.text()
                made = await resp.json()
                made_ids.append(made["deal_id"])
            await play_seats(http, made["deal_id"], [made["tokens"]["0"]], f"web-{n}")
        for _ in range(1500):
            async with http.get("/ratings/paohuzi") as resp:
                players = (await resp.json())["players"]
            if len(players) == 3 and all(p["games"] == deals for p in players):
                return made_ids
            await asyncio.sleep(0.02)
        raise AssertionError("the rated results were not counted")


async def test_the_leaderboard_and_a_profile_with_its_rating_chart(web_server, browser):  # noqa: F811
    deals = await _rated_games(web_server, "Charted", 2)
    page = await new_page(browser, web_server)
    await page.goto(web_server + "/#/ratings/paohuzi")
    await page.wait_for_selector("#leaderboard .rate-table tbody tr")
    names = await page.eval_on_selector_all(
        "#leaderboard tbody th", "els => els.map(e => e.textContent.trim())"
    )
    assert len(names) == 3 and "Charted" in names
    shown = await page.eval_on_selector_all(
        "#leaderboard tbody td:nth-child(3)", "els => els.map(e => parseFloat(e.textContent))"
    )
    assert shown == sorted(shown, reverse=True)
    assert await page.locator("#leaderboard small.muted").count() == 3  # all provisional after two
    await page.screenshot(path=shot("ratings-leaderboard"), full_page=True)
    await page.click('#leaderboard a[href="#/player/Charted"]')
    await page.wait_for_selector("#profile svg.rate-chart polyline")
    assert await page.locator("#profile svg.rate-chart circle").count() == 2
    points = await page.get_attribute("#profile svg.rate-chart polyline", "points")
    assert len(points.split()) == 2
    await page.screenshot(path=shot("ratings-profile"), full_page=True)
    history = await page.evaluate(
        "async () => (await (await fetch('/accounts/Charted')).json()).history.paohuzi.map(p => p.rating)"
    )

    # signed in on this page, the last deal's result sheet shows the rating and its change
    await page.goto(web_server + "/")
    await page.wait_for_selector("#acct-form")
    await page.fill("#acct-name", "Charted")
    await page.fill("#acct-password", PASSWORD)
    await page.click("#acct-signin")
    await page.wait_for_selector("#acct-who")
    await page.goto(web_server + f"/#/play/{deals[-1]}/0")
    await page.wait_for_selector("#result #rating-change", timeout=PAGE_WAIT_MS)
    line = await page.text_content("#rating-change")
    change = history[1] - history[0]
    assert f"{round(history[1], 1):.1f}" in line
    assert f"{'+' if change >= 0 else '−'}{round(abs(change), 1):.1f}" in line
    await page.screenshot(path=shot("ratings-result-sheet"), full_page=True)
    assert page.js_errors == []


async def test_a_rated_deal_from_the_lobby_shows_the_rating_change_on_its_result(web_server, browser):  # noqa: F811
    from tests.e2e.test_web_accounts import pick
    from tests.e2e.test_web_table import play_by_clicking

    page = await new_page(browser, web_server)
    await page.goto(web_server + "/")
    await page.wait_for_selector("#acct-form")
    await page.fill("#acct-name", "Lobbyist")
    await page.fill("#acct-password", PASSWORD)
    await page.click("#acct-signup")
    await page.wait_for_selector("#acct-who")
    await page.wait_for_selector("#start")
    await page.check('input[name="game"][value="paohuzi"]')
    for i, kind in enumerate(["human", "bot:greedy", "bot:strong"]):
        await page.select_option(f"#seat-{i}", kind)
    await page.check("#rated")
    await page.click("#start")
    await page.wait_for_selector(".play-page[data-game=paohuzi]")
    await play_by_clicking(page, pick, name="rated-lobby")
    await page.wait_for_selector("#result #rating-change", timeout=PAGE_WAIT_MS)
    line = await page.text_content("#rating-change")
    profile = await page.evaluate("async () => (await fetch('/accounts/Lobbyist')).json()")
    (point,) = profile["history"]["paohuzi"]
    assert f"{round(point['rating'], 1):.1f}" in line
    assert page.js_errors == []
