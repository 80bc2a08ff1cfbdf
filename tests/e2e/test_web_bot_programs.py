"""An outside bot program at a table in the browser (issue 25): the operator registers it with
``--bot-program``, the lobby offers it as a seat level, and a person plays a whole deal against
two copies of it; the program never falls back to a default move and the audit is green."""

from __future__ import annotations

import sys
import urllib.request
from pathlib import Path

import pytest

from tests.e2e.test_web_table import play_by_clicking, start_from_lobby
from tests.e2e.web_conftest import _serve, browser, get_json, new_page  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bots" / "first_legal.py"


@pytest.fixture(scope="module")
def program_server():
    yield from _serve(
        "web-server-programs",
        "--bot-delay",
        "0",
        "--bot-program",
        f"ex={sys.executable} {EXAMPLE}",
        "--bot-program-timeout",
        "60",  # a loaded machine starts the program slowly
    )


async def test_a_person_plays_a_whole_deal_against_a_bot_program(program_server, browser):  # noqa: F811
    base = program_server
    assert "ex" in next(g for g in get_json(base, "/games")["games"] if g["game"] == "paohuzi")["bots"]
    page = await new_page(browser, base)
    await start_from_lobby(page, base, "paohuzi", ["human", "bot:ex", "bot:ex"], pace="fast")
    await page.wait_for_selector(".play-page[data-game=paohuzi]")
    deal = page.url.split("/play/")[1].split("/")[0]
    summary = get_json(base, f"/deals/{deal}")
    assert summary["seats"][1:] == ["bot:ex", "bot:ex"]
    await play_by_clicking(page, lambda options: "Pass" if "Pass" in options else options[0])
    await page.wait_for_selector("#result")
    audit = get_json(base, f"/deals/{deal}/audit")
    assert audit["ok"], audit
    with urllib.request.urlopen(f"{base}/deals/{deal}/log", timeout=30) as answer:
        log = answer.read().decode()
    assert '"command_id":"bot:1:' in log or '"command_id":"bot:2:' in log  # the program moved
    assert '"command_id":"prog:' not in log  # and never cost its seat a default move
    assert page.js_errors == []
