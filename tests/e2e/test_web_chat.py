"""The seats' chat at the live table in headless Chromium: what one seat says appears on the other
seat's page as text (markup shown literally, never run), a set phrase is worded in the reader's
language, and a muted person's words are no longer shown on the page that muted them."""

from __future__ import annotations

import pytest

from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    browser,
    new_page,
    post_json,
    put_tokens,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

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
