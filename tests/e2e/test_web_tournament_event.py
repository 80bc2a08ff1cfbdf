"""A whole tournament run from the browser in headless Chromium: an organiser makes a two-round
Swiss MCR event with open entries in the form (an unknown entrant and a duplicate event with
people are refused there, naming TN-1.2 and TN-3.4), is shown the arbiter's token once and keeps
it only in that browser; two people, each signed in in a browser of their own, join from the
tournament page, and go to their seat with one click in each round; the other seats are house
fillers. Round 2 is paired after round 1, the standings end with the table points the service
computed, and the arbiter's page lists the finished deals with their claim windows and records a
ruling that shows in the standings. The form, the page and the arbiter's page fit a phone's
width, and the arbiter's page speaks Arabic too."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time

import aiohttp
import pytest

from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    browser,
    get_json,
    new_page,
    shot,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]

WAIT_S = 180.0  # generous: a loaded two-core machine
PASSWORD = "correct horse battery"


async def _sign_up(page, base: str, name: str) -> None:
    """An account made from this browser, which is then signed in as it (the session cookie)."""
    await page.goto(base + "/")
    await page.wait_for_selector("#tn-new-link")
    status = await page.evaluate(
        """async ([name, password]) => (await fetch('/accounts', {method: 'POST',
             headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({name, password})})).status""",
        [name, PASSWORD],
    )
    assert status == 201, status
    await page.reload()  # the page asks who is signed in once per load


async def _phone_width_fits(page) -> None:
    await page.set_viewport_size({"width": 360, "height": 740})
    width = await page.evaluate("document.documentElement.scrollWidth")
    wide = await page.evaluate(  # the elements that stick out, named in a failure
        """[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 370)
             .slice(0, 8).map(e => `${e.tagName}#${e.id}.${e.className}`)"""
    )
    assert width <= 380, (width, wide)  # no sideways scroll at a phone's width (a table may scroll inside)
    await page.set_viewport_size({"width": 1280, "height": 800})


async def _tokens(page, deal: str) -> dict[str, str]:
    raw = await page.evaluate("deal => localStorage.getItem('ds.tokens.' + deal)", deal)
    return json.loads(raw) if raw else {}


async def _take_seat(page, base: str, tid: str, not_deal: str | None) -> tuple[str, dict[str, str]]:
    """From the tournament page, one click on "Go to my seat": answers the deal and the seat
    token the page took for this browser."""
    await page.goto(f"{base}/#/tournament/{tid}")
    go = "#tn-go" if not_deal is None else f"#tn-go:not([href*='{not_deal}'])"
    await page.wait_for_selector(go, timeout=WAIT_S * 1000)
    await page.click(go)
    await wait_js(page, "location.hash.startsWith('#/play/')", timeout=WAIT_S)
    deal = re.match(r"#/play/([0-9a-f]+)", await page.evaluate("location.hash")).group(1)  # type: ignore[union-attr]
    await wait_js(page, f"localStorage.getItem('ds.tokens.{deal}')", timeout=WAIT_S)
    tokens = await _tokens(page, deal)
    assert len(tokens) == 1, tokens
    return deal, tokens


async def _play_out(base: str, deal: str, tokens: dict[str, str], seed: int) -> None:
    """The simplest legal move for the people at every prompt (a win when there is one) until the
    deal ends; the bots play in the server."""
    rng = random.Random(seed)
    deadline = time.monotonic() + WAIT_S
    async with aiohttp.ClientSession(base) as http:
        n = 0
        while time.monotonic() < deadline:
            n += 1
            views = {}
            for seat, token in tokens.items():
                async with http.get(f"/deals/{deal}/view", headers={"Authorization": f"Bearer {token}"}) as r:
                    assert r.status == 200, await r.text()
                    views[seat] = await r.json()
            if next(iter(views.values()))["result"] is not None:
                return
            acting = [(s, v) for s, v in views.items() if v["legal_actions"]]
            if not acting:
                await asyncio.sleep(0.05)
                continue
            seat, view = rng.choice(acting)
            actions = view["legal_actions"]
            wins = [a for a in actions if a["type"] in ("Win", "DeclareWin") or a.get("claim") == "win"]
            passes = [a for a in actions if a["type"] == "Pass" or a.get("answer") == "pass"]
            command = wins[0] if wins else passes[0] if passes else actions[0]
            if command["type"] == "StartDeal":  # the table waits for a person to deal: with a seed
                command = {**command, "client_seed": f"seed-{seat}-{n}"}
            body = {"command_id": f"e{seed}-{n}", "command": command}
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            async with http.post(f"/deals/{deal}/commands", json=body, headers=headers) as r:
                if r.status in (403, 409, 422):  # a window closed, the view moved on: look again
                    continue
                assert r.status == 200, await r.text()
    raise AssertionError(f"deal {deal} did not end")


async def _create_in_the_form(page, base: str) -> tuple[str, str]:
    await page.goto(base + "/")
    await page.click("#tn-new-link")
    await page.wait_for_selector("#tn-create")
    await _phone_width_fits(page)
    await page.fill("#tn-name", "Spring open")
    await page.select_option("#tn-game", "mcr")
    await page.fill("#tn-rounds", "2")
    await page.fill("#tn-deals", "1")
    await page.check('input[name="tn-pace"][value="fast"]')
    # an entrant who is neither an account nor a house bot is refused, named
    await page.fill("#tn-players", "nobody-here\nbot:greedy")
    await page.click("#tn-submit")
    await wait_js(page, "document.querySelector('#tn-error').textContent.includes('TN-1.2')")
    error = await page.text_content("#tn-error")
    assert "TN-1.2" in error and "nobody-here" in error, error
    await page.check("#tn-open")
    assert await page.is_disabled("#tn-players")
    await page.check("#tn-fill")
    await page.check('input[name="tn-format"][value="swiss"]')
    await page.click("#tn-submit")
    await page.wait_for_selector("#tn-token")
    token = (await page.text_content("#tn-token")).strip()
    await page.screenshot(path=shot("tournament-created"))
    await page.click("#tn-open-page")
    await wait_js(page, "location.hash.startsWith('#/tournament/')")
    tid = (await page.evaluate("location.hash")).split("/")[2]
    assert await page.evaluate(f"JSON.parse(localStorage.getItem('ds.arbiter.{tid}'))") == token
    return tid, token


async def test_an_organiser_and_two_people_run_a_swiss_event_from_the_browser(web_server, browser):  # noqa: F811
    base = web_server
    organiser = await new_page(browser, base)
    ada = await new_page(browser, base)
    brook = await new_page(browser, base)
    tid, token = await _create_in_the_form(organiser, base)
    await organiser.wait_for_selector("#tournament[data-started='false'] #tn-start")

    people = {"Ada": ada, "Brook": brook}
    for name, page in people.items():
        await _sign_up(page, base, name)
        await page.goto(f"{base}/#/tournament/{tid}")
        await page.click("#tn-join")
        await page.wait_for_selector("#tn-entered")
        await page.wait_for_selector("#tn-seat")  # "not started yet"
    # the organiser's page reads the entries again on its own; then entries close and round 1 starts
    await wait_js(organiser, "document.querySelectorAll('#tn-entrant-list bdi').length === 2", timeout=WAIT_S)
    await organiser.click("#tn-start")
    await organiser.wait_for_selector("#tournament[data-started='true']", timeout=WAIT_S * 1000)

    played: list[str] = []
    for round_no in (1, 2):
        last = played[-1] if played else None
        seats = [await _take_seat(page, base, tid, last) for page in people.values()]
        deals = {deal for deal, _ in seats}
        assert len(deals) == 1, seats  # four seats a table: both people and two house fillers
        deal = deals.pop()
        assert deal not in played
        tokens = {**seats[0][1], **seats[1][1]}
        assert len(tokens) == 2
        if round_no == 1:
            await ada.screenshot(path=shot("tournament-seat"))
        await _play_out(base, deal, tokens, seed=round_no)
        played.append(deal)

    await organiser.goto(f"{base}/#/tournament/{tid}")
    await organiser.wait_for_selector("#tournament[data-over='true']", timeout=WAIT_S * 1000)
    view = get_json(base, f"/tournaments/{tid}")
    assert [r["round"] for r in view["rounds"]] == [1, 2]
    assert [t["deals"] for r in view["rounds"] for t in r["tables"]] == [[played[0]], [played[1]]]
    rows = await organiser.eval_on_selector_all(
        "#tn-standings tbody tr", "els => els.map(e => [...e.children].map(c => c.textContent.trim()))"
    )
    assert [(r[1], float(r[2]), int(r[3])) for r in rows] == [
        (s["player"], s["table_points"], s["score"]) for s in view["standings"]
    ]
    assert sorted(r[1] for r in rows) == ["Ada", "Brook"]
    assert sum(s["table_points"] for s in view["standings"]) >= 2  # each round: the people's share of 4/2/1/0
    for r in view["rounds"]:  # each table's match scores beside its players
        table = r["tables"][0]
        text = await organiser.text_content(f".tn-round[data-round='{r['round']}'] li[data-table='1']")
        assert all(p in text for p in table["players"]) and len(table["scores"]) == 4
    assert token not in await organiser.content()
    assert not [u for p in (organiser, ada, brook) for u in p.requests if token in u]  # type: ignore[attr-defined]

    # the arbiter's page: the finished deals with their claim windows, and a ruling
    await organiser.click("#tn-arbiter-link")
    await organiser.wait_for_selector("#tn-ruling")
    assert await organiser.locator("#tn-deals li.tn-deal").count() == 2
    await organiser.click(f"li.tn-deal[data-deal='{played[0]}'] summary")
    windows = get_json(base, f"/tournaments/{tid}/arbiter", token)["deals"][0]["claim_windows"]
    assert await organiser.locator(f"li.tn-deal[data-deal='{played[0]}'] .tn-window").count() == len(windows)
    await organiser.screenshot(path=shot("tournament-arbiter"), full_page=True)
    await _phone_width_fits(organiser)
    before = next(s for s in view["standings"] if s["player"] == "Ada")
    await organiser.select_option("#tn-r-player", "Ada")
    await organiser.fill("#tn-r-points", "-5")
    await organiser.fill("#tn-r-reason", "claimed after the window")
    await organiser.fill("#tn-r-rule", "TB-4.1")
    await organiser.select_option("#tn-r-deal", played[0])
    await organiser.click("#tn-r-submit")
    await wait_js(organiser, "document.querySelector('#tn-done').textContent.includes('Ada')")
    after = get_json(base, f"/tournaments/{tid}")
    ruling = {"player": "Ada", "points": -5, "reason": "claimed after the window", "rule": "TB-4.1"}
    assert after["rulings"] == [{**ruling, "deal_id": played[0]}]
    await organiser.click("#tn-back")
    await organiser.wait_for_selector("#tn-rulings li")
    row = await organiser.eval_on_selector(
        "#tn-standings tr[data-player='Ada']", "e => [...e.children].map(c => c.textContent.trim())"
    )
    assert row[3] == str(before["score"] - 5) and row[-1] == "-5", row
    await organiser.screenshot(path=shot("tournament-ruled"))
    await _phone_width_fits(organiser)
    await organiser.select_option("#lang", "ar")
    await organiser.wait_for_selector("text=قرارات الحَكَم")
    await organiser.goto(f"{base}/#/tournament/{tid}/arbiter")
    await organiser.wait_for_selector("text=صفحة الحَكَم")
    await _phone_width_fits(organiser)
    await organiser.screenshot(path=shot("tournament-arbiter-ar"))
    # anyone else's browser is asked for the token, and a wrong one shows nothing of the deals
    await brook.goto(f"{base}/#/tournament/{tid}/arbiter")
    await brook.fill("#tn-token-in", "not-the-token")
    await brook.click("#tn-token-form button")
    await brook.wait_for_selector("#tn-forget")
    assert "DS-56" in await brook.text_content("#tn-arbiter") and not await brook.locator(".tn-deal").count()
    await brook.click("#tn-forget")
    await brook.wait_for_selector("#tn-token-in")
    for page in (organiser, ada, brook):
        assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
        assert not page.foreign_requests  # type: ignore[attr-defined]
