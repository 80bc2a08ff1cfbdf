"""Matches and "My games" in headless Chromium (issue 24): a whole MCR match of one round (four
hands) and a Paohuzi match of two deals, each made in the lobby and played by clicking; the strip
names hand k of n at every deal, "Next hand" keeps the seat, the standings at the end are the
server's; "My games" lists the match and its deals, whose links open the replay and the review;
the match page shows the deals, standings and the audit. The browser's player key is never in a
URL the page requests."""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.e2e.test_web_table import play_by_clicking
from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    PAGE_WAIT_MS,
    browser,
    get_json,
    new_page,
    shot,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]


def pick_mcr(options):
    for kind in ("Claim:win", "DeclareWin"):
        if kind in options:
            return kind
    return "Pass" if "Pass" in options else options[0]


def pick_paohuzi(options):
    if "Win" in options:
        return "Win"
    return "Pass" if "Pass" in options else options[0]


async def watch_requests(page) -> list[tuple[str, dict, str | None]]:
    """Every request the page makes: its URL, headers and body."""
    seen: list[tuple[str, dict, str | None]] = []
    page.on("request", lambda r: seen.append((r.url, dict(r.headers), r.post_data)))
    return seen


async def lobby_match(page, base: str, game: str, seats: list[str], length: dict) -> None:
    """Make a match in the lobby: game, seats, pace fast, "a match" and its length."""
    await page.goto(base + "/")
    await page.wait_for_selector("#start")
    await page.check(f'input[name="game"][value="{game}"]')
    await page.wait_for_selector(f'input[name="game"][value="{game}"]:checked')
    await page.wait_for_selector("#match-choice")
    for i, kind in enumerate(seats):
        await page.select_option(f"#seat-{i}", kind)
    await page.check('input[name="pace"][value="fast"]')
    await page.check('input[name="deal-kind"][value="match"]')
    await page.wait_for_selector("#match-length:not([hidden])")
    if "len" in length:
        await page.select_option("#match-len", length["len"])
    if "n" in length:
        await page.fill("#match-n", str(length["n"]))
    if "target" in length:
        await page.fill("#match-target", str(length["target"]))


async def current_deal(page) -> str:
    m = re.match(r"#/play/([0-9a-f]+)/", await page.evaluate("location.hash"))
    assert m, await page.evaluate("location.hash")
    return m.group(1)


async def play_match(page, base: str, n: int, pick, name: str, strip_text) -> tuple[str, list[str]]:
    """Play every deal of the match on screen; answers the match id and its deal ids."""
    deals: list[str] = []
    match_id = None
    for k in range(n):
        await page.wait_for_selector(
            f"#match-strip[data-index='{k}'][data-length='{n}']", timeout=PAGE_WAIT_MS
        )
        deal = await current_deal(page)
        assert deal not in deals
        deals.append(deal)
        # a private match names itself only to its seats: read it as the seat this page plays
        token = await page.evaluate(
            f"Object.values(JSON.parse(localStorage.getItem('ds.tokens.{deal}')) || {{}})[0] || null"
        )
        summary = get_json(base, f"/deals/{deal}", token)
        assert summary["match"]["index"] == k
        match_id = match_id or summary["match"]["match_id"]
        assert summary["match"]["match_id"] == match_id
        text = await page.text_content("#match-hand")
        assert strip_text(k) in text, (k, text)
        if k == 0:
            await page.wait_for_selector("#match-scores")
            await page.screenshot(path=shot(f"{name}-table-strip"))
        await play_by_clicking(page, pick, name=f"{name}-{k}")
        if k < n - 1:
            await page.wait_for_selector("#match-next", timeout=PAGE_WAIT_MS)
            await page.screenshot(path=shot(f"{name}-next-hand"))
            await page.click("#match-next")
            await wait_js(page, f"!location.hash.includes('{deal}')")
    assert match_id
    return match_id, deals


async def check_standings(page, base: str, match_id: str, deals: list[str], name: str) -> dict:
    await page.wait_for_selector("#match-standings", timeout=PAGE_WAIT_MS)
    mt = get_json(base, f"/matches/{match_id}")
    assert mt["over"] is True
    assert [d["deal_id"] for d in mt["deals"]] == deals
    rows = await page.eval_on_selector_all(
        "#match-standings tbody tr",
        "els => els.map(e => [e.dataset.seat, e.dataset.rank, e.querySelector('[data-score]').dataset.score]"
        ".map(Number))",
    )
    assert rows == [[s["seat"], s["rank"], s["score"]] for s in mt["standings"]]
    # the strip's running score is the match's
    strip = await page.eval_on_selector_all(
        "#match-scores [data-score]", "els => els.map(e => Number(e.dataset.score))"
    )
    assert strip == mt["scores"]
    assert await page.locator("#match-next").count() == 0
    await page.locator("#match-end").scroll_into_view_if_needed()
    await page.screenshot(path=shot(f"{name}-standings-view"))
    return mt


async def check_my_games(page, base: str, match_id: str, deals: list[str], seat: int, name: str) -> None:
    """The lobby's My games: the match with its deals; replay and review links open them."""
    await page.goto(base + "/#/")
    row = f"#mine-matches li[data-match='{match_id}']"
    await page.wait_for_selector(row, timeout=PAGE_WAIT_MS)
    assert await page.get_attribute(row, "data-status") == "over"
    listed = await page.eval_on_selector_all(
        f"{row} .mine-match-deals li", "els => els.map(e => e.dataset.deal)"
    )
    assert listed == deals
    assert await page.locator(f"{row} a[data-link=match]").count() == 1
    await page.locator("#mine").scroll_into_view_if_needed()
    await page.screenshot(path=shot(name + "-my-games"), full_page=True)
    # the replay of the first deal
    await page.click(f"{row} li[data-deal='{deals[0]}'] a[data-link=replay]")
    await wait_js(page, f"location.hash === '#/replay/{deals[0]}'")
    await page.wait_for_selector("#review", timeout=PAGE_WAIT_MS)
    # back in the lobby: the review link of the last deal opens the review of this seat
    await page.goto(base + "/#/")
    await page.wait_for_selector(row, timeout=PAGE_WAIT_MS)
    await page.click(f"{row} li[data-deal='{deals[-1]}'] a[data-link=review]")
    await wait_js(page, f"location.hash === '#/replay/{deals[-1]}/review/{seat}'")
    await page.wait_for_selector("#review #rv-seat", timeout=PAGE_WAIT_MS)
    await wait_js(page, f"document.querySelector('#rv-seat').value === '{seat}'")
    await page.screenshot(path=shot(name + "-review"))
    # the match page
    await page.goto(base + "/#/")
    await page.wait_for_selector(row, timeout=PAGE_WAIT_MS)
    await page.click(f"{row} a[data-link=match]")
    await page.wait_for_selector("#match-audit[data-ok='1']", timeout=PAGE_WAIT_MS)
    shown = await page.eval_on_selector_all("#match-deals tbody tr", "els => els.map(e => e.dataset.deal)")
    assert shown == deals
    assert await page.locator("#match-deals a[data-link=replay]").count() == len(deals)
    assert await page.locator("#match-standings tbody tr").count() >= 3


async def shots_in_both_languages(page, name: str) -> None:
    """The page on screen (the match page) at 1280x800 and 390x844, in English and Arabic."""
    for lang in ("en", "ar"):
        await page.select_option("#lang", lang)
        await page.wait_for_selector("#match-audit[data-ok='1']", timeout=PAGE_WAIT_MS)
        assert await page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
        for w, h in ((1280, 800), (390, 844)):
            await page.set_viewport_size({"width": w, "height": h})
            await page.screenshot(path=shot(f"{name}-{lang}-{w}"), full_page=True)
            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= w + 2, (lang, w, width)


def check_key_not_in_urls(
    seen: list[tuple[str, dict, str | None]], key: str, posted: str | None = None
) -> None:
    """The key is in no URL; it goes as X-Player-Key to the list and (`posted`: a path ending)
    as "player_key" in the body of that create or join."""
    assert len(key) >= 16 and re.fullmatch(r"[A-Za-z0-9_-]+", key)
    assert seen
    for url, _, _ in seen:
        assert key not in url, url
    listed = [h for url, h, _ in seen if "/players/me/deals" in url]
    assert listed and all(h.get("x-player-key") == key for h in listed)
    if posted:
        bodies = [json.loads(b) for url, _, b in seen if url.endswith(posted) and b]
        assert bodies and all(b.get("player_key") == key for b in bodies), bodies


async def test_a_whole_mcr_round_match_in_the_browser(web_server, browser):  # noqa: F811
    page = await new_page(browser, web_server)
    seen = await watch_requests(page)
    await lobby_match(
        page, web_server, "mcr", ["human", "bot:greedy", "bot:greedy", "bot:greedy"], {"len": "round"}
    )
    await page.screenshot(path=shot("match-lobby"), full_page=True)
    await page.click("#start")
    started = time.monotonic()
    match_id, deals = await play_match(
        page, web_server, 4, pick_mcr, "match-mcr", lambda k: f"East round, hand {k + 1} of 4"
    )
    mt = await check_standings(page, web_server, match_id, deals, "match-mcr")
    assert [d["round"] for d in mt["deals"]] == [0, 0, 0, 0]  # MC-6.2
    await page.screenshot(path=shot("match-mcr-standings"), full_page=True)
    print(f"four hands played in {time.monotonic() - started:.0f} s")
    # the server lists the match under the browser's key (and only there)
    key = await page.evaluate("JSON.parse(localStorage.getItem('ds.player.key'))")
    await check_my_games(page, web_server, match_id, deals, 0, "match-mcr")
    await shots_in_both_languages(page, "match-mcr-page")
    check_key_not_in_urls(seen, key, "/matches")
    assert page.js_errors == []
    assert page.foreign_requests == []


async def test_a_paohuzi_match_of_two_deals_on_a_phone_in_arabic(web_server, browser):  # noqa: F811
    page = await new_page(browser, web_server, 390, 844)
    seen = await watch_requests(page)
    await page.goto(web_server + "/")
    await page.wait_for_selector("#start")
    await page.select_option("#lang", "ar")
    await lobby_match(page, web_server, "paohuzi", ["human", "bot:greedy", "bot:greedy"], {"n": 2})
    assert await page.evaluate("document.documentElement.dir") == "rtl"
    await page.screenshot(path=shot("match-lobby-ar-390"), full_page=True)
    await page.click("#start")
    match_id, deals = await play_match(
        page, web_server, 2, pick_paohuzi, "match-ph-ar-390", lambda k: f"الجولة {k + 1} من 2"
    )
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 2, width
    await check_standings(page, web_server, match_id, deals, "match-ph-ar-390")
    await page.screenshot(path=shot("match-ph-ar-390-standings"), full_page=True)
    key = await page.evaluate("JSON.parse(localStorage.getItem('ds.player.key'))")
    await check_my_games(page, web_server, match_id, deals, 0, "match-ph-ar-390")
    await shots_in_both_languages(page, "match-ph-page")
    check_key_not_in_urls(seen, key, "/matches")
    assert page.js_errors == []
    assert page.foreign_requests == []


async def test_a_join_is_listed_under_the_joiners_key_only(web_server, browser):  # noqa: F811
    """A friend who takes an invited seat of a match's first deal finds the match in their own My
    games; another browser (another key) lists nothing; no key appears in a URL."""
    from tests.e2e.web_conftest import post_json

    status, created = post_json(
        web_server,
        "/matches",
        {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "length": 2, "name": "Ana"},
    )
    assert status == 201, created
    deal, match_id = created["deal_id"], created["match_id"]
    page = await new_page(browser, web_server, 390, 844)
    seen = await watch_requests(page)
    await page.goto(web_server + "/#" + created["join_links"]["1"].split("#", 1)[1])
    await page.wait_for_selector("#join-form")
    await page.fill("#join-name", "Bo")
    await page.click("#join-submit")
    await wait_js(page, f"location.hash === '#/play/{deal}/1'")
    await page.wait_for_selector("#match-strip[data-index='0'][data-length='2']")
    await page.goto(web_server + "/#/")
    row = f"#mine-matches li[data-match='{match_id}']"
    await page.wait_for_selector(row, timeout=PAGE_WAIT_MS)
    assert await page.eval_on_selector_all(
        f"{row} .mine-match-deals li", "els => els.map(e => e.dataset.deal)"
    ) == [deal]
    assert await page.locator(f"{row} a[data-link=table]").get_attribute("href") == f"#/play/{deal}/1"
    key = await page.evaluate("JSON.parse(localStorage.getItem('ds.player.key'))")
    check_key_not_in_urls(seen, key, f"/deals/{deal}/join")
    # another browser: its own key, an empty list
    other = await new_page(browser, web_server)
    other_seen = await watch_requests(other)
    await other.goto(web_server + "/#/")
    await other.wait_for_selector("#mine-empty", timeout=PAGE_WAIT_MS)
    other_key = await other.evaluate("JSON.parse(localStorage.getItem('ds.player.key'))")
    assert other_key != key
    check_key_not_in_urls(other_seen, other_key)
    for p in (page, other):
        assert p.js_errors == []
        assert p.foreign_requests == []
