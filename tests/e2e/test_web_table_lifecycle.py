"""The web table and join page on what a seat may know of the others' time and of its own seat
(TB-1.2, TB-2.3): another seat drawing on its bank is shown counting, never "time is up" while it
may still have time; a browser that sits at a table already is told so on the join page, and
not, at the same time, that the table has no seat for it."""

from __future__ import annotations

import random

import pytest

from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    browser,
    get_json,
    new_page,
    post_json,
    put_tokens,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]

OTHER_CLOCK = "document.querySelector(\".seat[data-seat='1'] [data-clock='1']\")"


def _mcr_deck() -> list[int]:
    deck = list(range(144))
    random.Random(20261203).shuffle(deck)
    return deck


async def test_the_clock_model_counts_another_seats_bank_and_the_own_bank_down(web_server, browser):  # noqa: F811
    """people.js's clock words, run in the browser: past its own time, another seat at a table
    with a bank is "bank +N s" (its bank left is its secret, TB-2.3); without a bank it is "time
    is up"; the seat itself sees its bank count down."""
    page = await new_page(browser, web_server)
    await page.goto(web_server + "/")
    await page.wait_for_selector("#start")
    words = await page.evaluate(
        """async () => {
          const m = await import('/web/people.js');
          const now = 1_000_000;
          const other = { seat: 1, wait: 'move', own_deadline_ms: now - 12_000 };
          const mine = { ...other, deadline_ms: now + 48_000, bank_ms: 60_000 };
          return [m.clockText(other, false, now, true), m.clockText(other, false, now, false),
                  m.clockText(mine, true, now, true), m.clockBadgeHtml(other, false, true)];
        }"""
    )
    assert words[0] == "bank +12 s", words
    assert words[1] == "time is up", words
    assert words[2] == "bank 48 s", words
    assert 'data-banked="1"' in words[3], words
    assert page.js_errors == []


async def test_the_table_shows_another_seat_counting_on_its_bank(web_server, browser):  # noqa: F811
    """A table of two person seats with a clock of 2 s a move and a 60 s bank: once the dealer's
    own 2 s are over, the other seat's page shows its bank being drawn on for the rest of the
    minute, not "time is up"."""
    clock = {"move_s": 2, "claim_s": 2, "bank_s": 60}
    body = {
        "game": "mcr", "seats": ["human", "human", "bot:greedy", "bot:greedy"], "clock": clock,
        "deck": _mcr_deck(), "dealer": 1,
    }  # fmt: skip
    status, created = post_json(web_server, "/deals", body)
    assert status == 201, created
    deal, tokens = created["deal_id"], created["tokens"]
    start = {"command_id": "s", "command": {"type": "StartDeal", "client_seed": "bank"}}
    status, answer = post_json(web_server, f"/deals/{deal}/commands", start, tokens["0"])
    assert status == 200, answer
    page = await new_page(browser, web_server)
    await put_tokens(page, web_server, deal, {"0": tokens["0"]})
    await page.goto(f"{web_server}/#/play/{deal}/0")
    await wait_js(page, f"{OTHER_CLOCK} && {OTHER_CLOCK}.textContent.startsWith('bank +')", 45)
    text = await page.evaluate(f"{OTHER_CLOCK}.textContent")
    assert text.startswith("bank +") and "time is up" not in text, text
    assert page.js_errors == []


async def test_the_join_page_of_a_table_this_browser_sits_at_says_only_that(web_server, browser):  # noqa: F811
    """The browser holds seat 1's token and every seat is taken: the join page offers "Open my
    seat", and neither a form nor "no open seat for you" (TB-1.2)."""
    status, created = post_json(
        web_server, "/deals", {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"]}
    )
    assert status == 201, created
    deal = created["deal_id"]
    status, joined = post_json(
        web_server, f"/deals/{deal}/join", {"invite": created["invites"]["1"], "name": "Bo"}
    )
    assert status == 201, joined
    page = await new_page(browser, web_server)
    await put_tokens(page, web_server, deal, {"1": joined["token"]})
    await page.goto(web_server + created["join_links"]["1"])
    await page.wait_for_selector("#join-held")
    assert await page.locator(f"#join-held a[href='#/play/{deal}/1']").count() == 1
    assert await page.locator("#join-closed").count() == 0
    assert await page.locator("#join-form").count() == 0
    assert page.js_errors == []


async def test_a_move_clicked_at_the_table_names_the_version_it_was_chosen_on(web_server, browser):  # noqa: F811
    """TB-2.8: the web table sends, with each move, the version of the view its buttons were
    drawn from, so the server can refuse a click that crossed the table's own move for the seat."""
    body = {
        "game": "mcr", "seats": ["human", "bot:greedy", "bot:greedy", "bot:greedy"],
        "clock": {"move_s": 600, "claim_s": 600, "bank_s": 0}, "deck": _mcr_deck(), "dealer": 0,
    }  # fmt: skip
    status, created = post_json(web_server, "/deals", body)
    assert status == 201, created
    deal, token = created["deal_id"], created["tokens"]["0"]
    start = {"command_id": "s", "command": {"type": "StartDeal", "client_seed": "click"}}
    status, answer = post_json(web_server, f"/deals/{deal}/commands", start, token)
    assert status == 200, answer
    page = await new_page(browser, web_server)
    await put_tokens(page, web_server, deal, {"0": token})
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.post_data or "") if r.url.endswith("/commands") else None)
    await page.goto(f"{web_server}/#/play/{deal}/0")
    await wait_js(page, "document.querySelector('.play-page')?.dataset.armed === '1'", 45)
    # the table holds still (the person must discard, the bots wait): the view the page drew
    version = get_json(web_server, f"/deals/{deal}/view", token)["version"]
    await wait_js(page, f"window.dealstream.state().version === {version}", 45)
    card = page.locator("#me-zone button[data-card]:not([aria-disabled='true'])").first
    await card.click()
    await page.locator("#me-zone button[data-card][aria-pressed='true'], #confirm").first.wait_for()
    await page.click("#confirm")
    await wait_js(page, "document.querySelector('.play-page')?.dataset.busy === '0'", 45)
    moves = [s for s in sent if '"Discard"' in s]
    assert moves and f'"seen_version":{version}' in moves[0].replace(" ", ""), sent
    assert page.js_errors == []


async def test_the_creator_gives_a_friend_who_never_starts_a_computer_from_the_waiting_room(
    web_server,  # noqa: F811
    browser,  # noqa: F811
):
    """TB-1.4: a friend joined and never started (their answer lost, or gone): once every seat is
    taken the waiting room offers "Put a computer here" beside them; the server takes it after a
    turn's time (2 s here), and the deal is dealt with the creator's seed."""
    clock = {"move_s": 2, "claim_s": 2, "bank_s": 0}
    body = {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "name": "Bo", "clock": clock}
    status, created = post_json(web_server, "/deals", body)
    assert status == 201, created
    deal = created["deal_id"]
    status, joined = post_json(
        web_server, f"/deals/{deal}/join", {"invite": created["invites"]["1"], "name": "Gh"}
    )
    assert status == 201, joined
    bo = await new_page(browser, web_server)
    await bo.goto(web_server + "/")
    await bo.wait_for_selector("#start")
    await bo.evaluate(
        """([deal, created]) => {
          const set = (k, v) => localStorage.setItem('ds.' + k, JSON.stringify(v));
          set('tokens.' + deal, created.tokens); set('creator.' + deal, 0);
          set('invites.' + deal, created.join_links);
          set('ready.' + deal, 'bo-seed'); set('seed.' + deal, 'bo-seed');
        }""",
        [deal, created],
    )
    await bo.goto(f"{web_server}/#/play/{deal}/0")
    await bo.wait_for_selector("#waiting-room [data-fill='1']")
    assert await bo.locator("#waiting-room [data-fill='0']").count() == 0  # never the creator's own
    dealt = "!document.querySelector('#waiting-room')"
    for _ in range(60):  # early clicks are refused with the seconds left (TB-1.4): click again
        button = bo.locator("#waiting-room [data-fill='1']:not([disabled])")
        if await bo.evaluate(f"() => {dealt}"):
            break
        if await button.count():
            await button.click()
        await bo.wait_for_timeout(500)
    await wait_js(bo, dealt, 45)
    seats = get_json(web_server, f"/deals/{deal}")["seats"]
    assert seats[1] == "bot:greedy", seats
    assert bo.js_errors == []
