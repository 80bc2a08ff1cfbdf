"""The web table in headless Chromium: whole deals played by clicking with the move log checked
against the server's log, the hand in view at 390x844, replay, rules, languages, visual settings
and the in-browser fairness check (issues 6 and 13)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    PAGE_WAIT_MS,
    browser,
    new_page,
    seat_visible_versions,
    shot,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]

LOG_VERSIONS = "els => els.map(e => e.dataset.v)"
TEXTS = "els => els.map(e => e.textContent.trim())"
STATE_JS = """() => {
  const page = document.querySelector('.play-page');
  return {
    version: page ? Number(page.dataset.version) : -1,
    result: !!document.querySelector('#result'),
    options: [...document.querySelectorAll('[data-action]')].map(b => b.dataset.kind),
    discards: document.querySelectorAll('#my-hand button.piece.can').length,
    start: !!document.querySelector('#do-start'),
    busy: !!page && page.dataset.busy === '1',
    held: !!page && page.dataset.held === '1',
    armed: !page || page.dataset.armed !== '0',
  };
}"""


async def wait_version_change(page, before: int, timeout: float = 8.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = await page.evaluate(STATE_JS)
        if state["version"] != before or state["result"]:
            return
        await page.wait_for_timeout(40)


async def click_if_there(page, selector: str) -> bool:
    """Click, unless the control went away meanwhile: at a table with other people (or a clock) a
    prompt can close between reading the page and the click; the caller reads the page again."""
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    try:  # 30 s: a loaded machine's browser may take that long to find a control stable
        await page.click(selector, timeout=30_000)
    except PlaywrightTimeout:
        return False
    return True


async def play_by_clicking(
    page, pick_option, max_moves: int = 400, on_move=None, name: str = "", on_state=None, timeout: float = 600
) -> int:
    """Click through a whole deal: claim prompts via `pick_option`, discards by select + confirm.
    `on_state(page)` runs at every step (layout checks). ``timeout``: seconds for the whole deal,
    a bound a loaded machine meets with room (bots think longer there, each step waits on them)."""
    moves = 0
    claim_shot = False
    deadline = time.monotonic() + timeout
    while True:
        state = await page.evaluate(STATE_JS)
        if time.monotonic() > deadline:
            await page.screenshot(path=shot((name or "deal") + "-stalled"), full_page=True)
            zone = await page.evaluate("document.querySelector('.me-zone')?.innerText")
            raise AssertionError(f"deal did not finish: {state} {zone!r} {page.js_errors}")
        if on_state is not None:
            await on_state(page)
        if state["result"]:
            return moves
        if state["busy"] or state["held"] or not state["armed"]:
            await page.wait_for_timeout(40)
            continue
        if state["options"] and not state["discards"]:
            kind = pick_option(state["options"])
            if name and not claim_shot and len(state["options"]) > 1:
                claim_shot = True
                await page.screenshot(path=shot(name + "-claim"), full_page=True)
            if not await click_if_there(page, f'[data-action][data-kind="{kind}"]'):
                continue
        elif state["options"] and "DeclareWin" in state["options"]:
            if not await click_if_there(page, '[data-action][data-kind="DeclareWin"]'):
                continue
        elif state["discards"]:
            if on_move is not None and await on_move(page, moves):
                moves += 1
                continue
            if not await click_if_there(page, "#my-hand button.piece.can >> nth=-1"):
                continue
            if not await click_if_there(page, "#confirm"):
                continue
        else:
            await page.wait_for_timeout(50)
            continue
        moves += 1
        assert moves < max_moves
        await wait_version_change(page, state["version"])


async def check_fairness(page, prefix: str) -> None:
    await page.click("#fair-run")
    await page.wait_for_selector("#fair-verdict")
    assert "pass" in await page.get_attribute("#fair-verdict", "class")
    steps = await page.eval_on_selector_all(".fair-steps li", "els => els.map(e => e.className)")
    assert steps == ["ok", "ok", "ok", "ok"]
    await page.screenshot(path=shot(prefix + "-fairness-pass"), full_page=True)
    # tamper: one changed hex digit of the revealed server seed
    server = await page.input_value("#fair-server")
    tampered = ("0" if server[0] != "0" else "1") + server[1:]
    await page.fill("#fair-server", tampered)
    await page.click("#fair-run")
    await page.wait_for_selector("#fair-verdict.fail")
    bad = await page.eval_on_selector_all(".fair-steps li.bad", "els => els.map(e => e.dataset.step)")
    assert "commitment" in bad and "seed" in bad
    await page.screenshot(path=shot(prefix + "-fairness-fail"), full_page=True)


async def check_move_log(page, base: str, seat: int = 0) -> None:
    """The move log holds, in order, exactly the events of the server's log this seat saw, in
    words: the person's own moves in the "you" form, claims named by their kind, every claim
    window by its number (from 1 in both games) with the rule that decided it."""
    deal = await page.evaluate("window.dealstream.state().deal")
    shown = await page.eval_on_selector_all(
        "#move-log li[data-v]",
        "els => els.map(e => [Number(e.dataset.v), e.dataset.type, e.textContent,"
        " e.querySelector('.log-text').textContent])",
    )
    expected = seat_visible_versions(base, deal, seat)
    assert [(v, t) for v, t, _, _ in shown] == [(v, t) for v, t, _ in expected]
    game = "mcr" if any(t == "TilesDealt" for _v, t, _d in expected) else "paohuzi"
    for (_v, kind, text, _words), (_v2, _k, data) in zip(shown, expected, strict=True):
        assert "You wins" not in text and "last card" not in text, text
        if kind in ("CardDiscarded", "TileDiscarded"):
            assert text.startswith("You discard" if data["seat"] == seat else "Computer "), text
        if kind == "ClaimWindowResolved":
            number = data["window"] + (1 if game == "mcr" else 0)
            assert f"Window {number}" in text and data["rule_id"] in text, text
            if data["seat"] is not None and data["claim"] != "win":
                assert f"for a {data['claim']}" in text, text
    # the last-action line describes the latest event
    if await page.locator("#last-action").count():
        assert await page.text_content("#last-action") == shown[-1][3]


async def start_from_lobby(
    page, base: str, game: str, seats: list[str] | None = None, pace: str = "normal"
) -> None:
    await page.goto(base + "/")
    await page.wait_for_selector("#start")
    await page.check(f'input[name="game"][value="{game}"]')
    await page.wait_for_selector(f'input[name="game"][value="{game}"]:checked')
    seats = seats or ["human"] + ["bot:greedy"] * (2 if game == "paohuzi" else 3)
    for i, kind in enumerate(seats):
        await page.select_option(f"#seat-{i}", kind)
    await page.check(f'input[name="pace"][value="{pace}"]')
    seed = await page.input_value("#client-seed")
    assert seed
    await page.fill("#client-seed", "browser-seed-" + game)
    await page.click("#start")


async def test_paohuzi_whole_deal_by_clicking(web_server, browser):  # noqa: F811
    page = await new_page(browser, web_server)
    refused = {"done": False}
    for _attempt in range(4):  # a bot may win before seat 0 ever has to discard: deal again
        await start_from_lobby(page, web_server, "paohuzi")
        await page.wait_for_selector(".play-page[data-game=paohuzi]")
        await page.wait_for_selector("#stock-count")
        assert "Stock" in await page.text_content("#stock-count")
        assert await page.locator(".faceup").count() == 1  # the dealer's public card (PH-2.4)
        url = page.url
        await play_paohuzi(page, url, refused)
        if refused["done"]:
            break
    assert refused["done"], "seat 0 never had to discard"
    await page.wait_for_selector("#result")
    sheet = await page.text_content("#result")
    assert ("Huxi" in sheet and "Tun" in sheet) or "Drawn deal" in sheet
    assert "Payments" in sheet
    # every seat's hand and kan once the deal is over (PH-7.3), in the sheet and on the table
    await page.click("#res-hands summary")
    assert await page.locator("#res-hands [data-seat]").count() == 3
    assert await page.locator("#res-hands .piece").count() > 0
    assert await page.locator(".seat .backs").count() == 0
    # the result sheet opens in view, winner first
    box = await page.locator("#result").bounding_box()
    assert box["y"] < 800, box
    rows = await page.eval_on_selector_all("#res-payments tr", "els => els.map(e => e.className)")
    if "Huxi" in sheet:
        assert rows[0] == "winner", rows
    await page.screenshot(path=shot("paohuzi-result"), full_page=True)
    await check_move_log(page, web_server, 0)
    # the move log is a live region (role=log) that screen readers follow, newest at the bottom
    assert await page.get_attribute("#move-log", "role") == "log"
    assert await page.get_attribute("#move-log", "aria-live") == "polite"
    await check_fairness(page, "paohuzi")
    assert await page.text_content("#announce")
    # live updates came over server-sent events
    # (with a single-use ticket: a seat token in a URL would reach access logs and proxies)
    assert any("/events/stream?ticket=" in u for u in page.requests)
    assert not any("token=" in u for u in page.requests)
    assert page.js_errors == []
    assert page.foreign_requests == []


async def play_paohuzi(page, url: str, refused: dict) -> None:

    async def extra(page, moves):
        if refused["done"]:
            return False
        refused["done"] = True
        # a refusal is shown with its rule id
        await page.evaluate("window.dealstream.send({type: 'Discard', seat: 0, card: 999})")
        await page.wait_for_selector("#toast:not([hidden])")
        text = await page.text_content("#toast")
        assert "Not accepted" in text and ("PH-" in text or "DS-" in text), text
        # the refusal in words of the chosen language from its rule id; the server's English
        # detail only as a second line
        rule = await page.get_attribute("#toast .why", "data-rule")
        rule_text = await page.evaluate(f"import('/web/rules.js').then(m => m.ruleText('paohuzi', '{rule}'))")
        assert rule_text and await page.text_content("#toast .why") == rule_text
        assert await page.get_attribute("#toast .detail", "lang") == "en"
        await page.screenshot(path=shot("paohuzi-refusal"))
        await page.click("#toast .close")
        # reloading the page resumes the seat, and the move log is the same
        before_log = await page.eval_on_selector_all("#move-log li[data-v]", LOG_VERSIONS)
        await page.reload()
        await page.wait_for_selector(".play-page[data-game=paohuzi]")
        assert page.url == url
        await wait_js(page, f"document.querySelectorAll('#move-log li[data-v]').length >= {len(before_log)}")
        after_log = await page.eval_on_selector_all("#move-log li[data-v]", LOG_VERSIONS)
        assert after_log[: len(before_log)] == before_log
        assert await page.locator("#my-hand button.piece").count() > 0
        # keyboard: focus the first card, move right, select with Enter, confirm with Enter
        first = page.locator("#my-hand button.piece.can").first
        await first.focus()
        await page.keyboard.press("ArrowRight")
        focused = await page.evaluate("document.activeElement.dataset.card")
        assert focused is not None
        before = (await page.evaluate(STATE_JS))["version"]
        label = await page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert label and ("small" in label or "big" in label)
        if await page.evaluate("document.activeElement.classList.contains('can')"):
            await page.keyboard.press("Enter")
            await page.wait_for_selector("#confirm:not([disabled])")
            await page.keyboard.press("Enter")  # the selected card again: confirm
            await wait_version_change(page, before)
        await page.screenshot(path=shot("paohuzi-table"))
        return True

    def pick(options):
        for kind in ("Win", "Pao", "Peng", "Chi"):
            if kind in options:
                return kind
        return options[0]

    await play_by_clicking(page, pick, on_move=extra, name="paohuzi")


async def test_mcr_whole_deal_by_clicking_on_a_phone(web_server, browser):  # noqa: F811
    page = await new_page(browser, web_server, 390, 844)
    shots = {"n": 0}
    checks = {"n": 0, "top": 0, "bottom": 0}

    async def extra(page, moves):
        if shots["n"] == 0:
            shots["n"] = 1
            await page.screenshot(path=shot("mcr-table-390"), full_page=True)
        return False

    async def in_view(page):
        """The hand and the prompt stay inside the 390x844 viewport, scrolled to the top of the
        page or to its bottom, however long the discard rows have grown."""
        if await page.locator("#result").count() or not await page.locator("#my-hand").count():
            return
        where = "top" if checks["n"] % 2 == 0 else "bottom"
        await page.evaluate("w => window.scrollTo(0, w === 'top' ? 0 : document.body.scrollHeight)", where)
        checks["n"] += 1
        for sel in ("#my-hand", "#me-zone .prompt"):
            if not await page.locator(sel).count():
                continue
            box = await page.locator(sel).first.bounding_box()
            if box is None:  # re-rendered under us
                return
            assert box["y"] >= 0 and box["y"] + box["height"] <= 844 + 1, (sel, where, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1, (sel, where, box)
        checks[where] += 1
        if checks["n"] % 20 == 0:  # the latest of these shows long rows
            await page.screenshot(path=shot("mcr-390-scrolled-" + where))

    def pick(options):
        for kind in ("Claim:win", "Claim:pung"):
            if kind in options:
                return kind
        return "Pass" if "Pass" in options else options[0]

    for _attempt in range(3):  # a bot may win within a few turns: deal again until the rows grew
        await start_from_lobby(page, web_server, "mcr", ["human", "bot:greedy", "bot:random", "bot:greedy"])
        await page.wait_for_selector(".play-page[data-game=mcr]")
        await page.wait_for_selector("#stock-count")
        assert "Wall" in await page.text_content("#stock-count")
        assert "Prevailing wind" in await page.text_content("#prevailing")  # MC-2.3
        # the table fits the phone's width
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390 + 2, width
        await play_by_clicking(page, pick, on_move=extra, name="mcr-390", on_state=in_view)
        if checks["top"] > 5 and checks["bottom"] > 5:
            break
    assert checks["top"] > 5 and checks["bottom"] > 5, checks
    await check_move_log(page, web_server, 0)
    sheet = await page.text_content("#result")
    assert "Fan" in sheet or "wall ran out" in sheet
    assert "Payments" in sheet
    box = await page.locator("#result").bounding_box()
    assert box["y"] < 844, box  # the result sheet opens in view
    if "Fan" in sheet:  # the winning hand laid out, its winning tile marked
        assert await page.locator("#win-hand #win-tile .piece").count() == 1
    await page.screenshot(path=shot("mcr-result-390"), full_page=True)
    await page.set_viewport_size({"width": 1280, "height": 800})
    await page.screenshot(path=shot("mcr-result"), full_page=True)
    await check_fairness(page, "mcr")
    assert page.js_errors == []
    assert page.foreign_requests == []


async def test_replay_viewer_steps_through_a_finished_deal(web_server, browser):  # noqa: F811
    page = await new_page(browser, web_server)
    for _attempt in range(3):  # the steps below need a deal of 16 steps or more: deal again if shorter
        await start_from_lobby(page, web_server, "paohuzi", ["bot:greedy", "bot:greedy", "bot:random"])
        # an all-bot deal opens its live table; once it is over, the replay is one click away
        await page.wait_for_selector(".play-page[data-mode=watch]")
        await page.wait_for_selector("#result", timeout=PAGE_WAIT_MS)
        await page.click("#to-replay")
        await page.wait_for_selector(".replay-page", timeout=PAGE_WAIT_MS)
        total = int(await page.get_attribute(".replay-page", "data-total"))
        if total >= 16:
            break
    assert total >= 16, total
    assert int(await page.get_attribute(".replay-page", "data-step")) == total
    await page.click("#rp-first")
    await page.wait_for_selector('.replay-page[data-step="0"]')
    await page.click("#rp-next")
    await page.wait_for_selector('.replay-page[data-step="1"]')
    assert "created" in (await page.text_content("#rp-event")).lower()
    await page.click("#rp-next")
    await page.wait_for_selector('.replay-page[data-step="2"]')
    await page.click("#rp-prev")
    await page.wait_for_selector('.replay-page[data-step="1"]')
    # slider
    set_slider = "(el, v) => { el.value = v; el.dispatchEvent(new Event('change')); }"
    await page.eval_on_selector("#rp-slider", set_slider, 12)
    await page.wait_for_selector('.replay-page[data-step="12"]')
    # play, then pause
    await page.click("#rp-play")
    await wait_js(page, "Number(document.querySelector('.replay-page').dataset.step) >= 14")
    await page.click("#rp-play")
    paused = int(await page.get_attribute(".replay-page", "data-step"))
    await page.wait_for_timeout(700)
    assert int(await page.get_attribute(".replay-page", "data-step")) == paused
    # perspective: one seat sees only its own hand
    await page.select_option("#rp-persp", "1")
    await wait_js(page, "document.querySelector('#rp-persp').value === '1'")
    await wait_js(page, "document.querySelectorAll('.seat .backs').length === 2")  # drawn anew
    await page.select_option("#rp-persp", "all")
    await wait_js(page, "document.querySelector('#rp-persp').value === 'all'")
    await wait_js(page, "document.querySelectorAll('.seat .backs').length === 0")
    # the claim-window panel explains resolutions with rule ids
    windows = page.locator(".windows > li")
    if await windows.count():
        text = await windows.first.text_content()
        assert "PH-" in text
        assert (await windows.first.locator(".why-line").text_content()).strip()
        assert (await windows.first.locator(".explain").text_content()).strip()
        await windows.first.locator("[data-jump]").click()
        await page.wait_for_selector(".window.current")
    else:
        assert "No claim window" in await page.text_content(".claims")
    await page.screenshot(path=shot("replay"), full_page=True)
    await page.click("#rp-last")
    await page.wait_for_selector(f'.replay-page[data-step="{total}"]')
    await page.wait_for_selector("#result")
    await page.screenshot(path=shot("replay-end"), full_page=True)
    await page.select_option("#lang", "ar")
    await wait_js(page, "document.documentElement.dir === 'rtl'")
    assert await page.get_attribute(".replay-page", "data-step") == str(total)
    await page.screenshot(path=shot("replay-end-ar"), full_page=True)
    await page.select_option("#lang", "en")
    await wait_js(page, "document.documentElement.dir === 'ltr'")

    # the fairness check fails when the revealed seed in the log is tampered with
    async def tamper(route):
        resp = await route.fetch()
        lines = (await resp.text()).splitlines()
        last = json.loads(lines[-1])
        last["data"]["client_seed"] += "x"
        lines[-1] = json.dumps(last)
        await route.fulfill(response=resp, body="\n".join(lines) + "\n")

    await page.route("**/log", tamper)
    await page.click("#fair-run")
    await page.wait_for_selector("#fair-verdict.fail")
    bad = await page.eval_on_selector_all(".fair-steps li.bad", "els => els.map(e => e.dataset.step)")
    assert bad and "commitment" not in bad
    assert page.js_errors == []
    assert page.foreign_requests == []


async def test_languages_rtl_rules_pages_and_sliders(web_server, browser):  # noqa: F811
    page = await new_page(browser, web_server)
    await page.goto(web_server + "/#/rules/paohuzi")
    await page.wait_for_selector("#rules-title")
    assert await page.get_attribute("html", "dir") == "ltr"
    assert await page.locator("dt#PH-6\\.5").count() == 1
    await page.screenshot(path=shot("rules-paohuzi-en"), full_page=True)
    titles = {}
    for lang in ("pt", "nl", "ar", "fi", "en"):
        await page.select_option("#lang", lang)
        await wait_js(page, f"document.documentElement.lang === '{lang}'")
        titles[lang] = await page.text_content("#rules-title")
        assert await page.get_attribute("html", "dir") == ("rtl" if lang == "ar" else "ltr")
        nav = await page.text_content("#nav-lobby")
        assert nav
    assert len(set(titles.values())) == 5
    await page.select_option("#lang", "ar")
    await wait_js(page, "document.documentElement.dir === 'rtl'")
    await page.screenshot(path=shot("rules-paohuzi-ar"), full_page=True)
    await page.goto(web_server + "/#/rules/mcr")
    await page.wait_for_selector("dt#MC-3\\.2")
    assert await page.get_attribute("html", "dir") == "rtl"  # kept across pages (localStorage)
    await page.screenshot(path=shot("rules-mcr-ar"), full_page=True)
    await page.select_option("#lang", "fi")
    await wait_js(page, "document.documentElement.lang === 'fi'")
    await page.screenshot(path=shot("rules-mcr-fi"), full_page=True)
    await page.goto(web_server + "/")
    await page.wait_for_selector("#start")
    assert await page.text_content("#start") == "Jaa"
    await page.screenshot(path=shot("lobby-fi"))
    await page.select_option("#lang", "en")

    # sliders: each changes a computed style at once, and is kept in localStorage
    await page.click("#settings-toggle")
    probes = {
        "contrast": "getComputedStyle(document.querySelector('#stage')).filter",
        "grain": "getComputedStyle(document.querySelector('#grain')).opacity",
        "temperature": "getComputedStyle(document.querySelector('#tint')).backgroundColor",
    }
    for name, probe in probes.items():
        assert await page.input_value(f"#set-{name}") == "50"
        before = await page.evaluate(probe)
        await page.focus(f"#set-{name}")
        await page.keyboard.press("End")
        after = await page.evaluate(probe)
        assert after != before, (name, before, after)
        assert await page.evaluate(f"localStorage.getItem('ds.set.{name}')") == "100"
    await page.screenshot(path=shot("settings-max"))
    await page.reload()
    await page.wait_for_selector("#start")
    for name in probes:
        assert await page.input_value(f"#set-{name}") == "100"
    await page.click("#settings-toggle")
    await page.click("#set-reset")
    assert await page.input_value("#set-grain") == "50"
    assert page.js_errors == []
    assert page.foreign_requests == []


async def test_the_table_rules_page_in_every_language(web_server, browser):  # noqa: F811
    """The table rules (TB) have a rules page of their own beside the two games' pages, each rule
    under its id in every language, one link away from each game's rules and back."""
    page = await new_page(browser, web_server)
    await page.goto(web_server + "/#/rules/paohuzi")
    await page.wait_for_selector("#rules-title")
    await page.click("#rules-see-also a[data-rules='table']")
    await page.wait_for_selector("dt#TB-2\\.5")
    expected = await page.evaluate(
        "import('/web/rules.js').then(r => r.TABLE_RULES.en.sections.flatMap(s => s.items.map(i => i[0])))"
    )
    rules_doc = (Path(__file__).resolve().parents[2] / "docs/rules/table.md").read_text(encoding="utf-8")
    documented = re.findall(r"^\| (TB-\d+\.\d+) \|", rules_doc, re.MULTILINE)
    assert expected == documented and expected[0] == "TB-1.1"  # every table rule, in the docs' order
    titles = {}
    for lang in ("pt", "nl", "ar", "fi", "en"):
        await page.select_option("#lang", lang)
        await wait_js(page, f"document.documentElement.lang === '{lang}'")
        titles[lang] = await page.text_content("#rules-title")
        shown = await page.eval_on_selector_all("article.rules dt", "els => els.map(e => e.id)")
        assert shown == expected, lang
        texts = await page.eval_on_selector_all("article.rules dd", TEXTS)
        assert len(texts) == len(expected) and all(texts), lang
        assert await page.get_attribute("html", "dir") == ("rtl" if lang == "ar" else "ltr")
        if lang == "ar":
            await page.screenshot(path=shot("rules-table-ar"), full_page=True)
    assert len(set(titles.values())) == 5
    # the page has its own link in the top bar, marked as the page shown
    assert await page.get_attribute("#nav-rules-tb", "aria-current") == "page"
    assert await page.get_attribute("#nav-rules-ph", "aria-current") is None
    assert await page.text_content("#nav-rules-tb") == "Table rules"
    # no game's pieces or tables on this page; links to both games' rules
    assert await page.locator("article.rules .sample, #fan-table, #huxi-table").count() == 0
    links = await page.eval_on_selector_all("#rules-see-also a", "els => els.map(e => e.dataset.rules)")
    assert links == ["paohuzi", "mcr"]
    await page.screenshot(path=shot("rules-table-en"), full_page=True)
    await page.click("#rules-see-also a[data-rules='mcr']")
    await page.wait_for_selector("dt#MC-3\\.2")
    assert await page.locator("#rules-see-also a[data-rules='table']").count() == 1
    await page.goto(web_server + "/#/rules/table/2")
    await page.wait_for_selector("#sec-2 dt#TB-3\\.1")
    assert page.js_errors == []
    assert page.foreign_requests == []


async def test_translations_complete_and_shuffle_test_vector(web_server, browser):  # noqa: F811
    page = await new_page(browser, web_server)
    await page.goto(web_server + "/")
    await page.wait_for_selector("#start")
    missing = await page.evaluate(
        """async () => {
          const m = await import('/web/i18n.js');
          const r = await import('/web/rules.js');
          const out = [];
          for (const [l] of m.LANGS) {
            for (const k of Object.keys(m.STRINGS.en)) if (!(k in m.STRINGS[l])) out.push(l + ':' + k);
            for (const k of Object.keys(m.STRINGS[l])) if (!(k in m.STRINGS.en)) out.push(l + ':extra:' + k);
          }
          for (const g of ['paohuzi', 'mcr', 'table']) {
            const ids = r.rulesOf(g).en.sections.flatMap(s => s.items.map(i => i[0])).join();
            for (const [l] of m.LANGS) {
              const got = r.rulesOf(g)[l].sections.flatMap(s => s.items.map(i => i[0])).join();
              if (got !== ids) out.push(l + ':rules:' + g);
            }
          }
          return out;
        }"""
    )
    assert missing == []
    # docs/design.md, the shuffle test vector, computed with crypto.subtle and BigInt in the page
    vector = await page.evaluate(
        """async () => {
          const f = await import('/web/fair.js');
          const seed = Uint8Array.from({length: 32}, (_, i) => i);
          const a = await f.dealerAndDeck(seed, 80, 3);
          const b = await f.dealerAndDeck(seed, 144, 4);
          return [a.dealer, a.deck.slice(0, 12), a.deck.slice(-3),
                  b.dealer, b.deck.slice(0, 12), b.deck.slice(-3)];
        }"""
    )
    assert vector == [
        1,
        [55, 48, 53, 42, 65, 73, 78, 19, 71, 6, 57, 77],
        [10, 79, 63],
        1,
        [128, 41, 40, 110, 29, 34, 99, 63, 38, 48, 51, 43],
        [96, 4, 31],
    ]
    assert page.js_errors == []


async def test_mcr_fan_names_are_translated_in_the_result_sheet(web_server, browser):  # noqa: F811
    page = await new_page(browser, web_server)
    await page.goto(web_server + "/")
    await page.wait_for_selector("#start")
    await page.select_option("#lang", "pt")
    await wait_js(page, "document.documentElement.lang === 'pt'")
    fans = []
    for _attempt in range(8):  # greedy bots win about four deals in five; a drawn deal has no fans
        await start_from_lobby(page, web_server, "mcr", ["bot:greedy"] * 4)
        await page.wait_for_selector(".play-page[data-mode=watch]")
        await page.wait_for_selector("#result", timeout=PAGE_WAIT_MS)
        fans = await page.eval_on_selector_all(
            "#result tr[data-fan] .fan-name",
            "els => els.map(e => [e.closest('tr').dataset.fan, e.lang, e.textContent])",
        )
        if fans:
            break
    assert fans, "no MCR deal was won in eight tries"
    table = await page.evaluate("async () => (await import('/web/games/mcr/fans.js')).FANS")
    for en, lang, text in fans:
        assert lang == "pt" and text == table[en]["pt"], (en, lang, text)
    assert any(text != en for en, _lang, text in fans)  # e.g. "Sequência Dupla Pura", not English
    await page.screenshot(path=shot("mcr-result-fans-pt"), full_page=True)
    await page.select_option("#lang", "fi")
    await wait_js(page, "document.documentElement.lang === 'fi'")
    await page.wait_for_selector("#result .fan-name[lang=fi]")
    shown = await page.eval_on_selector_all("#result .fan-name", "els => els.map(e => e.textContent)")
    assert shown == [table[en]["fi"] for en, _lang, _text in fans]
    assert page.js_errors == []
    assert page.foreign_requests == []
