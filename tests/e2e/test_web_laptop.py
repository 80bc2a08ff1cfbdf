"""The table on a laptop, measured: whole deals of both games clicked through in headless Chromium
at 1280x800, 1366x768, 1920x1080 and 1024x768 (and 1280x800 in Arabic, the mirror), and at every prompt the
page is read in one step. On top of the phone test's rules (the offered card, the newest discard
and every prompt button in view and topmost, the hand whole, no sideways scroll), each counts as a
violation:

- a seat's newest card in its row (the last piece of `.seat .row`, every seat, the person's own
  too) is not topmost at its centre (document.elementFromPoint there is the piece or inside it):
  the prompt panel, the switches or anything else lies over it;
- the page scrolls vertically (`scrollHeight > innerHeight`): what is below the fold is not seen.

Decks are fixed (`--dev`); every wait is for a state, bounded."""

from __future__ import annotations

import pytest

from tests.e2e.test_web_phone import PROMPT_JS, Tally, first, make_deal, open_seat, touch_page
from tests.e2e.test_web_table import play_by_clicking
from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    browser,
    shot,
    web_server,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]

# Every seat's newest card in its row, and the page's height against the window's.
ROWS_JS = """() => {
  const W = window.innerWidth, H = window.innerHeight;
  const bad = [];
  for (const seat of document.querySelectorAll('.seat[data-seat]')) {
    const pieces = seat.querySelectorAll('.row .piece');
    if (!pieces.length) continue;
    const el = pieces[pieces.length - 1];
    const r = el.getBoundingClientRect();
    const what = 'row of seat ' + seat.dataset.seat;
    const inside = r.width > 0 && r.height > 0 && r.top >= -0.5 && r.left >= -0.5
      && r.bottom <= H + 0.5 && r.right <= W + 0.5;
    if (!inside) {
      bad.push([what, 'outside', ...[r.top, r.bottom, r.left, r.right].map(Math.round)]);
      continue;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit))) {
      bad.push([what, 'covered by', String(hit && (hit.id || hit.className || hit.tagName)).slice(0, 40)]);
    }
  }
  const sh = document.documentElement.scrollHeight;
  if (sh > H + 1) bad.push(['page', 'scrolls vertically', sh, H]);
  return bad;
}"""

SIZES = [(1280, 800), (1366, 768), (1920, 1080), (1024, 768)]


class LaptopTally(Tally):
    """The phone test's reading plus every seat's newest card and the page's height."""

    async def check(self, page) -> None:
        read = await page.evaluate(PROMPT_JS)
        if read is None or (self.deal, read["version"]) in self.prompts:
            return
        read["bad"] = read["bad"] + await page.evaluate(ROWS_JS)
        self.prompts[(self.deal, read["version"])] = read
        for v in read["bad"]:
            self.violations.append((self.deal, read["version"], *v))
        if read["bad"] and len(self.violations) == len(read["bad"]):
            await page.screenshot(path=shot(f"laptop-{self.label}-first-violation"))


@pytest.mark.parametrize("game", ["paohuzi", "mcr"])
@pytest.mark.parametrize(
    "size,lang",
    [(SIZES[0], "en"), (SIZES[1], "en"), (SIZES[2], "en"), (SIZES[3], "en"), (SIZES[0], "ar")],
    ids=["1280x800", "1366x768", "1920x1080", "1024x768", "1280x800-ar"],
)
async def test_every_seat_s_newest_card_stays_in_view_at_every_prompt(
    web_server,  # noqa: F811
    browser,  # noqa: F811
    game,
    size,
    lang,
):
    base = web_server
    page = await touch_page(browser, base, size, lang)
    label = f"{game}-{size[0]}x{size[1]}-{lang}"
    tally = LaptopTally(label)
    try:
        for attempt in range(5):
            tally.deal = attempt
            deal, tokens = make_deal(base, game, 500 + 10 * attempt + size[0] % 7 + (lang == "ar"))
            await open_seat(page, base, deal, tokens)
            await play_by_clicking(page, first, name=f"laptop-{label}", on_state=tally.check)
            if len(tally.prompts) >= 22:
                break
    finally:
        print(tally.report(), tally.violations[:40])
    await page.screenshot(path=shot(f"laptop-{label}-result"))
    assert len(tally.prompts) >= 22, tally.report()
    assert tally.claims >= 1, tally.report()
    assert tally.violations == [], (tally.report(), tally.violations[:12])
    assert await page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    assert page.js_errors == [] and page.foreign_requests == []
