"""Accounts in headless Chromium: a person signs up in the lobby on a laptop and deals a game
there (the laptop's table sends its seed and the cards are dealt), then a phone (another browser
context: no shared storage or cookies) signs in with a code the laptop shows, finds the live deal
under "My games", opens the same seat (the page asks POST /deals/{id}/my-seat for a token of it)
and plays the deal to its end there. The password, the session and the device code are never in
a URL the pages request."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_web_table import play_by_clicking, start_from_lobby
from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    browser,
    new_page,
    shot,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]
PASSWORD = "laptop and phone"


def pick(options):
    for kind in ("Claim:win", "DeclareWin", "Win"):
        if kind in options:
            return kind
    return "Pass" if "Pass" in options else options[0]


async def test_a_seat_follows_the_account_from_a_laptop_to_a_phone(web_server, browser):  # noqa: F811
    laptop = await new_page(browser, web_server)
    await laptop.goto(web_server + "/")
    await laptop.wait_for_selector("#acct-form")
    await laptop.fill("#acct-name", "Wanderer")
    await laptop.fill("#acct-password", PASSWORD)
    await laptop.click("#acct-signup")
    await laptop.wait_for_selector("#acct-who")
    assert "Wanderer" in await laptop.text_content("#acct-who")
    await start_from_lobby(laptop, web_server, "mcr")
    await laptop.wait_for_selector(".play-page[data-game=mcr]")
    deal = re.match(r"#/play/([0-9a-f]+)/0", await laptop.evaluate("location.hash")).group(1)
    await laptop.wait_for_function("() => Number(document.querySelector('.play-page').dataset.version) > 0")

    # the laptop shows a code for another device
    await laptop.goto(web_server + "/")
    await laptop.click("#acct-device")
    await laptop.wait_for_selector("#acct-code-value")
    code = (await laptop.text_content("#acct-code-value")).strip()
    assert re.fullmatch(r"[A-Z2-9]{5}-[A-Z2-9]{5}", code), code

    phone = await new_page(browser, web_server, 390, 844)
    await phone.goto(web_server + "/")
    await phone.wait_for_selector("#acct-code-form")
    await phone.fill("#acct-code", code.lower())
    await phone.click("#acct-code-go")
    await phone.wait_for_selector("#acct-who")
    row = f'#mine-deals li[data-deal="{deal}"]'
    await phone.wait_for_selector(row)
    assert await phone.get_attribute(row, "data-status") == "playing"
    await phone.screenshot(path=shot("account-phone-my-games"), full_page=True)
    await phone.click(f'{row} a[data-link="table"]')
    await phone.wait_for_selector(".play-page[data-game=mcr]")
    assert await phone.evaluate("location.hash") == f"#/play/{deal}/0"
    # the phone's table is the same live deal, dealt already on the laptop
    await phone.wait_for_function("() => Number(document.querySelector('.play-page').dataset.version) > 0")
    await play_by_clicking(phone, pick, name="account-phone")
    await phone.wait_for_selector("#result")

    # the laptop's list says the same deal is over
    await laptop.goto(web_server + "/")
    await laptop.wait_for_selector(f'#mine-deals li[data-deal="{deal}"][data-status="over"]')
    for page in (laptop, phone):
        assert not any(
            secret in url for url in page.requests for secret in (PASSWORD, code, code.replace("-", ""))
        )
        assert page.js_errors == []
        assert page.foreign_requests == []
