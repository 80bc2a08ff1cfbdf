"""A one-round duplicate Paohuzi event with a person, run from the browser in headless Chromium:
an organiser makes it in the form with a signed-in account among house bots (fillers make up the
tables); the person goes to their seat with one click from the tournament page and plays their
deal to the end. While the person's table still plays and the other tables have finished the
board, the person's tournament page offers no watch link for any table and shows no result of
the board (TN-3.6: the board is sealed). Once the round is over, "Board by board" shows the
board at every table beside the house bots with the service's numbers, and the standings' result
against the house is the service's. The page fits a phone's width in both states."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.e2e.test_web_tournament_event import (
    WAIT_S,
    _phone_width_fits,
    _play_out,
    _sign_up,
    _take_seat,
)
from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    browser,
    get_json,
    new_page,
    shot,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]


async def _until(check, what: str):
    """Polls ``check`` (a plain function reading the API) until it answers something true."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        await asyncio.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


async def _create_duplicate_in_the_form(page, base: str, person: str) -> str:
    """The form filled for a one-round duplicate Paohuzi event: the person and three house bots,
    fillers making up the second table. Answers the tournament's id."""
    await page.goto(base + "/")
    await page.click("#tn-new-link")
    await page.wait_for_selector("#tn-create")
    await page.fill("#tn-name", "Duplicate night")
    await page.select_option("#tn-game", "paohuzi")
    await page.check('input[name="tn-format"][value="duplicate"]')
    await page.fill("#tn-rounds", "1")
    await page.fill("#tn-deals", "1")
    await page.check('input[name="tn-pace"][value="fast"]')
    # a long turn for people: the table does not start the person's deal for them (TN-1.4)
    # while the test looks at the page
    await page.fill("#tn-clock-move_s", "120")
    await page.fill("#tn-players", f"{person}\nbot:greedy\nbot:strong\nbot:random")
    await page.check("#tn-fill")
    await page.click("#tn-submit")
    await page.wait_for_selector("#tn-token")
    await page.click("#tn-open-page")
    await wait_js(page, "location.hash.startsWith('#/tournament/')")
    return (await page.evaluate("location.hash")).split("/")[2]


async def test_a_person_plays_a_duplicate_board_sealed_until_the_round_ends(web_server, browser):  # noqa: F811
    base = web_server
    organiser = await new_page(browser, base)
    ada = await new_page(browser, base)
    await _sign_up(ada, base, "Ada")
    tid = await _create_duplicate_in_the_form(organiser, base, "Ada")
    view = get_json(base, f"/tournaments/{tid}")
    assert view["format"] == "duplicate" and view["game"] == "paohuzi" and view["started"], view
    assert len(view["entrants"]) == 6  # two tables of three, fillers making up the second

    deal, tokens = await _take_seat(ada, base, tid, None)  # one click on "Go to my seat"
    rnd = get_json(base, f"/tournaments/{tid}")["rounds"][0]
    own = next(t for t in rnd["tables"] if deal in t["deals"])
    assert "Ada" in own["players"]

    def others_finished() -> bool:
        """Every table but the person's (the house's included) has finished the board."""
        shown = get_json(base, f"/tournaments/{tid}")
        if len(shown["rounds"][0]["tables"]) != 2 or len(shown["benchmark"]) != 1:
            return False  # the house table is still being made
        others = [t for t in shown["rounds"][0]["tables"] if t["table"] != own["table"]] + shown["benchmark"]
        return all(t["deals"] and get_json(base, f"/deals/{t['deals'][0]}")["over"] for t in others)

    # the person's table waits for its person to deal; the bots' tables play the board out
    await _until(others_finished, "the other tables to finish the board")
    assert not get_json(base, f"/deals/{deal}")["over"]
    await ada.goto(f"{base}/#/tournament/{tid}")
    await ada.wait_for_selector("#tournament[data-started='true'] .tn-round[data-round='1'] li[data-table]")
    assert await ada.locator(".tn-round li[data-table]").count() == 3  # two tables and the house's
    # no table of a duplicate round is watched live, and no result of the sealed board shows
    assert not await ada.locator("#tournament a[href^='#/watch/']").count()
    assert not await ada.locator(".tn-boards").count() and not await ada.locator(".tn-score").count()
    assert await ada.locator("#tn-go").count() == 1  # the seat is still offered
    await ada.screenshot(path=shot("tournament-duplicate-sealed"), full_page=True)
    await _phone_width_fits(ada)
    shown = get_json(base, f"/tournaments/{tid}")
    assert not shown["over"] and shown["rounds"][0]["seed"] is None  # all of that while sealed
    assert not get_json(base, f"/deals/{deal}")["over"]

    await _play_out(base, deal, tokens, seed=7)
    await ada.goto(f"{base}/#/tournament/{tid}")
    await ada.wait_for_selector("#tournament[data-over='true']", timeout=WAIT_S * 1000)
    view = get_json(base, f"/tournaments/{tid}")
    assert view["over"] and view["rounds"][0]["seed"]
    tables = view["rounds"][0]["tables"]
    house = view["benchmark"][0]
    assert all(len(t["payments"]) == 1 and len(t["payments"][0]) == 3 for t in [*tables, house])

    await ada.click(".tn-round[data-round='1'] .tn-boards summary")  # "Board by board"
    board = ".tn-round[data-round='1'] table.tn-board[data-board='1']"
    await ada.wait_for_selector(board)
    head = await ada.eval_on_selector_all(f"{board} thead th", "els => els.map(e => e.textContent.trim())")
    assert head == ["Seat"] + [f"Table {t['table']}" for t in tables] + ["house"], head
    rows = await ada.eval_on_selector_all(
        f"{board} tbody tr",
        """els => els.map(tr => [...tr.querySelectorAll('td')].map(td => ({
             player: (td.querySelector('bdi') || {}).textContent || null,
             pay: (td.querySelector('b') || td).textContent.trim(),
             vs: (td.querySelector('small') || {}).textContent || null})))""",
    )
    assert len(rows) == 3  # one row a seat
    for seat, cells in enumerate(rows):
        ref = house["payments"][0][seat]
        for cell, t in zip(cells, tables, strict=False):
            pay = t["payments"][0][seat]
            assert cell["player"] == t["players"][seat], (seat, cell, t)
            assert float(cell["pay"]) == pay, (seat, cell, t)
            assert cell["vs"] is not None and float(cell["vs"].strip("()")) == pay - ref, (seat, cell, ref)
        assert float(cells[-1]["pay"]) == ref, (seat, cells[-1], house)
    assert len(rows[0]) == len(tables) + 1

    standings = await ada.eval_on_selector_all(
        "#tn-standings tbody tr", "els => els.map(e => [...e.children].map(c => c.textContent.trim()))"
    )
    expected = [(s["player"], s["vs_house"]) for s in view["standings"]]
    assert [r[1] for r in standings] == [p for p, _ in expected]
    assert "Ada" in [p for p, _ in expected]
    for row, (player, vs_house) in zip(standings, expected, strict=True):
        assert vs_house is not None and abs(float(row[5]) - vs_house) < 1e-3, (player, row, vs_house)
    await ada.screenshot(path=shot("tournament-duplicate-boards"), full_page=True)
    await _phone_width_fits(ada)
    for page in (organiser, ada):
        assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
        assert not page.foreign_requests  # type: ignore[attr-defined]
