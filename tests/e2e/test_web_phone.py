"""The table made for a phone, measured: whole deals of both games clicked through in headless
Chromium at 360x640, 390x844 and 412x915 (touch) and 1280x800, and in Arabic at 390x844; at every
prompt the page is read in one step and each rule below counts as a violation when broken:

- a claim prompt's offered card (`data-role~="offered"`) is inside the viewport and topmost at
  its centre (document.elementFromPoint there is the card or inside it);
- the newest discard (`data-role~="last-discard"`) likewise, whenever a card lies played on the
  table, and it is one of the pieces lying there;
- every `[data-action]` control of the prompt (the answers and the Discard confirm) is inside the
  viewport with no scrolling, topmost at its centre, at least 40 px tall on a touch screen, and
  near the hand;
- the hand is whole inside the viewport;
- nothing scrolls sideways (`scrollWidth <= innerWidth`).

Also a match's deal (the running-score strip above the table), long deals where the wall runs
out, and a Paohuzi claim with six answers (peng, four chi/bi, pass); and the other pages at 360 px
never scroll sideways. Decks are fixed (`--dev`); every wait is for a state, bounded."""

from __future__ import annotations

import random

import pytest

from domain.paohuzi.scenario import deck_for
from tests.e2e.test_web_table import play_by_clicking
from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    PAGE_WAIT_MS,
    browser,
    post_json,
    shot,
    wait_js,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]

PHONES = [(360, 640), (390, 844), (412, 915)]
LAPTOP = (1280, 800)

# One read of the page at a prompt: null when no prompt is open (or the page is between renders,
# or a closed window's prompt is held); else the prompt's kind and every violation found.
PROMPT_JS = """() => {
  const page = document.querySelector('.play-page');
  const zone = document.querySelector('#me-zone');
  if (!page || !zone) return null;
  if (page.dataset.busy === '1' || page.dataset.held === '1' || page.dataset.armed === '0') return null;
  if (document.querySelector('#result') || zone.querySelector('#held-prompt')) return null;
  const hand = zone.querySelector('#my-hand');
  const live = [...zone.querySelectorAll('[data-action]')].filter((b) => !b.disabled);
  const discarding = !!zone.querySelector('#my-hand button.piece.can');
  if (!hand || (!live.length && !discarding)) return null;
  const W = window.innerWidth, H = window.innerHeight;
  const touch = window.matchMedia('(pointer: coarse)').matches;
  const claim = !!zone.querySelector('[data-action][data-kind="Pass"]');
  const bad = [];
  const look = (el, what) => {
    const r = el.getBoundingClientRect();
    const inside = r.width > 0 && r.height > 0 && r.top >= -0.5 && r.left >= -0.5
      && r.bottom <= H + 0.5 && r.right <= W + 0.5;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = inside ? document.elementFromPoint(x, y) : null;
    const top = !!hit && (hit === el || el.contains(hit));
    const box = [r.top, r.bottom, r.left, r.right].map(Math.round);
    if (!inside) bad.push([what, 'outside', ...box]);
    const by = String(hit && (hit.id || hit.className || hit.tagName)).slice(0, 40);
    if (inside && !top) bad.push([what, 'covered by', by]);
    return r;
  };
  // the offered card of a claim window
  const offered = document.querySelectorAll('[data-role~="offered"]');
  if (claim) {
    if (offered.length !== 1) bad.push(['offered', 'count ' + offered.length]);
    else look(offered[0], 'offered');
  }
  // the newest discard, whenever a card lies played on the table
  const rows = document.querySelectorAll('.seat .row .piece[data-piece]');
  const lying = new Set([...rows].map((e) => e.dataset.piece));
  const anyRow = !!document.querySelector('.seat .row .piece');
  const last = document.querySelectorAll('[data-role~="last-discard"]');
  if (anyRow || claim) {
    if (last.length !== 1) bad.push(['last-discard', 'count ' + last.length]);
    else {
      look(last[0], 'last-discard');
      const id = last[0].dataset.piece;
      const isOffered = last[0].matches('[data-role~="offered"]');
      if (!isOffered && !lying.has(id)) bad.push(['last-discard', 'not a piece on the table', id]);
    }
  }
  // the hand, whole
  const hr = hand.getBoundingClientRect();
  const handOut = hr.top < -0.5 || hr.bottom > H + 0.5 || hr.left < -0.5 || hr.right > W + 0.5;
  if (handOut) bad.push(['hand', 'outside']);
  // every control of the prompt
  const controls = [...zone.querySelectorAll('[data-action], #confirm')];
  if (discarding && !zone.querySelector('#confirm[data-action]')) bad.push(['confirm', 'no data-action']);
  const h = hand.getBoundingClientRect();
  for (const b of controls) {
    const name = 'button ' + (b.dataset.kind || b.id || b.dataset.action);
    const r = look(b, name);
    if (touch && r.height < 40) bad.push([name, 'height ' + Math.round(r.height)]);
    // near the hand: the prompts right above the hand, the button not off to one side of it
    const prompts = [...zone.querySelectorAll('.prompt')].map((e) => e.getBoundingClientRect().bottom);
    const dx = Math.max(0, h.left - r.right, r.left - h.right);
    const gap = b.closest('.prompt') ? h.top - Math.max(...prompts) : 999;
    if (dx > 160 || gap < -1 || gap > 40) bad.push([name, 'far from the hand', dx, gap].map(String));
  }
  const sw = document.documentElement.scrollWidth;
  if (sw > W) bad.push(['page', 'scrolls sideways', sw, W]);
  return {version: Number(page.dataset.version), claim, answers: live.length, bad};
}"""

# Sideways scroll of any page
WIDE_JS = "() => [document.documentElement.scrollWidth, window.innerWidth]"


async def touch_page(browser, base: str, size: tuple[int, int], lang: str = "en"):  # noqa: F811
    """A page of the test server (every other request fails the test): a phone size is a touch
    screen (`pointer: coarse`), the laptop a mouse; `lang` chosen before the first page."""
    width, height = size
    phone = width < 700
    context = await browser.new_context(
        viewport={"width": width, "height": height}, locale="en-US", has_touch=phone, is_mobile=phone
    )
    context.set_default_timeout(PAGE_WAIT_MS)  # as every web test's page: a loaded machine's bound
    page = await context.new_page()
    errors: list[str] = []
    foreign: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    async def guard(route):
        url = route.request.url
        if url.startswith(base) or url.startswith("data:"):
            await route.continue_()
        else:
            foreign.append(url)
            await route.abort()

    await page.route("**/*", guard)
    page.js_errors = errors  # type: ignore[attr-defined]
    page.foreign_requests = foreign  # type: ignore[attr-defined]
    await page.goto(base + "/")
    await page.wait_for_selector("#start")
    await page.evaluate("lang => localStorage.setItem('ds.lang', JSON.stringify(lang))", lang)
    await page.reload()  # the language is read when the page loads
    await page.wait_for_selector("#start")
    await wait_js(page, f"document.documentElement.lang === '{lang}'")
    return page


async def open_seat(page, base: str, deal: str, tokens: dict) -> None:
    await page.evaluate(
        "([deal, tokens]) => { localStorage.setItem('ds.tokens.' + deal, JSON.stringify(tokens));"
        " localStorage.setItem('ds.seed.' + deal, JSON.stringify('phone-seed')); }",
        [deal, tokens],
    )
    await page.goto(f"{base}/#/play/{deal}/0")
    # bounds a loaded machine meets with room: the deal starts once every seed is in
    await page.click("#do-start", timeout=120_000)
    await page.wait_for_selector("#my-hand button.piece", timeout=120_000)


def make_deal(base: str, game: str, n: int, bots: str = "bot:greedy", path: str = "/deals", **extra) -> tuple:
    size = 80 if game == "paohuzi" else 144
    deck = list(range(size))
    random.Random(4200 + n).shuffle(deck)
    seats = ["human"] + [bots] * (2 if game == "paohuzi" else 3)
    body = {"game": game, "seats": seats, "deck": deck, "dealer": 0, "pace": "fast", **extra}
    status, created = post_json(base, path, body)
    assert status == 201, created
    return created["deal_id"], created["tokens"]


class Tally:
    """Prompts seen (one per version) and the violations found at them."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.prompts: dict[tuple[int, int], dict] = {}
        self.violations: list = []
        self.deal = 0
        self.touch = None

    async def check(self, page) -> None:
        read = await page.evaluate(PROMPT_JS)
        if read is None or (self.deal, read["version"]) in self.prompts:
            return
        self.prompts[(self.deal, read["version"])] = read
        for v in read["bad"]:
            self.violations.append((self.deal, read["version"], *v))
        if read["bad"] and len(self.violations) == len(read["bad"]):
            await page.screenshot(path=shot(f"phone-{self.label}-first-violation"))

    @property
    def claims(self) -> int:
        return sum(1 for r in self.prompts.values() if r["claim"])

    def report(self) -> str:
        return (
            f"{self.label}: {len(self.prompts)} prompts ({self.claims} claims) in {self.deal + 1} deals, "
            f"{len(self.violations)} violations"
        )


def first(options: list[str]) -> str:
    return options[0]


def last(options: list[str]) -> str:  # pass (listed last) or the only option
    return options[-1]


async def play_deals(
    page, base, tally: Tally, game: str, *, minimum: int, seed: int, pick=first, bots="bot:greedy"
):
    """Whole deals from fixed decks until `minimum` prompts were read (a bot may win early)."""
    results = []
    for attempt in range(5):
        tally.deal = attempt
        deal, tokens = make_deal(base, game, seed + attempt, bots)
        await open_seat(page, base, deal, tokens)
        await play_by_clicking(page, pick, name=f"phone-{tally.label}", on_state=tally.check)
        results.append(await page.text_content("#verdict"))
        if len(tally.prompts) >= minimum:
            break
    return results


@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
@pytest.mark.parametrize(
    "size,lang",
    [(PHONES[0], "en"), (PHONES[1], "en"), (PHONES[2], "en"), (LAPTOP, "en"), (PHONES[1], "ar")],
    ids=["360x640", "390x844", "412x915", "1280x800", "390x844-ar"],
)
async def test_every_prompt_keeps_the_offered_card_the_last_discard_and_the_buttons_in_view(
    web_server,  # noqa: F811
    browser,  # noqa: F811
    game,
    size,
    lang,
):
    base = web_server
    page = await touch_page(browser, base, size, lang)
    label = f"{game}-{size[0]}x{size[1]}-{lang}"
    tally = Tally(label)
    try:
        await play_deals(page, base, tally, game, minimum=22, seed=10 * size[0] + (lang == "ar"))
    finally:
        print(tally.report(), tally.violations[:40])
    await page.screenshot(path=shot(f"phone-{label}-result"))
    assert len(tally.prompts) >= 22, tally.report()
    assert tally.claims >= 1, tally.report()
    assert tally.violations == [], (tally.report(), tally.violations[:12])
    if size[0] < 700:
        assert await page.evaluate("matchMedia('(pointer: coarse)').matches")
    expected_dir = "rtl" if lang == "ar" else "ltr"
    assert await page.evaluate("document.documentElement.dir") == expected_dir
    assert page.js_errors == [] and page.foreign_requests == []


@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
async def test_long_deals_where_the_wall_runs_out(web_server, browser, game):  # noqa: F811
    """Random bots rarely win and the person passes every claim: the stock or wall runs out and
    the rows grow long; every prompt of the deal still keeps the board and buttons in view."""
    base = web_server
    page = await touch_page(browser, base, PHONES[0])
    tally = Tally(f"{game}-long-360")
    verdicts = await play_deals(page, base, tally, game, minimum=40, seed=7000, pick=last, bots="bot:random")
    print(tally.report(), verdicts)
    assert any("ran out" in v for v in verdicts), verdicts
    assert len(tally.prompts) >= 40, tally.report()
    assert tally.violations == [], (tally.report(), tally.violations[:12])
    assert page.js_errors == []


async def test_a_match_deal_with_its_strip(web_server, browser):  # noqa: F811
    """A match's deal at 360x640: the running-score strip above the table takes room, and every
    prompt still keeps the board and the buttons in view."""
    base = web_server
    page = await touch_page(browser, base, PHONES[0])
    tally = Tally("match-mcr-360")
    deal, tokens = make_deal(base, "mcr", 31, path="/matches", length="round")
    await open_seat(page, base, deal, tokens)
    await page.wait_for_selector("#match-strip, .match-strip")
    await play_by_clicking(page, first, name="phone-match", on_state=tally.check)
    print(tally.report())
    assert len(tally.prompts) >= 8, tally.report()
    assert tally.violations == [], (tally.report(), tally.violations[:12])
    assert page.js_errors == []


async def test_a_paohuzi_claim_with_six_answers(web_server, browser):  # noqa: F811
    """Seat 0 holds s3 s4 s5 s6 b5 b5 and reveals s5: five chi choices with their bi groups
    (PH-6.5) and pass, every one of them on screen at 360x640 and 1280x800 with the offered card,
    at once, with no scrolling."""
    base = web_server
    hand = ["s3", "s4", "s5", "s6", "b5", "b5"] + [
        k for k in ("s1", "s9", "s10", "b1", "b2", "b3", "b8") for _ in (0, 1)
    ]
    deck = deck_for(2, {2: ["b9"] * 4 + ["b10"] * 4, 0: hand}, ["s5"])  # the whole hand: no filler adds a chi
    seats = ["human", "bot:greedy", "bot:greedy"]
    status, created = post_json(
        base, "/deals", {"game": "paohuzi", "seats": seats, "deck": deck, "dealer": 2}
    )
    assert status == 201, created
    for size in (PHONES[0], LAPTOP):
        page = await touch_page(browser, base, size)
        tally = Tally(f"six-{size[0]}")
        if size == PHONES[0]:
            await open_seat(page, base, created["deal_id"], created["tokens"])
        else:
            await page.evaluate(
                "([deal, tokens]) => localStorage.setItem('ds.tokens.' + deal, JSON.stringify(tokens))",
                [created["deal_id"], created["tokens"]],
            )
            await page.goto(f"{base}/#/play/{created['deal_id']}/0")
        try:
            await page.wait_for_selector('#me-zone [data-action][data-kind="Chi"]', timeout=PAGE_WAIT_MS)
        finally:
            await page.screenshot(path=shot(f"phone-six-answers-{size[0]}-wait"), full_page=True)
        await wait_js(page, "document.querySelector('.play-page').dataset.armed === '1'")
        kinds = await page.eval_on_selector_all(
            "#me-zone [data-action]", "els => els.map(e => e.dataset.kind)"
        )
        assert sorted(kinds) == ["Chi"] * 5 + ["Pass"], kinds
        await tally.check(page)
        offered = await page.get_attribute('[data-role~="offered"]', "data-piece")
        assert offered is not None and int(offered) >> 2 == 4, offered  # an s5 (kind 4)
        await page.screenshot(path=shot(f"phone-six-answers-{size[0]}"))
        print(tally.report())
        assert len(tally.prompts) == 1 and tally.violations == [], tally.violations
        assert page.js_errors == []
        if size == LAPTOP:
            await page.locator('#me-zone [data-action][data-kind="Pass"]').click()
            await page.wait_for_selector('#move-log li[data-type="ClaimAnswered"]')
        await page.context.close()


async def test_the_other_pages_never_scroll_sideways_at_360(web_server, browser):  # noqa: F811
    """Rules pages, lobby, join page, result sheet, replay, review, the tournament form and the
    arbiter's token form at 360x640."""
    base = web_server
    page = await touch_page(browser, base, PHONES[0])
    deal, tokens = make_deal(base, "paohuzi", 1, bots="bot:greedy")
    await open_seat(page, base, deal, tokens)
    await play_by_clicking(page, last, name="phone-wide")
    wide = {"result": await page.evaluate(WIDE_JS)}
    await page.click("#res-hands summary")
    wide["result-hands"] = await page.evaluate(WIDE_JS)
    open_table = post_json(
        base, "/deals", {"game": "mcr", "seats": ["human", "open", "bot:greedy", "bot:greedy"]}
    )
    assert open_table[0] == 201, open_table
    invite = open_table[1]["invites"]["1"]
    pages = {
        "lobby": ("#/", "#start"),
        "rules-paohuzi": ("#/rules/paohuzi", "#huxi-table"),
        "rules-mcr": ("#/rules/mcr", "#fan-table"),
        "rules-table": ("#/rules/table", "main h1"),
        "join": (f"#/join/{open_table[1]['deal_id']}/{invite}", "#join-name"),
        "replay": (f"#/replay/{deal}", "#rp-slider"),
        "review": (f"#/replay/{deal}/review/0", "#rp-slider"),
        "tournament-new": ("#/tournament/new", "#tn-create"),
        "arbiter-token": ("#/tournament/0123456789abcdef/arbiter", "#tn-token-in"),
    }
    for name, (path, ready) in pages.items():
        await page.goto(base + "/" + path)
        await page.wait_for_selector(ready)
        wide[name] = await page.evaluate(WIDE_JS)
        await page.screenshot(path=shot(f"phone-page-{name}"), full_page=True)
    sideways = {k: v for k, v in wide.items() if v[0] > v[1]}
    assert sideways == {}, sideways
    assert page.js_errors == []


# the header's boxes, read in one step: each [left, right, top, bottom], and what shows the brand
HEADER_JS = """() => {
  const box = (s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return [r.left, r.right, r.top, r.bottom];
  };
  const b = document.querySelector('#brand');
  return {brand: box('#brand'), menu: box('#menu-toggle'), lang: box('#lang'),
    display: box('#settings-toggle'),
    whole: b.scrollWidth <= b.clientWidth + 0.5, mark: getComputedStyle(b).backgroundImage.includes('icon'),
    width: window.innerWidth, sw: document.documentElement.scrollWidth, text: b.textContent};
}"""

# every link of the open menu: inside the viewport and topmost at its centre
MENU_LINKS_JS = """() => [...document.querySelectorAll('#main-nav a')].map((a) => {
  const r = a.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return [a.id, r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth,
    !!hit && (hit === a || a.contains(hit)), Math.round(r.height)];
})"""


async def test_the_phone_header_s_menu_opens_closes_and_its_links_work(web_server, browser):  # noqa: F811
    """At 390x844 (touch) the header is one line; Menu opens the page links (each on screen, on
    top, a thumb's height), Menu again closes them, and a link followed closes them too."""
    base = web_server
    page = await touch_page(browser, base, PHONES[1])
    nav = page.locator("#main-nav")
    assert not await nav.is_visible()
    assert await page.get_attribute("#menu-toggle", "aria-expanded") == "false"
    await page.tap("#menu-toggle")
    await page.wait_for_selector("#main-nav", state="visible")
    assert await page.get_attribute("#menu-toggle", "aria-expanded") == "true"
    links = await page.evaluate(MENU_LINKS_JS)
    assert len(links) >= 3, links  # the lobby, each game's rules, the table rules
    assert all(inside and top and height >= 40 for _id, inside, top, height in links), links
    await page.tap("#menu-toggle")
    await page.wait_for_selector("#main-nav", state="hidden")
    assert await page.get_attribute("#menu-toggle", "aria-expanded") == "false"
    await page.tap("#menu-toggle")
    await page.tap("#nav-rules-tb")
    await page.wait_for_selector("#main-nav", state="hidden")
    await wait_js(page, "location.hash === '#/rules/table'")
    assert await page.get_attribute("#menu-toggle", "aria-expanded") == "false"
    assert page.js_errors == []


@pytest.mark.parametrize("lang", ["en", "pt", "nl", "ar", "fi"])
async def test_the_phone_header_fits_at_360(web_server, browser, lang):  # noqa: F811
    """At 360 and 390 px the brand shows whole (its words, or the app's mark), side by side with
    Menu, the language and Display, nothing overlapping and nothing past the edge."""
    base = web_server
    for size in (PHONES[0], PHONES[1]):
        page = await touch_page(browser, base, size, lang)
        head = await page.evaluate(HEADER_JS)
        assert head["whole"] or head["mark"], head
        boxes = sorted((head[k] for k in ("brand", "menu", "lang", "display")), key=lambda b: b[0])
        for a, b in zip(boxes, boxes[1:], strict=False):
            assert a[1] <= b[0] + 0.5, head  # side by side, no overlap
        assert boxes[0][0] >= 0 and boxes[-1][1] <= head["width"] and head["sw"] <= head["width"], head
        assert head["text"] and "dealstream" in head["text"]
        await page.screenshot(
            path=shot(f"phone-header-{lang}-{size[0]}"),
            clip={"x": 0, "y": 0, "width": size[0], "height": 60},
        )
        await page.context.close()
