"""The seats' chat at the live table in headless Chromium: what one seat says appears on the other
seat's page as text (markup shown literally, never run), a set phrase is worded in the reader's
language, and a muted person's words are no longer shown on the page that muted them."""

from __future__ import annotations

import pytest

from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    PAGE_WAIT_MS,
    browser,
    new_page,
    post_json,
    put_tokens,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]

SAID = '<img src=x onerror="document.body.dataset.owned=1"><b>bold</b> & hi'


async def test_a_word_from_one_seat_appears_on_the_others_page_as_text(web_server, browser):  # noqa: F811
    base = web_server
    status, created = post_json(
        base, "/deals", {"game": "paohuzi", "seats": ["human", "human", "bot:greedy"], "name": "Ana"}
    )
    assert status == 201, created
    deal, tokens = created["deal_id"], created["tokens"]
    pages = []
    for seat in ("0", "1"):
        page = await new_page(browser, base)
        await put_tokens(page, base, deal, {seat: tokens[seat]})
        # let the lobby finish drawing first: its last steps look for its own elements, and the
        # play page would have replaced them
        await page.wait_for_load_state("networkidle")
        await page.goto(f"{base}/#/play/{deal}/{seat}")
        await page.wait_for_selector("#chat-toggle")
        await page.click("#chat-toggle")
        await page.wait_for_selector("#chat-input")
        pages.append(page)
    ana, bo = pages
    await ana.fill("#chat-input", SAID)
    await ana.click("#chat-send")
    shown = "[...document.querySelectorAll('#chat-list .chat-text')].map(e => e.textContent)"
    await wait_js(bo, f"{shown}.includes({SAID!r})")
    for page in pages:  # literal text on both pages, no element made of it, nothing ran
        await wait_js(page, f"{shown}.includes({SAID!r})")
        assert (
            await page.evaluate("() => document.querySelectorAll('#chat-list img, .chat-text b').length") == 0
        )
        assert await page.evaluate("() => document.body.dataset.owned === undefined")
    assert "Ana" in await bo.text_content("#chat-list")
    # a set phrase: sent by id, worded by the reader's page
    await bo.click('.chat-phrase[data-phrase="thanks"]')
    await wait_js(ana, f"{shown}.includes('Thanks!')")
    # Ana mutes seat 1: its words leave her page (and stay on Bo's)
    await ana.click(".chat-mute")
    await wait_js(ana, f"!{shown}.includes('Thanks!')")
    assert await bo.evaluate(f"() => {shown}.includes('Thanks!')")
    await ana.reload()
    await ana.wait_for_selector("#chat-toggle")
    await ana.click("#chat-toggle")
    await wait_js(ana, f"{shown}.includes({SAID!r})")
    assert not await ana.evaluate(f"() => {shown}.includes('Thanks!')")  # the mute is kept in this browser
    for page in pages:
        assert page.js_errors == [] and page.foreign_requests == []


async def _sign_up(page, name: str) -> None:
    """Sign up from the page itself (same origin): the browser keeps the session cookie."""
    status = await page.evaluate(
        """async (name) => (await fetch('/accounts', {method: 'POST', headers: {'Content-Type':
        'application/json'}, body: JSON.stringify({name, password: 'correct horse battery'})})).status""",
        name,
    )
    assert status == 201


async def test_spectators_have_their_own_room_and_the_signed_out_are_asked_to_sign_in(web_server, browser):  # noqa: F811
    base = web_server
    body = {"game": "paohuzi", "seats": ["human", "human", "bot:greedy"], "name": "Ana", "spectators": True}
    status, created = post_json(base, "/deals", body)
    assert status == 201, created
    deal, tokens = created["deal_id"], created["tokens"]
    shown = "[...document.querySelectorAll('#chat-list .chat-text')].map(e => e.textContent)"
    kim = await new_page(browser, base)
    await kim.goto(f"{base}/")
    await kim.wait_for_load_state("networkidle")
    await _sign_up(kim, "Kim Rail")
    await kim.goto(f"{base}/#/watch/{deal}")
    await kim.reload()  # the page asks who is signed in once per load
    guest = await new_page(browser, base)
    await guest.goto(f"{base}/")
    await guest.wait_for_load_state("networkidle")
    await guest.goto(f"{base}/#/watch/{deal}")
    seat = await new_page(browser, base)
    await put_tokens(seat, base, deal, {"0": tokens["0"]})
    await seat.wait_for_load_state("networkidle")
    await seat.goto(f"{base}/#/play/{deal}/0")
    for page in (kim, guest, seat):
        await page.wait_for_selector("#chat-toggle")
        await page.click("#chat-toggle")
    await guest.wait_for_selector("#chat-signin")  # reading only, and a line asking to sign in
    assert await guest.evaluate("() => document.querySelector('#chat-input') === null")
    await kim.wait_for_selector("#chat-input")
    await kim.fill("#chat-input", "from the rail <b>x</b>")
    await kim.click("#chat-send")
    await wait_js(guest, f"{shown}.includes('from the rail <b>x</b>')")  # carried by the guest's stream
    assert "Kim Rail" in await guest.text_content("#chat-list")
    await seat.fill("#chat-input", "seats only")
    await seat.click("#chat-send")
    await wait_js(seat, f"{shown}.includes('seats only')")
    await kim.click('.chat-phrase[data-phrase="gg"]')
    await wait_js(guest, f"{shown}.includes('Good game!')")
    # the seat's page never shows the room, nor the spectators' pages the seats' words
    assert not await seat.evaluate(f"() => {shown}.some(s => s.includes('rail') || s === 'Good game!')")
    for page in (kim, guest):
        assert not await page.evaluate(f"() => {shown}.includes('seats only')")
    for page in (kim, guest, seat):
        assert page.js_errors == [] and page.foreign_requests == []


@pytest.mark.parametrize("spectators", [True, False])
async def test_a_table_without_spectators_shows_no_room(web_server, browser, spectators):  # noqa: F811
    base = web_server
    body = {"game": "paohuzi", "seats": ["bot:greedy"] * 3, "spectators": spectators}
    status, created = post_json(base, "/deals", body)
    assert status == 201, created
    page = await new_page(browser, base)
    await page.goto(f"{base}/")
    await page.wait_for_load_state("networkidle")
    await page.goto(f"{base}/#/watch/{created['deal_id']}")
    await page.wait_for_selector("#result", timeout=PAGE_WAIT_MS)
    if spectators:  # the same page at a table open to spectators shows the room
        await page.wait_for_selector("#chat-toggle")
    else:
        await page.wait_for_load_state("networkidle")
        assert await page.evaluate("() => document.querySelector('#chat-toggle') === null")
    assert page.js_errors == []
