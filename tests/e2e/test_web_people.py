"""Two people at one table in two headless Chromium contexts that share nothing (issue 22, TB-1 to
TB-4): a lobby table joined from the open tables list and played to the fairness check, an
invited seat beside a seat the creator fills with a bot, a person whose clock runs out twice, who
is played for and comes back, and the join page's refusals.

Every wait is for a state, bounded with room for a loaded machine. The deal that needs a
situation (the absent seat acting first, no early win) is dealt from a fixed deck (`--dev`)."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from tests.e2e.test_web_table import STATE_JS, check_fairness, play_by_clicking
from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    PAGE_WAIT_MS,
    browser,
    get_json,
    new_page,
    post_json,
    put_tokens,
    seat_visible_versions,
    shot,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]

ANA = 'Ana "O\'Hara" & co'  # quotes and an ampersand: shown as text, never as markup (TB-1.3)


def pick_paohuzi(options):
    for kind in ("Win", "Pao", "Peng", "Chi"):
        if kind in options:
            return kind
    return options[0]


def pick_mcr(options):
    for kind in ("Claim:win", "Claim:pung"):
        if kind in options:
            return kind
    return "Pass" if "Pass" in options else options[0]


async def seat_names(page) -> dict[int, str]:
    return {
        int(s): n
        for s, n in await page.eval_on_selector_all(
            ".seat[data-seat]",
            "els => els.map(e => [e.dataset.seat, e.querySelector('.seat-name').textContent])",
        )
    }


async def log_versions(page) -> list[int]:
    return [
        int(v)
        for v in await page.eval_on_selector_all("#move-log li[data-v]", "els => els.map(e => e.dataset.v)")
    ]


async def log_texts(page) -> list[str]:
    return await page.eval_on_selector_all("#move-log li[data-v]", "els => els.map(e => e.textContent)")


async def wait_dealt(page, timeout: float = 60.0) -> None:
    await wait_js(
        page, "document.querySelector('#stock-count') && !document.querySelector('#waiting-room')", timeout
    )


async def check_seen(base: str, deal: str, page, seat: int) -> None:
    """The move log holds exactly the events of the server's log this seat saw, in order (once
    the stream has delivered them all: the sheet may show before the last events arrive)."""
    expected = [v for v, _t, _d in seat_visible_versions(base, deal, seat)]
    await wait_js(page, f"document.querySelectorAll('#move-log li[data-v]').length >= {len(expected)}", 60)
    assert await log_versions(page) == expected


async def test_two_people_meet_at_a_lobby_table_and_check_the_shuffle(web_server, browser):  # noqa: F811
    """Bo lists a Paohuzi table in the lobby with one seat open; Ana, in another browser, finds it
    under Open tables, joins with her name and seed, and the deal starts once both are in (TB-1.4).
    Both play it by clicking; its shuffle used both seeds (TB-3.1) and checks in the browser."""
    bo = await new_page(browser, web_server)
    ana = await new_page(browser, web_server)
    played = 0
    for attempt in range(3):  # a bot may win before either person is asked anything: deal again
        await bo.goto(web_server + "/")
        await bo.wait_for_selector("#start")
        await bo.check('input[name="game"][value="paohuzi"]')
        await bo.wait_for_selector('input[name="game"][value="paohuzi"]:checked')
        await bo.select_option("#seat-1", "open")
        await bo.select_option("#seat-2", "bot:greedy")
        await bo.fill("#my-name", "Bo")
        await bo.check("#list-lobby")
        for field, value in (("move_s", "60"), ("claim_s", "60"), ("bank_s", "120")):
            await bo.fill(f"#clock-{field}", value)
        await bo.fill("#client-seed", f"bo-seed-{attempt}")
        await bo.click("#start")
        await bo.wait_for_selector("#waiting-room")
        deal = await bo.evaluate("window.dealstream.state().deal")
        room = await bo.text_content("#waiting-room")
        assert "Waiting for 1 more" in room and "TB-1.4" in room and "60 s a move" in room, room
        assert "/#/join/" + deal + "/" in await bo.input_value("#invite-1")
        await bo.screenshot(path=shot("people-waiting-room"), full_page=True)

        # Ana sees the table under Open tables and takes seat 1
        await ana.goto(web_server + "/")
        join = f'#open-list li[data-deal="{deal}"] a[data-join="1"]'
        await ana.wait_for_selector(join, timeout=PAGE_WAIT_MS)
        assert "Bo" in await ana.text_content(f'#open-list li[data-deal="{deal}"]')
        # listed to be joined, not to be watched: "anyone may watch" was left unticked
        await ana.wait_for_selector("#live-list li", timeout=PAGE_WAIT_MS)
        assert await ana.locator(f'#live-list li[data-deal="{deal}"]').count() == 0
        await ana.click(join)
        await ana.wait_for_selector("#join-name")
        await ana.fill("#join-name", ANA)
        await ana.fill("#join-seed", f"ana-seed-{attempt}")
        await ana.click("#join-submit")
        await wait_dealt(ana)
        await wait_dealt(bo)
        # names on the seats, as text, the same at both tables
        assert (await seat_names(bo))[1] == ANA
        assert (await seat_names(ana))[0] == "Bo"
        assert await ana.locator(".seat-name b").count() == 0
        # a person's own name is marked (quoted by the style sheet), a computer's label is not:
        # no name passes for "Computer 1" or "You"
        before = "e => getComputedStyle(e, '::before').content"
        mark = await bo.eval_on_selector('.seat[data-seat="1"] .seat-name .person-name', before)
        assert "\u201c" in mark, mark
        assert await bo.locator('.seat[data-seat="2"] .person-name').count() == 0
        moves = await asyncio.gather(
            play_by_clicking(bo, pick_paohuzi, name="people-paohuzi-bo"),
            play_by_clicking(ana, pick_paohuzi, name="people-paohuzi-ana"),
        )
        played = sum(moves)
        if played:
            break
    assert played, "neither person was asked anything in three deals"
    await bo.wait_for_selector("#result")
    await ana.wait_for_selector("#result")
    log = _records(web_server, deal)
    started = next(r["data"] for r in log if r["type"] == "DealStarted")
    assert started["client_seeds"] == [f"bo-seed-{attempt}", f"ana-seed-{attempt}"]
    assert [r["type"] for r in log].count("SeatReady") == 1
    # each browser re-derives the deck from the revealed seeds: both seeds, both pass
    await check_fairness(bo, "people-paohuzi")
    await check_seen(web_server, deal, bo, 0)
    await check_seen(web_server, deal, ana, 1)
    texts = await log_texts(bo)
    assert any(t.startswith(ANA + " sat down at seat 1") for t in texts), texts
    assert bo.js_errors == [] and ana.js_errors == []
    assert bo.foreign_requests == [] and ana.foreign_requests == []


def _text(base: str, path: str) -> str:
    import urllib.request

    with urllib.request.urlopen(base + path, timeout=30) as r:
        return r.read().decode()


def _mcr_deck() -> list[int]:
    deck = list(range(144))
    random.Random(20261203).shuffle(deck)
    return deck


async def test_an_absent_person_is_played_for_and_comes_back(web_server, browser):  # noqa: F811
    """An MCR table of Bo (seat 0), an invited friend (seat 1, the dealer), a seat Bo fills with a
    bot from the waiting room, and a bot. The friend joins by the invite link and then does
    nothing: her clock runs out twice (TB-2.5), she is marked away and the greedy bot plays her
    seat (TB-2.6); she comes back with "I'm back" and both people play the deal out by clicking.
    The audit proves every timeout (TB-4.2)."""
    clock = {"move_s": 8, "claim_s": 8, "bank_s": 0}
    status, created = post_json(
        web_server,
        "/deals",
        {
            "game": "mcr",
            "seats": ["human", "open", "open", "bot:greedy"],
            "name": "Bo",
            "clock": clock,
            "deck": _mcr_deck(),
            "dealer": 1,
        },
    )
    assert status == 201, created
    deal = created["deal_id"]
    bo = await new_page(browser, web_server)
    ana = await new_page(browser, web_server)
    # Bo's browser holds what the lobby keeps after "Deal" with seats left open
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
    await bo.wait_for_selector("#waiting-room [data-fill='2']")
    link = await bo.input_value("#invite-1")
    # Bo puts a bot in seat 2 from the waiting room (TB-1.4)
    await bo.select_option("#fill-2", "greedy")
    await bo.click("[data-fill='2']")
    await wait_js(bo, "document.querySelector('[data-room-seat=\"2\"]')?.dataset.kind === 'bot:greedy'")
    await bo.evaluate(CLOCK_WATCH_JS)  # every render is seen, however short a wait lasts

    # Ana opens the link in her own browser, with sound on: the 5 s tone is heard
    await ana.goto(web_server + "/")
    await ana.wait_for_selector("#start")
    await ana.evaluate("localStorage.setItem('ds.set.sound', 'true')")
    await ana.goto(link)
    await ana.wait_for_selector("#join-name")
    await ana.evaluate(CLOCK_WATCH_JS)
    await ana.fill("#join-name", "Ana")
    await ana.click("#join-submit")
    await wait_dealt(ana)
    await wait_dealt(bo)
    # Bo plays by clicking from the start; Ana, for now, does not
    bo_playing = asyncio.create_task(play_by_clicking(bo, pick_mcr, name="people-mcr-bo"))
    # Ana is the dealer and must discard: her own clock runs, seconds for her, the seat for all
    await wait_js(ana, "window.__clocks.mine", 60)
    assert "Your time:" in await ana.evaluate("window.__clocks.mine")
    await wait_js(bo, "window.__clocks.seat", 60)
    assert (await bo.evaluate("window.__clocks.seat")).endswith(" s")
    # she does nothing: two expiries in a row, then she is away (bound: two waits of 8 s each
    # plus the table's moves between them, with room for a loaded machine)
    await ana.wait_for_selector("#away-banner", timeout=90_000)
    assert "TB-2.6" in await ana.text_content("#away-banner")
    await bo.wait_for_selector(".seat[data-seat='1'] .badge.away", timeout=PAGE_WAIT_MS)
    assert await ana.evaluate("window.dealstream.tones.clock") >= 1
    # Bo's log follows his stream, which may come after the view that shows the badge
    await wait_js(bo, AWAY_IN_LOG, 60)
    texts = await log_texts(bo)
    expired = [t for t in texts if t.startswith("Ana's time ran out")]
    assert len(expired) == 2 and all("TB-2.5" in t for t in expired), texts
    assert any(t.startswith("Ana is away") and "TB-2.6" in t for t in texts), texts
    # the table plays her seat: Bo's log tells a move of hers after she went away
    await wait_js(bo, AWAY_MOVE_SEEN, 90)
    await ana.screenshot(path=shot("people-away"), full_page=True)
    await ana.click("#im-back")
    await ana.wait_for_selector("#away-banner", state="detached", timeout=PAGE_WAIT_MS)
    await wait_js(bo, "!document.querySelector(\".seat[data-seat='1'] .badge.away\")")
    ana_moves = await play_by_clicking(ana, pick_mcr, name="people-mcr-ana")
    bo_moves = await bo_playing
    # Bo's first turn comes in the first round of this deck; what is left for Ana after her
    # return depends on when she came back, so her count is not asserted
    assert bo_moves >= 1, (bo_moves, ana_moves)
    await bo.wait_for_selector("#result")
    await ana.wait_for_selector("#result")
    records = _records(web_server, deal)
    types = [r["type"] for r in records]
    assert types.count("SeatBack") >= 1 and types.count("SeatAway") >= 1
    assert _away_moves(records) >= 1  # made by the table for her, marked as such in the log
    audit = get_json(web_server, f"/deals/{deal}/audit")
    assert audit["clocks_ok"] is True, audit
    await check_seen(web_server, deal, bo, 0)
    await check_seen(web_server, deal, ana, 1)
    # the timeout in words in another language
    await bo.select_option("#lang", "nl")
    await wait_js(bo, "document.documentElement.lang === 'nl'")
    texts_nl = await log_texts(bo)
    assert any(t.startswith("De tijd van Ana is om") for t in texts_nl), texts_nl
    assert any(t.startswith("Ana is terug") for t in texts_nl), texts_nl
    assert bo.js_errors == [] and ana.js_errors == []


CLOCK_WATCH_JS = """() => {
  window.__clocks = { mine: null, seat: null };
  new MutationObserver(() => {
    const mine = document.querySelector("#my-clock [data-clock='1']");
    if (mine && !window.__clocks.mine) window.__clocks.mine = document.querySelector('#my-clock').textContent;
    const seat = document.querySelector(".seat[data-seat='1'] [data-clock='1']");
    if (seat && !window.__clocks.seat) window.__clocks.seat = seat.textContent;
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""

AWAY_IN_LOG = """(() => {
  const texts = [...document.querySelectorAll('#move-log li[data-v]')].map((li) => li.textContent);
  return texts.filter((t) => t.startsWith("Ana's time ran out")).length >= 2
    && texts.some((t) => t.startsWith('Ana is away'));
})()"""

AWAY_MOVE_SEEN = """(() => {
  const items = [...document.querySelectorAll('#move-log li[data-v]')];
  const at = items.findIndex((li) => li.textContent.startsWith('Ana is away'));
  return at >= 0 && items.slice(at + 1).some((li) => li.textContent.startsWith('Ana ')
    && ['TileDiscarded', 'ClaimAnswered'].includes(li.dataset.type));
})()"""


ABANDONED_IN_LOG = """[...document.querySelectorAll('#move-log li[data-v]')].some((li) =>
  li.textContent.startsWith('Nobody moved for too long') && li.textContent.includes('TB-2.7'))"""


def _records(base: str, deal: str) -> list[dict]:
    return [json.loads(line) for line in _text(base, f"/deals/{deal}/log").splitlines() if line]


def _away_moves(records: list[dict]) -> int:
    """Moves of seat 1 between its SeatAway and its SeatBack, each made with an away: command."""
    away = False
    n = 0
    for r in records:
        if r["type"] == "SeatAway" and r["data"]["seat"] == 1:
            away = True
        elif r["type"] == "SeatBack":
            away = False
        elif away and r["data"].get("seat") == 1 and r["type"] in ("TileDiscarded", "ClaimAnswered"):
            assert r["command_id"].startswith("away:"), r
            n += 1
    return n


async def test_the_join_page_refuses_clearly(web_server, browser):  # noqa: F811
    """A name the rules refuse (TB-1.3) is stopped before any request; a used invite answers the
    server's refusal in words with its id (DS-18); a table whose seats are all taken says so."""
    status, created = post_json(
        web_server, "/deals", {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"]}
    )
    assert status == 201, created
    deal = created["deal_id"]
    link = web_server + created["join_links"]["1"]
    page = await new_page(browser, web_server)
    await page.goto(link)
    await page.wait_for_selector("#join-name")
    for bad in ("<b>x</b>", "\u202eevil", " padded", "tab\there"):  # (the field holds at most 24)
        await page.fill("#join-name", bad)
        before = len(page.requests)
        await page.click("#join-submit")
        await page.wait_for_selector("#toast:not([hidden])")
        assert "TB-1.3" in await page.text_content("#toast")
        assert not [u for u in page.requests[before:] if "/join" in u]
        await page.click("#toast .close")
    # the seat is taken meanwhile by someone else: the used invite is refused in words
    status, joined = post_json(
        web_server, f"/deals/{deal}/join", {"invite": created["invites"]["1"], "name": "Cy"}
    )
    assert status == 201, joined
    await page.fill("#join-name", "Dee")
    await page.click("#join-submit")
    await page.wait_for_selector("#toast:not([hidden])")
    toast = await page.text_content("#toast")
    assert "DS-18" in toast and "not open any more" in toast, toast
    # opened again: nothing is open, so no form, and a way to watch instead
    await page.goto(web_server + "/")
    await page.goto(link)
    await page.wait_for_selector("#join-closed")
    assert await page.locator("#join-form").count() == 0
    assert "TB-1.2" in await page.text_content("#join-closed")
    state = await page.evaluate(STATE_JS)
    assert state["version"] == -1  # no table was opened
    assert page.js_errors == []


async def test_a_deal_nobody_moves_in_ends_as_abandoned_on_the_result_sheet(web_server, browser):  # noqa: F811
    """TB-2.7 in the browser: an untimed deal (a --dev idle limit of 2 s instead of the hour)
    whose person never moves, not even to deal, ends as abandoned, and the sheet says so."""
    for game, seats in (
        ("paohuzi", ["human", "bot:greedy", "bot:greedy"]),
        ("mcr", ["human"] + ["bot:greedy"] * 3),
    ):
        status, created = post_json(
            web_server, "/deals", {"game": game, "seats": seats, "idle_s": 2, "dealer": 0}
        )
        assert status == 201, created
        page = await new_page(browser, web_server)
        await put_tokens(page, web_server, created["deal_id"], created["tokens"])
        await page.goto(f"{web_server}/#/play/{created['deal_id']}/0")
        # the person never even deals: after the limit the table ends the deal (TB-2.7)
        await page.wait_for_selector("#result #verdict", timeout=PAGE_WAIT_MS)
        verdict = await page.text_content("#verdict")
        assert verdict.startswith("Abandoned") and "TB-2.7" in verdict, verdict
        # the move log follows the stream, which may arrive after the view that shows the sheet
        await wait_js(page, ABANDONED_IN_LOG, 60)
        assert page.js_errors == []
