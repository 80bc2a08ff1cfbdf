"""Quick play in headless Chromium: two people who never met sign up in two browsers that share
nothing, each clicks "Quick play" for Paohuzi and sees the wait counting; no third person comes,
so after the lobby's bots_after_s house bots take the last seat, and both pages open their own
seats of the same new deal, named by their accounts, and deal it.

Every wait is for a state, bounded with room for a loaded machine."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_web_people import seat_names, wait_dealt
from tests.e2e.web_conftest import browser, get_json, new_page, wait_js, web_server  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]
PASSWORD = "correct horse battery"


async def _signed_up(browser, base: str, name: str):  # noqa: F811
    page = await new_page(browser, base)
    await page.goto(base + "/")
    await page.wait_for_selector("#acct-form")
    await page.fill("#acct-name", name)
    await page.fill("#acct-password", PASSWORD)
    await page.click("#acct-signup")
    await page.wait_for_selector("#acct-who")
    return page


async def test_two_strangers_quick_play_into_one_table(web_server, browser):  # noqa: F811
    base = web_server
    ana = await _signed_up(browser, base, "Anneli")
    bo = await _signed_up(browser, base, "Bosse")
    for page in (ana, bo):
        await page.click("#quick-paohuzi")
        await page.wait_for_selector("#quick-wait:not([hidden])")
    await wait_js(ana, "/[1-9] s/.test(document.querySelector('#quick-wait').textContent)", 30)  # counting
    seats = {}
    for name, page in (("Anneli", ana), ("Bosse", bo)):
        await wait_js(page, "location.hash.startsWith('#/play/')", 90)
        deal, seat = re.match(r"#/play/([0-9a-f]+)/(\d)", await page.evaluate("location.hash")).groups()
        seats[name] = (deal, int(seat))
    assert seats["Anneli"][0] == seats["Bosse"][0] and seats["Anneli"][1] != seats["Bosse"][1]
    for page in (ana, bo):
        await wait_dealt(page)
    deal = seats["Anneli"][0]
    summary = get_json(base, f"/deals/{deal}")
    assert summary["seats"].count("human") == 2 and summary["waiting_to_start"] == []
    for name, (_deal, seat) in seats.items():
        assert summary["names"][seat] == name
    assert (await seat_names(ana))[seats["Bosse"][1]] == "Bosse"  # each page names the other
    assert (await seat_names(bo))[seats["Anneli"][1]] == "Anneli"
    for page in (ana, bo):
        assert page.js_errors == []
        assert page.foreign_requests == []
