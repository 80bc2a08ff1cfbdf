"""A count in the web client takes the form its language gives that number (Intl.PluralRules):
English "1 mistake" / "2 mistakes", Arabic's six forms (zero, one, two, few, many, other), and the
review's announcement built from them."""

from __future__ import annotations

from tests.e2e.web_conftest import (  # noqa: F401 (fixtures)
    browser,
    new_page,
    web_server,
)

PROBE = """async ([lang, key, counts]) => {
  const m = await import("/web/i18n.js");
  m.setLang(lang);
  return counts.map((n) => m.t(key, { n }));
}"""


async def forms(page, lang: str, key: str, counts: list[int]) -> list[str]:
    return await page.evaluate(PROBE, [lang, key, counts])


async def test_counts_take_the_form_of_their_number(web_server, browser):  # noqa: F811
    page = await new_page(browser, web_server)
    await page.goto(web_server + "/")
    assert await forms(page, "en", "count.mistakes", [0, 1, 2]) == ["0 mistakes", "1 mistake", "2 mistakes"]
    assert await forms(page, "en", "count.decisions", [1, 21]) == ["1 decision", "21 decisions"]
    assert await forms(page, "ar", "count.mistakes", [0, 1, 2, 3, 11, 100]) == [
        "لا أخطاء", "خطأ واحد", "خطآن", "3 أخطاء", "11 خطأً", "100 خطأ",
    ]  # fmt: skip
    assert await forms(page, "fi", "count.mistakes", [1, 5]) == ["1 virhe", "5 virhettä"]
    ready = await page.evaluate(
        """async () => {
          const m = await import("/web/i18n.js");
          m.setLang("en");
          const decisions = m.t("count.decisions", { n: 1 });
          return m.t("rv.ready", { decisions, mistakes: m.t("count.mistakes", { n: 0 }) });
        }"""
    )
    assert ready == "Review ready: 1 decision, 0 mistakes."
    assert page.js_errors == [] and page.foreign_requests == []
