""" "Play again" twice with a friend, never inviting again, in two headless Chromium contexts that
share nothing. Each time one person clicks and the other's open result sheet follows to the new
deal in its own seat through its seat's stream (the ``rematch`` message): the follower's page never
asks for the rematch itself. The second deal is played to its end over HTTP with the tokens each
page holds (random legal moves), so the pages see a real end.

Every wait is for a state, bounded with room for a loaded machine."""

from __future__ import annotations

import asyncio
import json
import random

import aiohttp
import pytest

from tests.e2e.test_web_people import seat_names, wait_dealt
from tests.e2e.test_web_play_again import _ended_with_a_friend, _on_new_deal
from tests.e2e.web_conftest import PAGE_WAIT_MS, browser, get_json, web_server  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(900)]


def _rematch_posts(page) -> list[str]:
    asked: list[str] = []
    page.on(
        "request",
        lambda r: asked.append(r.url) if r.method == "POST" and r.url.endswith("/rematch") else None,
    )
    return asked


async def _tokens(page, deal: str) -> dict[str, str]:
    raw = await page.evaluate("deal => localStorage.getItem('ds.tokens.' + deal)", deal)
    return json.loads(raw) if raw else {}


async def _play_out(base: str, deal: str, tokens: dict[str, str], seed: int = 5) -> None:
    """Random legal moves for the people until the deal ends (the bot plays in the server)."""
    rng = random.Random(seed)
    async with aiohttp.ClientSession(base) as http:
        for n in range(5000):
            views = {}
            for seat, token in tokens.items():
                async with http.get(f"/deals/{deal}/view", headers={"Authorization": f"Bearer {token}"}) as r:
                    assert r.status == 200, await r.text()
                    views[seat] = await r.json()
            if next(iter(views.values()))["result"] is not None:
                return
            acting = [(s, v) for s, v in views.items() if v["legal_actions"]]
            if not acting:
                await asyncio.sleep(0.02)
                continue
            seat, view = rng.choice(acting)
            actions = view["legal_actions"]
            wins = [a for a in actions if a["type"] in ("Win", "DeclareWin") or a.get("claim") == "win"]
            command = wins[0] if wins else rng.choice(actions)
            body = {"command_id": f"t{n}", "command": command}
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            async with http.post(f"/deals/{deal}/commands", json=body, headers=headers) as r:
                if r.status in (403, 409):  # a window closed, the view moved on: look again
                    continue
                assert r.status == 200, await r.text()
    raise AssertionError("the deal did not end")


async def test_two_friends_play_again_twice_without_inviting_again(web_server, browser):  # noqa: F811
    base = web_server
    old, bo, ana = await _ended_with_a_friend(base, browser)
    bo_asked, ana_asked = _rematch_posts(bo), _rematch_posts(ana)

    # once: Bo clicks, Ana's page follows through her seat's stream
    await bo.click("#play-again")
    first = await _on_new_deal(bo, old, 0)
    assert await _on_new_deal(ana, old, 1) == first
    for page in (bo, ana):
        await wait_dealt(page)
    assert len(bo_asked) == 1 and ana_asked == []
    assert (await seat_names(bo))[1] == "Ana" and (await seat_names(ana))[0] == "Bo"
    tokens = {**await _tokens(bo, first), **await _tokens(ana, first)}
    assert set(tokens) == {"0", "1"}
    await _play_out(base, first, {"0": tokens["0"], "1": tokens["1"]})
    for page in (bo, ana):
        await page.wait_for_selector("#play-again", timeout=PAGE_WAIT_MS)

    # twice: this time Ana clicks, and Bo's page follows
    await ana.click("#play-again")
    second = await _on_new_deal(ana, first, 1)
    assert await _on_new_deal(bo, first, 0) == second and second not in (old, first)
    for page in (bo, ana):
        await wait_dealt(page)
        assert await page.evaluate("window.dealstream.state().deal") == second
    assert len(bo_asked) == 1 and len(ana_asked) == 1  # the follower never asked
    summary = get_json(base, f"/deals/{second}")
    assert summary["rematch_of"] == first and summary["names"] == ["Bo", "Ana", None]
    assert summary["open_seats"] == [] and summary["waiting_to_start"] == []
    for page in (bo, ana):
        assert page.js_errors == []
        assert page.foreign_requests == []
