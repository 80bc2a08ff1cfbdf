"""Learning from the table in headless Chromium (issue 15): the review of a finished deal in the
replay viewer (progress, marks on the step list and the slider, the options at a step, the jump
to the next mistake by key, the chart), the coach beside the live hand on fixed decks (MCR waits
with the "under 8 points" notice, why a complete hand cannot be declared, the Win button's fans;
Paohuzi huxi and chou beside each claim), and the fan and huxi tables of the rules pages checked
against the calculator and the Paohuzi engine's own figures."""

from __future__ import annotations

import json
import math
import os
import struct
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import MahjongGB
import pytest

from domain.mcr.fixtures import build_deck
from domain.paohuzi.cards import group_huxi, kind_from_name
from domain.paohuzi.scenario import deck_for
from domain.paohuzi.wins import tun_for
from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    ROOT,
    browser,
    card_name,
    get_json,
    new_page,
    post_json,
    put_tokens,
    shot,
    wait_js,
    web_server,
)
from tests.unit.test_web_fans import calculator_fans

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]  # a review on a loaded machine: minutes

# Ready on T6 (10 points on a discard) or T9 (4 points: under the 8-point minimum, MC-4.3); the
# values are domain/mcr/coach.py's own (tests/unit/mcr/test_mcr_coach.py).
READY = ["W4", "W5", "W6", "T7", "T8", "T9", "T9", "B5", "B6", "B7", "B9", "B9", "B9"]
F4 = 30  # North wind's kind: ids 120..123


def review_total(base: str, deal: str) -> int:
    return get_json(base, f"/deals/{deal}")["version"]


def as_shown(value: float) -> str:
    """A value as the review panel writes it (review.js ``fmt``: halves round up, as Math.round
    does), so a loss of 3.715 reads 3.72 on the page and in the test alike."""
    return f"{math.floor(value * 100 + 0.5) / 100:.2f}"


def cli_review(base: str, deal: str, tmp: Path) -> dict:
    """The seed-0 review of seat 0 that ``dealstream review`` makes from the deal's published log
    (``GET /deals/{id}/log``): the same log and seed give the same review in the service's workers
    and in this process, so the browser's review is known before it is asked for."""
    path = tmp / f"{deal}.jsonl"
    with urllib.request.urlopen(f"{base}/deals/{deal}/log", timeout=10) as r:
        path.write_bytes(r.read())
    proc = subprocess.run(
        [sys.executable, "-m", "service.cli", "review", str(path), "--seat", "0", "--seed", "0", "--json"],
        cwd=str(ROOT),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,  # a few seconds of one core; minutes on a loaded machine
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def finished_deal(base: str, tmp: Path) -> tuple[str, dict]:
    """A finished Paohuzi deal of bots whose random seat 0 made at least one mistake and one
    decision the review cannot judge (``unclear``), with the review that shows them (seed 0, made
    from the deal's log outside the service). A random seat nearly always has both (three in four
    deals, ``bench.review``); the deals are chosen, not hoped for."""
    for _ in range(12):
        status, created = post_json(
            base, "/deals", {"game": "paohuzi", "seats": ["bot:random", "bot:greedy", "bot:greedy"]}
        )
        assert status == 201, created
        deal = created["deal_id"]
        deadline = time.monotonic() + 120
        while not get_json(base, f"/deals/{deal}")["over"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        review = cli_review(base, deal, tmp)
        verdicts = {d["verdict"] for d in review["decisions"]}
        if {"mistake", "unclear"} <= verdicts:
            return deal, review
    raise AssertionError("twelve random seats without a mistake and an unclear decision")


async def test_a_review_marks_each_decision_and_jumps_between_mistakes(web_server, browser, tmp_path):  # noqa: F811
    base = web_server
    deal, expected = finished_deal(base, tmp_path)
    page = await new_page(browser, base)
    await page.goto(f"{base}/#/replay/{deal}")
    await page.wait_for_selector("#review #rv-go")
    assert await page.locator("#rv-summary").count() == 0  # no review made yet for this seed
    # progress is drawn while it runs (the first answer is always "running"), then the result
    await page.evaluate(
        """() => { window.__progress = 0; new MutationObserver(() => {
             if (document.querySelector('#rv-progress')) window.__progress++; })
             .observe(document.body, {childList: true, subtree: true}); }"""
    )
    await page.click("#rv-go")
    await page.wait_for_selector("#rv-summary", timeout=180_000)
    assert await page.evaluate("window.__progress") > 0
    review = get_json(base, f"/deals/{deal}/reviews/0")
    assert review["status"] == "done"
    decisions = review["decisions"]
    assert decisions == expected["decisions"]  # the service's workers review as the CLI does
    mistakes = [d["version"] for d in decisions if d["verdict"] == "mistake"]
    assert mistakes
    assert await page.text_content("#rv-mistakes") == str(review["summary"]["mistakes"])
    assert await page.text_content("#rv-decisions") == str(len(decisions))
    # the perspective follows the reviewed seat
    assert await page.input_value("#rp-persp") == "0"
    # every decision is marked on the step list and on the slider, with its verdict
    listed = await page.eval_on_selector_all(
        "#rv-list [data-step]",
        "els => els.map(e => [Number(e.dataset.step), e.dataset.verdict])",
    )
    assert listed == [[d["version"], d["verdict"]] for d in decisions]
    marks = await page.eval_on_selector_all(
        ".rp-marks .mark", "els => els.map(e => [Number(e.dataset.step), e.dataset.verdict])"
    )
    assert marks == listed
    # the chart: one point per decision, each in its verdict's colour
    points = await page.eval_on_selector_all(
        "#rv-chart .pt",
        "els => els.map(e => [Number(e.dataset.step), e.dataset.verdict,"
        " e.classList.contains('v-' + e.dataset.verdict)])",
    )
    assert points == [[d["version"], d["verdict"], True] for d in decisions]
    # a decision the review cannot judge is "unclear", never a tick: counted apart from the
    # agreements in the summary and the chart's key, marked "?" in the step list
    unclear = [d["version"] for d in decisions if d["verdict"] == "unclear"]
    agrees = sum(d["verdict"] == "agrees" for d in decisions)
    assert unclear and review["summary"]["unclear"] == len(unclear)
    assert review["summary"]["agreements"] == agrees
    assert await page.text_content("#rv-unclear") == str(len(unclear))
    # a decision where every play was as good is "even" (method m8): counted apart, marked "=",
    # and left out of the agreement share, which is of the decisions that were a choice
    even = [d["version"] for d in decisions if d["verdict"] == "even"]
    assert review["summary"]["even"] == len(even)
    assert await page.text_content("#rv-even") == str(len(even))
    for v in even:
        assert (await page.text_content(f"#rv-it-{v} .rv-mark")).strip() == "="
    assert review["summary"]["agreement"] == round(agrees / (len(decisions) - len(even)), 4)
    shown = math.floor(review["summary"]["agreement"] * 100 + 0.5)  # as review.js rounds it
    assert await page.text_content("#rv-agreement") == f"{shown} %"
    key = await page.eval_on_selector_all(
        "#rv-legend [data-verdict]",
        "els => els.map(e => [e.dataset.verdict, e.querySelector('strong').textContent])",
    )
    assert key == [
        [v, str(sum(d["verdict"] == v for d in decisions))]
        for v in ("even", "agrees", "unclear", "inaccuracy", "mistake")
    ]
    for v in unclear:
        assert (await page.text_content(f"#rv-it-{v} .rv-mark")).strip() == "?"
    await page.screenshot(path=shot("review-summary"), full_page=True)
    # n: the next mistake, round past the end (the replay opens at the last step) to the first;
    # the panel there names the bot's choice and every option's value
    assert await page.get_attribute(".replay-page", "data-step") == str(review_total(base, deal))
    await page.evaluate("document.activeElement && document.activeElement.blur()")
    await page.keyboard.press("n")
    first = mistakes[0]
    await page.wait_for_selector(f'.replay-page[data-step="{first}"]')
    d = next(x for x in decisions if x["version"] == first)
    assert await page.get_attribute("#rv-here", "data-verdict") == "mistake"
    assert await page.locator("#rv-here tbody tr").count() == len(d["options"])
    values = await page.eval_on_selector_all("#rv-here tbody td.num", "els => els.map(e => e.textContent)")
    best = max(o["value"] for o in d["options"])
    assert values[0].startswith(as_shown(best))  # sorted best first
    assert await page.locator("#rv-here tr.best .bot-tag").count() == 1
    assert await page.locator("#rv-here tr.chosen .chosen-tag").count() == 1
    assert as_shown(d["loss"]) in await page.text_content("#rv-lost")
    assert await page.locator("#rv-botchoice").count() == 1
    assert await page.get_attribute(f"#rv-it-{first}", "aria-current") == "step"
    await page.screenshot(path=shot("review-first-mistake"), full_page=True)
    if len(mistakes) > 1:
        await page.keyboard.press("n")
        await page.wait_for_selector(f'.replay-page[data-step="{mistakes[1]}"]')
        await page.keyboard.press("p")
        await page.wait_for_selector(f'.replay-page[data-step="{first}"]')
    # the buttons do the same; before the first mistake "previous" goes round to the last
    await page.click("#rp-first")
    await page.wait_for_selector('.replay-page[data-step="0"]')
    await page.click("#rv-prev-mistake")
    await page.wait_for_selector(f'.replay-page[data-step="{mistakes[-1]}"]')
    await page.click("#rp-first")
    await page.wait_for_selector('.replay-page[data-step="0"]')
    await page.click("#rv-next-mistake")
    await page.wait_for_selector(f'.replay-page[data-step="{first}"]')
    assert await page.evaluate("document.activeElement.id") == "rv-next-mistake"  # focus kept
    # a point of the chart jumps to its step
    last = decisions[-1]["version"]
    await page.click(f"#rv-pt-{last}")
    await page.wait_for_selector(f'.replay-page[data-step="{last}"]')
    # an unclear decision's panel says so, with no tick
    await page.click(f"#rv-it-{unclear[0]}")
    await page.wait_for_selector(f'#rv-here[data-verdict="unclear"][data-step="{unclear[0]}"]')
    tag = (await page.text_content("#rv-here .verdict-tag")).strip()
    assert tag == "? unclear" and "✓" not in await page.text_content("#rv-here .rv-here-head")
    # a review made before is shown when the replay opens again, and in every language
    await page.reload()
    await page.wait_for_selector("#rv-summary")
    await page.select_option("#lang", "ar")
    await page.wait_for_selector("html[dir=rtl] #rv-summary")
    assert "الأخطاء" in await page.text_content("#rv-summary")
    assert "غير واضح" in await page.text_content("#rv-legend")
    await page.screenshot(path=shot("review-arabic"), full_page=True)
    assert page.js_errors == []
    assert page.foreign_requests == []


async def fixed_mcr(base: str, browser, hand: list[str], seats=None, coach: bool = True):  # noqa: F811
    """A page on seat 0 of a fixed MCR deck, seat 0 the dealer holding `hand`, the deal started
    (`coach`: the toggle already on in this browser)."""
    deck = build_deck({0: hand}, dealer=0)
    seats = seats or ["human", "bot:greedy", "bot:greedy", "bot:greedy"]
    status, created = post_json(base, "/deals", {"game": "mcr", "seats": seats, "deck": deck, "dealer": 0})
    assert status == 201, created
    deal = created["deal_id"]
    page = await new_page(browser, base)
    await put_tokens(page, base, deal, created["tokens"])
    if coach:
        await page.evaluate("localStorage.setItem('ds.coach', 'true')")
    await page.goto(f"{base}/#/play/{deal}/0")
    await page.click("#do-start")
    await page.wait_for_selector("#my-hand button.piece.can")
    return page, created


async def test_the_coach_shows_the_waits_and_the_8_point_minimum(web_server, browser):  # noqa: F811
    base = web_server
    page, created = await fixed_mcr(base, browser, [*READY, "F4"], coach=False)
    assert created["coach"] is True
    assert not await page.is_checked("#coach-toggle")  # off until the person turns it on
    assert await page.locator("#coach").count() == 0
    await page.click("#coach-toggle")
    await page.wait_for_selector("#coach-shanten")
    assert await page.get_attribute("#coach-shanten", "data-shanten") == "0"
    best = await page.eval_on_selector_all("#coach-best [data-tile]", "els => els.map(e => e.dataset.tile)")
    assert best == ["F4", "T9"]  # both leave the hand ready; F4 leaves more useful tiles
    # pointing at the North wind: its discard leaves the hand ready on T6 (10) and T9 (4: no win)
    ids = await page.eval_on_selector_all(
        "#my-hand button[data-card]", "els => els.map(e => Number(e.dataset.card))"
    )
    north = next(i for i in ids if i >> 2 == F4)
    await page.hover(f'#my-hand button[data-card="{north}"]')
    await page.wait_for_selector("#coach-detail .coach-waits")
    waits = await page.eval_on_selector_all(
        "#coach-detail .wait", "els => els.map(e => [e.dataset.tile, e.textContent])"
    )
    assert [w[0] for w in waits] == ["T6", "T9"]
    assert "4 unseen" in waits[0][1] and "10 points" in waits[0][1] and "self-drawn 12" in waits[0][1]
    assert (
        "2 unseen" in waits[1][1] and "under 8 points: not a win" in waits[1][1] and "MC-4.3" in waits[1][1]
    )
    assert "(4 on a discard, 6 self-drawn)" in waits[1][1]
    await page.screenshot(path=shot("coach-waits-under-8"))
    # focus shows the same (keyboard), and the toggle is remembered
    await page.focus(f'#my-hand button[data-card="{ids[0]}"]')
    await wait_js(
        page, "document.querySelector('#coach-detail').textContent.includes('Discarding 4 of characters')"
    )
    assert await page.evaluate("localStorage.getItem('ds.coach')") == "true"
    await page.reload()
    await page.wait_for_selector("#coach-shanten")
    assert await page.is_checked("#coach-toggle")
    assert page.js_errors == []
    assert page.foreign_requests == []
    await page.context.close()

    # the dealer's 14th tile completes a 6-point hand: no Win button, and the coach says why
    page, _ = await fixed_mcr(base, browser, [*READY, "T9"])
    await page.wait_for_selector("#coach-nowin")
    assert await page.get_attribute("#coach-shanten", "data-shanten") == "-1"
    text = await page.text_content("#coach-nowin")
    assert "6 points" in text and "under 8 points, not a win" in text and "MC-4.3" in text, text
    assert await page.locator('[data-action][data-kind="DeclareWin"]').count() == 0
    await page.screenshot(path=shot("coach-no-win"))
    await page.context.close()

    # a 12-point hand: the Win button lists the fans and the total it would score
    page, _ = await fixed_mcr(base, browser, [*READY, "T6"])
    await page.wait_for_selector('[data-action][data-kind="DeclareWin"] .win-note')
    note = await page.text_content('[data-action][data-kind="DeclareWin"] .win-note')
    assert (
        "Mixed Shifted Chows 6" in note and "Fully Concealed Hand 4" in note and "total 12 points" in note
    ), note
    await page.screenshot(path=shot("coach-win-button"))
    assert page.js_errors == []
    await page.context.close()

    # several people at the table: the deal has no coach, and the page shows no toggle
    page, created = await fixed_mcr(
        base, browser, [*READY, "F4"], ["human", "human", "bot:greedy", "bot:greedy"]
    )
    assert created["coach"] is False and get_json(base, f"/deals/{created['deal_id']}")["coach"] is False
    assert await page.locator("#coach-toggle").count() == 0
    await page.context.close()


async def test_the_coach_puts_huxi_and_chou_beside_each_claim(web_server, browser):  # noqa: F811
    """Seat 0 reveals s5 holding s3 s4 s6 s7 (the dealer's two ti let seat 0 reveal first): chi
    choices and pass, each with the huxi it adds and the chou it causes (PH-6.7)."""
    base = web_server
    deck = deck_for(2, {2: ["b9"] * 4 + ["b10"] * 4, 0: ["s3", "s4", "s6", "s7"]}, ["s5"])
    body = {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "deck": deck, "dealer": 2}
    status, created = post_json(base, "/deals", body)
    assert status == 201, created
    page = await new_page(browser, base)
    await put_tokens(page, base, created["deal_id"], created["tokens"])
    await page.evaluate("localStorage.setItem('ds.coach', 'true')")
    await page.goto(f"{base}/#/play/{created['deal_id']}/0")
    await page.click("#do-start")
    await page.wait_for_selector('#me-zone [data-action][data-kind="Chi"] .coach-note')
    advice = get_json(base, f"/deals/{created['deal_id']}/coach", created["tokens"]["0"])
    notes = await page.eval_on_selector_all(
        "#me-zone [data-action]",
        "els => els.map(e => [Number(e.dataset.action),"
        " e.querySelector('.coach-note')?.textContent || null])",
    )
    by_index = {a["index"]: a for a in advice["actions"]}
    assert {i for i, _ in notes} == set(by_index)
    s5 = await card_name(page, "small 5", "五")
    for i, note in notes:
        a = by_index[i]
        assert note is not None
        if a["action"] == "pass":
            assert f"chou on {s5} (PH-6.7)" in note, note
        else:
            sign = "+" if a["huxi_added"] > 0 else "−" if a["huxi_added"] < 0 else "±"
            assert f"{sign}{abs(a['huxi_added'])} huxi" in note, (note, a)
    assert await page.get_attribute("#coach-huxi", "data-huxi") == str(advice["layout"]["huxi"])
    await page.screenshot(path=shot("coach-paohuzi-claims"))
    assert page.js_errors == []
    assert page.foreign_requests == []


def calculator_points() -> list[int]:
    """The calculator's fan value table (uint16, in its fan order), read from the module."""
    data = Path(MahjongGB.__file__).read_bytes()
    at = data.find(struct.pack("<9H", 0, *([88] * 7), 64))
    assert at >= 0
    return list(struct.unpack_from("<83H", data, at))[1:]


async def test_the_rules_pages_hold_the_fan_and_huxi_tables(web_server, browser):  # noqa: F811
    base = web_server
    page = await new_page(browser, base)
    fans = calculator_fans()
    points = dict(zip([en for en, _zh in fans], calculator_points(), strict=True))
    for lang, probe in (("en", "Seven Pairs"), ("fi", "Seitsemän paria"), ("ar", "سبعة أزواج")):
        await page.goto(f"{base}/#/rules/mcr/fans")
        await page.select_option("#lang", lang)
        await page.wait_for_selector("#fan-table")
        rows = await page.eval_on_selector_all(
            "#fan-table tbody tr",
            "els => els.map(e => [e.dataset.fan, Number(e.dataset.points), Number(e.cells[0].textContent),"
            " e.cells[1].textContent])",
        )
        assert len(rows) == 81  # the official table; the calculator's combined entry is a note
        assert [r[0] for r in rows] == [en for en, _zh in fans][:81]
        assert all(r[1] == r[2] == points[r[0]] for r in rows)
        assert probe in [r[3] for r in rows]
        combined = fans[81][0]
        assert await page.get_attribute("#fan-combined", "data-fan") == combined
        assert await page.get_attribute("#fan-combined", "data-points") == str(points[combined])
    await page.screenshot(path=shot("rules-fan-table"), full_page=True)
    await page.select_option("#lang", "en")
    await page.goto(f"{base}/#/rules/paohuzi/huxi")
    await page.wait_for_selector("#huxi-table")
    cells = await page.eval_on_selector_all(
        "#huxi-table td[data-group], .huxi-ex tr[data-group]",
        "els => els.map(e => [e.dataset.group, e.dataset.kinds,"
        " Number((e.querySelector('strong.num') || e.querySelector('td.num')).textContent)])",
    )
    assert len(cells) > 20
    for group, kinds, shown in cells:
        assert shown == group_huxi(group, [kind_from_name(k) for k in kinds.split()]), (group, kinds, shown)
    examples = await page.eval_on_selector_all(
        ".huxi-ex",
        "els => els.map(e => [e.dataset.example, Number(e.dataset.huxi), e.dataset.tun,"
        " [...e.querySelectorAll('tbody tr')].map(r => [r.dataset.group, r.dataset.kinds])])",
    )
    assert [e[0] for e in examples] == ["heavenly", "seven", "four", "short"]
    for _id, huxi, tun, groups in examples:
        total = sum(group_huxi(g, [kind_from_name(k) for k in ks.split()]) for g, ks in groups)
        assert huxi == total
        assert tun == (str(tun_for(total)) if total >= 15 else "")
    assert {e[0]: e[1] for e in examples} == {"heavenly": 30, "seven": 19, "four": 24, "short": 14}
    tuns = await page.eval_on_selector_all(
        "#tun-table td[data-huxi]", "els => els.map(e => [Number(e.dataset.huxi), Number(e.textContent)])"
    )
    assert all(tun_for(h) == n for h, n in tuns)
    await page.screenshot(path=shot("rules-huxi-table"), full_page=True)
    assert page.js_errors == []
    assert page.foreign_requests == []
