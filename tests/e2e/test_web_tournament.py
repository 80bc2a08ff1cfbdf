"""The tournament page in headless Chromium: a duplicate Paohuzi event of house bots shows its
standings with duplicate scores and the result against the house bots, each board's results table
by table beside the house bots', an arbiter's ruling beside the score it changed, every round's
tables and its revealed seed; at a phone's width too, and in another language."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest

from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    browser,
    new_page,
    post_json,
    shot,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]


def _get(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return json.loads(r.read())


async def _finished(base: str, tid: str) -> dict:
    for _ in range(1200):
        view = _get(base, f"/tournaments/{tid}")
        if view["over"]:
            return view
        await asyncio.sleep(0.1)
    raise AssertionError("the tournament did not end")


async def test_the_tournament_page_shows_standings_rulings_and_rounds(web_server, browser):  # noqa: F811
    status, made = post_json(
        web_server, "/tournaments",
        {"game": "paohuzi", "format": "duplicate", "rounds": 2, "players": ["bot:greedy"] * 6, "pace": "fast",
         "name": "Web cup"},
    )  # fmt: skip
    assert status == 201, made
    tid = made["tournament_id"]
    view = await _finished(web_server, tid)
    ruled = view["standings"][-1]["player"]
    status, _ = post_json(
        web_server, f"/tournaments/{tid}/rulings",
        {"player": ruled, "points": 7, "reason": "a late claim undone", "rule": "TB-4.1", "deal_id": ""},
        made["arbiter_token"],
    )  # fmt: skip
    assert status == 201
    page = await new_page(browser, web_server)
    await page.goto(f"{web_server}/#/tournament/{tid}")
    await page.wait_for_selector("#tournament[data-over='true'] #tn-standings tbody tr")
    assert (await page.text_content("#tournament h1")).strip() == "Web cup"
    rows = await page.eval_on_selector_all(
        "#tn-standings tbody tr", "els => els.map(e => [...e.children].map(c => c.textContent.trim()))"
    )
    assert len(rows) == 6 and [r[0] for r in rows] == [str(n) for n in range(1, 7)]
    by_player = {r[1]: r for r in rows}
    assert by_player[ruled][-1] == "+7"  # the ruling beside the score it changed
    headers = await page.eval_on_selector_all(
        "#tn-standings thead th", "els => els.map(e => e.textContent.trim())"
    )
    assert "Duplicate score" in headers and "Against the house bots" in headers
    assert await page.locator("#tn-rulings li").count() == 1
    assert await page.locator(".tn-round").count() == 2
    assert await page.locator(".tn-round[data-round='1'] li").count() == 3  # two tables and the house
    # board by board: each table's payments beside the house bot's in the same seat
    first = view["rounds"][0]
    house = next(b for b in view["benchmark"] if b["round"] == 1)
    await page.click(".tn-round[data-round='1'] .tn-boards summary")
    board = ".tn-round[data-round='1'] .tn-board[data-board='1']"
    cells = await page.eval_on_selector_all(
        f"{board} tbody tr", "els => els.map(e => [...e.children].map(c => c.textContent.trim()))"
    )
    assert len(cells) == 3 and all(len(row) == 1 + len(first["tables"]) + 1 for row in cells)
    for seat, row in enumerate(cells):
        assert row[-1] == f"{house['payments'][0][seat]:+d}".replace("+0", "0")
        for k, tb in enumerate(first["tables"]):
            pay, ref = tb["payments"][0][seat], house["payments"][0][seat]
            against = f"({pay - ref:+d})".replace("+0)", "0)")
            assert tb["players"][seat] in row[1 + k] and against in row[1 + k]
    seed = view["rounds"][0]["seed"]
    assert seed[:16] in await page.text_content(".tn-round[data-round='1']")
    await page.screenshot(path=shot("tournament"))
    await page.set_viewport_size({"width": 360, "height": 740})
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 380, width  # no sideways scroll at a phone's width (a table may scroll inside)
    await page.select_option("#lang", "fi")
    await page.wait_for_selector("text=Tilanne")
    await page.screenshot(path=shot("tournament-phone-fi"))
