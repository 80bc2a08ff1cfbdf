"""Ratings from the log: a rated deal names its players in its first record; when it ends its
seats are ranked by their payments and OpenSkill's Plackett-Luce model moves their ratings. The
leaderboard, the public profile and ``/accounts/me`` show them, and a rebuild from the logs
alone (``dealstream ratings rebuild``) gives the same numbers. A real Redis, a real service."""

from __future__ import annotations

import json

import msgspec
import pytest
from openskill.models import PlackettLuce

from domain.envelope import decode_record
from service.app.games import kit
from service.app.ratings import rebuild
from service.store.ratings import RatingStore
from tests.e2e.conftest import expect_problem, wait_for
from tests.e2e.test_http_accounts import call, sign_up
from tests.e2e.test_http_players import play_seats

pytestmark = pytest.mark.redis
SEATS = ["human", "bot:greedy", "bot:strong"]


async def _rated_deal(http, session: str, seed: str) -> dict:
    body = {
        "game": "paohuzi",
        "seats": SEATS,
        "rated": True,
        "deck": list(range(kit("paohuzi").game.deck_size)),
        "dealer": 0,
    }
    resp = await call(http, "POST", "/deals", session, json=body)
    assert resp.status == 201, await resp.text()
    made = await resp.json()
    await play_seats(http, made["deal_id"], [made["tokens"]["0"]], seed)
    return made


async def _payments(store, deal_id: str) -> tuple[list[int], str]:
    records = await store.read_raw(deal_id)
    k = kit("paohuzi")
    events = [k.decode_event(decode_record(r).data) for r in records]
    return k.deal_summary(k.game.fold(events)).payments, decode_record(records[-1]).recorded_at


async def _board(http) -> dict:
    resp = await call(http, "GET", "/ratings/paohuzi")
    assert resp.status == 200, await resp.text()
    return await resp.json()


async def test_a_rated_table_seats_only_the_signed_in_account_and_house_bots(http, store):
    session = await sign_up(http, "Rater")
    bad = [
        (None, {"game": "paohuzi", "seats": SEATS, "rated": True}),  # not signed in
        (session, {"game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "rated": True}),
        (session, {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "rated": True}),
        (session, {"game": "paohuzi", "seats": ["human", "human", "bot:greedy"], "rated": True}),
        (session, {"game": "paohuzi", "seats": ["bot:random", "bot:greedy", "bot:strong"], "rated": True}),
    ]
    for who, body in bad:
        await expect_problem(await call(http, "POST", "/deals", who, json=body), 422, "DS-41")
    match = {"game": "paohuzi", "seats": SEATS, "rated": True, "length": 2}
    await expect_problem(await call(http, "POST", "/matches", session, json=match), 422, "DS-41")
    assert await store.list_deals(0, 10) == []  # nothing was made
    await expect_problem(await call(http, "GET", "/ratings/chess"), 404, "DS-42")
    await expect_problem(await call(http, "GET", "/accounts/Nobody"), 404, "DS-42")
    resp = await call(http, "GET", "/accounts/me", session)
    assert (await resp.json())["ratings"] == {}


@pytest.mark.timeout(240)
async def test_rated_deals_move_the_ratings_and_a_rebuild_from_the_logs_agrees(http, store):
    session = await sign_up(http, "Rater")
    model = PlackettLuce()
    expected = {name: model.rating() for name in ["Rater", *SEATS[1:]]}
    deal_ids = []
    for n in range(2):
        made = await _rated_deal(http, session, f"rated-{n}")
        deal_ids.append(made["deal_id"])
        first = msgspec.json.decode(decode_record((await store.read_raw(made["deal_id"]))[0]).data)
        assert first["rated"] == ["Rater", "bot:greedy", "bot:strong"]

        async def counted(n: int = n) -> dict | None:
            board = await _board(http)
            return board if board["players"] and all(p["games"] == n + 1 for p in board["players"]) else None

        board = await wait_for(counted)
        # the same model applied here, from the payments the log records
        payments, _ = await _payments(store, made["deal_id"])
        ranks = [1 + sum(1 for o in payments if o > p) for p in payments]
        names = ["Rater", *SEATS[1:]]
        teams = model.rate([[expected[name]] for name in names], ranks=[float(r) for r in ranks])
        expected = {name: team[0] for name, team in zip(names, teams, strict=True)}
        rows = {row["name"]: row for row in board["players"]}
        assert set(rows) == set(names)
        for name, rating in expected.items():
            assert rows[name]["mu"] == pytest.approx(rating.mu, abs=1e-9)
            assert rows[name]["sigma"] == pytest.approx(rating.sigma, abs=1e-9)
            assert rows[name]["rating"] == pytest.approx(rating.mu - 3 * rating.sigma, abs=1e-9)
            assert rows[name]["provisional"] is True  # two results leave sigma well above 3
        shown = [row["rating"] for row in board["players"]]
        assert shown == sorted(shown, reverse=True)
        assert board["game"] == "paohuzi"

    resp = await call(http, "GET", "/accounts/Rater")
    assert resp.status == 200, await resp.text()
    profile = await resp.json()
    history = profile["history"]["paohuzi"]
    assert [h["deal_id"] for h in history] == deal_ids
    assert history[-1]["rating"] == pytest.approx(profile["ratings"]["paohuzi"]["rating"], abs=1e-12)
    assert [h["at"] for h in history] == [(await _payments(store, d))[1] for d in deal_ids]
    resp = await call(http, "GET", "/accounts/bot:strong")
    assert resp.status == 200 and (await resp.json())["ratings"]["paohuzi"]["games"] == 2
    me = await (await call(http, "GET", "/accounts/me", session)).json()
    mine = me["ratings"]["paohuzi"]
    assert mine["games"] == 2
    assert mine["mu"] == pytest.approx(expected["Rater"].mu, abs=1e-9)
    assert set(mine) == {"rating", "mu", "sigma", "games"}

    # from the logs alone, and from a fresh process's fold of the index: the same numbers
    rebuilt = (await rebuild(store)).table()["paohuzi"]
    fresh = (await RatingStore(store.redis, store.prefix, ["mcr", "paohuzi"]).ratings("paohuzi")).table()
    for name, rating in expected.items():
        for table in (rebuilt, fresh["paohuzi"]):
            assert table[name]["games"] == 2
            assert abs(table[name]["mu"] - rating.mu) <= 1e-9
            assert abs(table[name]["sigma"] - rating.sigma) <= 1e-9
    assert json.dumps(rebuilt, sort_keys=True) == json.dumps(fresh["paohuzi"], sort_keys=True)
