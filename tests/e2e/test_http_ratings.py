"""Ratings from the log: a rated deal names its players in its first record; when it ends its
seats are ranked by their payments and OpenSkill's Plackett-Luce model moves their ratings. The
leaderboard, the public profile and ``/accounts/me`` show them, and a rebuild from the logs
alone (``dealstream ratings rebuild``) gives the same numbers. A real Redis, a real service."""

from __future__ import annotations

import json
import uuid
from dataclasses import replace

import msgspec
import pytest
from openskill.models import PlackettLuce

from domain.envelope import decode_record
from service import bootstrap
from service.app.games import kit
from service.app.ratings import rebuild
from service.store.ratings import RatingStore
from tests.conftest import drop_prefix
from tests.e2e.conftest import close_within, expect_problem, wait_for
from tests.e2e.test_http_accounts import call, sign_up
from tests.e2e.test_http_players import play_seats
from tests.integration.test_cli_move import cli

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
        (session, {"game": "paohuzi", "seats": ["human", "bot:greedy", "bot:greedy"], "rated": True}),
        (session, {"game": "paohuzi", "seats": ["human", "human", "bot:greedy"], "rated": True}),
        (session, {"game": "paohuzi", "seats": ["open", "open", "bot:greedy"], "rated": True}),
        (session, {"game": "paohuzi", "seats": ["bot:random", "bot:greedy", "bot:strong"], "rated": True}),
    ]
    for who, body in bad:
        await expect_problem(await call(http, "POST", "/deals", who, json=body), 422, "DS-41")
    match = {"game": "paohuzi", "seats": ["human", "human", "bot:greedy"], "rated": True, "length": 2}
    await expect_problem(await call(http, "POST", "/matches", session, json=match), 422, "DS-41")
    match = {"game": "paohuzi", "seats": SEATS, "rated": True, "length": 2}
    await expect_problem(await call(http, "POST", "/matches", None, json=match), 422, "DS-41")
    assert await store.indexes.list_deals(0, 10) == []  # nothing was made
    await expect_problem(await call(http, "GET", "/ratings/chess"), 404, "DS-42")
    await expect_problem(await call(http, "GET", "/accounts/Nobody"), 404, "DS-42")
    resp = await call(http, "GET", "/accounts/me", session)
    assert (await resp.json())["ratings"] == {}


@pytest.mark.timeout(900)
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


@pytest.mark.timeout(900)
async def test_a_rated_deal_of_several_accounts_rates_each_from_the_log(http, store):
    """Bo's rated deal leaves a seat open for an account and one for a house bot: a guest, an
    account that sits there already and a bot program or unknown level are refused; Ana joins
    under her account's name; the result rates both accounts and the bot, live and rebuilt."""
    bo = await sign_up(http, "Bo")
    ana = await sign_up(http, "Ana")
    body = {
        "game": "paohuzi", "seats": ["human", "open", "open"], "rated": True, "name": "Bo",
        "deck": list(range(kit("paohuzi").game.deck_size)), "dealer": 0,
    }  # fmt: skip
    resp = await call(http, "POST", "/deals", bo, json=body)
    assert resp.status == 201, await resp.text()
    made = await resp.json()
    deal_id, bo_token = made["deal_id"], made["tokens"]["0"]
    first = msgspec.json.decode(decode_record((await store.read_raw(deal_id))[0]).data)
    assert first["rated"] == ["Bo", "", ""]
    join = {"invite": made["invites"]["1"], "name": "Annie"}
    await expect_problem(await call(http, "POST", f"/deals/{deal_id}/join", None, json=join), 401, "DS-34")
    again = {"invite": made["invites"]["2"], "name": "Bo"}
    await expect_problem(await call(http, "POST", f"/deals/{deal_id}/join", bo, json=again), 422, "DS-41")
    resp = await call(http, "POST", f"/deals/{deal_id}/join", ana, json=join)
    assert resp.status == 201, await resp.text()
    ana_token = (await resp.json())["token"]
    await expect_problem(await call(http, "POST", f"/deals/{deal_id}/join", ana, json=again), 422, "DS-41")
    fill = f"/deals/{deal_id}/seats/2/bot"
    for level in ("bot:program:x", "random-ish"):
        resp = await call(
            http, "POST", fill, json={"level": level}, headers={"Authorization": f"Bearer {bo_token}"}
        )
        assert resp.status in (400, 422), await resp.text()
    resp = await call(
        http, "POST", fill, json={"level": "strong"}, headers={"Authorization": f"Bearer {bo_token}"}
    )
    assert resp.status == 200, await resp.text()
    summary = await (await call(http, "GET", f"/deals/{deal_id}")).json()
    assert summary["names"][:2] == ["Bo", "Ana"]  # the seat is named by the account
    await play_seats(http, deal_id, [bo_token, ana_token], "several")

    async def rated() -> dict | None:
        board = await _board(http)
        return board if len(board["players"]) == 3 else None

    board = await wait_for(rated)
    assert {row["name"] for row in board["players"]} == {"Bo", "Ana", "bot:strong"}
    assert all(row["games"] == 1 for row in board["players"])
    _close(board, (await rebuild(store)).table()["paohuzi"])  # the log alone says the same
    me = await (await call(http, "GET", "/accounts/me", ana)).json()
    assert me["ratings"]["paohuzi"]["games"] == 1


def _close(board: dict, table: dict) -> None:
    """A leaderboard and a rebuild's table hold the same players and numbers (to 1e-9)."""
    rows = {row["name"]: row for row in board["players"]}
    assert set(rows) == set(table) and rows
    for name, held in table.items():
        assert rows[name]["games"] == held["games"]
        assert abs(rows[name]["mu"] - held["mu"]) <= 1e-9
        assert abs(rows[name]["sigma"] - held["sigma"]) <= 1e-9


@pytest.mark.timeout(900)
async def test_the_cli_rebuild_equals_the_service_after_a_restart_and_a_move(
    http, store, aiohttp_client, real_redis_url, redis_client, tmp_path
):
    session = await sign_up(http, "Mover")
    for n in range(2):
        await _rated_deal(http, session, f"move-{n}")
    board = await wait_for(lambda: _board_with(http, 2))
    where = ("--redis", real_redis_url, "--prefix", store.prefix)
    rebuilt = json.loads(cli("ratings", "rebuild", "--json", *where).stdout)
    assert set(rebuilt) == {"paohuzi"}
    _close(board, rebuilt["paohuzi"])

    # a new service on the same Redis folds the index anew: the same numbers
    settings = replace(bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True)
    again = await aiohttp_client(bootstrap.application(redis_client, settings))
    try:
        _close(await _board(again), rebuilt["paohuzi"])
    finally:
        await close_within(again, 60)

    # every deal moved to another store; the rebuild there, written into its index, agrees
    out = tmp_path / "all.jsonl"
    cli("export", "--all", "--out", str(out), *where)
    target = f"dstest-{uuid.uuid4().hex[:12]}"
    try:
        cli("import", "--all", str(out), "--redis", real_redis_url, "--prefix", target)
        there = ("--redis", real_redis_url, "--prefix", target)
        moved_table = json.loads(cli("ratings", "rebuild", "--json", "--write", *there).stdout)
        assert moved_table == rebuilt  # the same logs, the same order: the same floats
        settings = replace(bootstrap.TEST_SETTINGS, prefix=target, dev=True)
        moved = await aiohttp_client(bootstrap.application(redis_client, settings))
        try:
            _close(await _board(moved), rebuilt["paohuzi"])
        finally:
            await close_within(moved, 60)
    finally:
        await drop_prefix(redis_client, target)


async def _board_with(http, games: int) -> dict | None:
    board = await _board(http)
    players = board["players"]
    return board if players and all(p["games"] == games for p in players) else None


@pytest.mark.timeout(900)
async def test_the_rebuild_reads_the_archive_too(aiohttp_client, store, tmp_path, real_redis_url):
    archive_url = f"sqlite://{tmp_path / 'archive.sqlite3'}"
    settings = replace(
        bootstrap.TEST_SETTINGS, prefix=store.prefix, dev=True, archive=True, archive_url=archive_url,
        archive_after_s=3600.0, archive_interval_s=0.1,
    )  # fmt: skip
    app = bootstrap.application(store.redis, settings)
    http = await aiohttp_client(app)
    try:
        session = await sign_up(http, "Archived")
        gone = (await _rated_deal(http, session, "archived-0"))["deal_id"]
        await wait_for(lambda: _board_with(http, 1))

        async def finished() -> bool:
            return await store.redis.zscore(store.keys.finished_index, gone) is not None

        await wait_for(finished, timeout=60)
        await store.redis.zadd(store.keys.finished_index, {gone: 1})  # its end dated back: archive it

        async def archived() -> bool:
            in_redis = await store.redis.exists(store.keys.events(gone))
            return not in_redis and await app[bootstrap.ARCHIVE].get(gone) is not None

        await wait_for(archived, timeout=60)
        await _rated_deal(http, session, "archived-1")  # this one stays in Redis
        board = await wait_for(lambda: _board_with(http, 2))
        where = ("--redis", real_redis_url, "--prefix", store.prefix, "--archive", archive_url)
        rebuilt = json.loads(cli("ratings", "rebuild", "--json", *where).stdout)
        _close(board, rebuilt["paohuzi"])
        without = (
            "--redis",
            real_redis_url,
            "--prefix",
            store.prefix,
            "--archive",
            f"sqlite://{tmp_path / 'none'}",
        )
        partial = json.loads(cli("ratings", "rebuild", "--json", *without).stdout)
        assert all(held["games"] == 1 for held in partial["paohuzi"].values())  # Redis alone: one deal
    finally:
        await close_within(http, 90)


async def test_an_abandoned_rated_deal_is_not_rated(http, store):
    session = await sign_up(http, "Idle")
    body = {
        "game": "mcr",
        "seats": ["human", "bot:random", "bot:greedy", "bot:strong"],
        "rated": True,
        "idle_s": 1,
    }
    resp = await call(http, "POST", "/deals", session, json=body)
    assert resp.status == 201, await resp.text()
    deal_id = (await resp.json())["deal_id"]

    async def over() -> bool:
        return await store.redis.zscore(store.keys.finished_index, deal_id) is not None

    await wait_for(over, timeout=60, interval=0.1)
    first = msgspec.json.decode(decode_record((await store.read_raw(deal_id))[0]).data)
    assert first["rated"] == ["Idle", "bot:random", "bot:greedy", "bot:strong"]
    assert any(b'"DealAbandoned"' in raw for raw in await store.read_raw(deal_id))
    resp = await call(http, "GET", "/ratings/mcr")
    assert (await resp.json()) == {"game": "mcr", "players": []}
    assert (await rebuild(store)).table() == {}
    await expect_problem(await call(http, "GET", "/accounts/Idle"), 404, "DS-42")


async def test_the_index_counts_each_result_once_and_folds_anew_for_a_late_one(store):
    from projections.ratings import RatedResult, fold

    def result(i: int, at: str) -> RatedResult:
        ranks = [[1, 2, 3], [3, 1, 2], [2, 2, 1]][i % 3]
        return RatedResult("paohuzi", "deal", f"r{i}", at, ["Ann", "bot:greedy", "bot:strong"], ranks)

    one = RatingStore(store.redis, store.prefix, ["paohuzi"])
    other = RatingStore(store.redis, store.prefix, ["paohuzi"])  # a second process
    results = [result(i, f"2026-01-01T00:00:{10 + i:02d}.000000Z") for i in range(6)]
    for r in results[:4]:
        await one.record(r)
        await other.record(r)  # both processes saw it end: counted once
    assert (await one.ratings("paohuzi")).table() == fold(results[:4]).table()
    await other.record(results[5])
    assert (await one.ratings("paohuzi")).table() == fold([*results[:4], results[5]]).table()
    await other.record(results[4])  # recorded late: it sorts before the last one applied
    assert (await one.ratings("paohuzi")).table() == fold(results).table()
    assert (await one.ratings("paohuzi")).games["paohuzi"]["Ann"].games == 6


@pytest.mark.timeout(900)
async def test_a_rated_match_is_rated_once_by_its_standings(http, store, real_redis_url):
    from tests.e2e.test_http_matches import _match, _over, _play_person, _until

    session = await sign_up(http, "Matcher")
    body = {"game": "paohuzi", "seats": SEATS, "rated": True, "length": 2}
    resp = await call(http, "POST", "/matches", session, json=body)
    assert resp.status == 201, await resp.text()
    created = await resp.json()
    match_id, token = created["match_id"], created["tokens"]["0"]
    await _play_person(http, created["deal_id"], token)

    async def second():
        m = await _match(http, match_id)
        return m["deals"][1]["deal_id"] if len(m["deals"]) == 2 else None

    await _play_person(http, await _until(second, "the second deal"), token)
    m = await _until(lambda: _over(http, match_id), "the match to end")
    board = await wait_for(lambda: _board_with(http, 1))  # one result: the match, not its deals
    model = PlackettLuce()
    ranks = [1 + sum(1 for o in m["scores"] if o > mine) for mine in m["scores"]]
    teams = model.rate([[model.rating()] for _ in SEATS], ranks=[float(r) for r in ranks])
    rows = {row["name"]: row for row in board["players"]}
    for name, team in zip(["Matcher", *SEATS[1:]], teams, strict=True):
        assert abs(rows[name]["mu"] - team[0].mu) <= 1e-9 and abs(rows[name]["sigma"] - team[0].sigma) <= 1e-9
    profile = await (await call(http, "GET", "/accounts/Matcher")).json()
    assert [h.get("match_id") for h in profile["history"]["paohuzi"]] == [match_id]
    rebuilt = json.loads(
        cli("ratings", "rebuild", "--json", "--redis", real_redis_url, "--prefix", store.prefix).stdout
    )
    _close(board, rebuilt["paohuzi"])


@pytest.mark.timeout(900)
async def test_a_killed_service_restarted_answers_what_the_rebuild_prints(
    real_redis_url, redis_client, key_prefix
):
    import aiohttp

    from tests.e2e.conftest import ServiceProcess

    body = {
        "game": "paohuzi", "seats": SEATS, "rated": True, "dealer": 0,
        "deck": list(range(kit("paohuzi").game.deck_size)),
    }  # fmt: skip
    first = ServiceProcess(real_redis_url, key_prefix)
    try:
        async with aiohttp.ClientSession(first.base, cookie_jar=aiohttp.DummyCookieJar()) as web:
            await first.started(web)
            async with web.post(
                "/accounts", json={"name": "Restarted", "password": "restart password"}
            ) as resp:
                assert resp.status == 201
                cookie = {"Cookie": f"ds_session={resp.cookies['ds_session'].value}"}
            async with web.post("/deals", json=body, headers=cookie) as resp:
                assert resp.status == 201, await resp.text()
                made = await resp.json()
            await play_seats(web, made["deal_id"], [made["tokens"]["0"]], "restart")

            async def counted() -> dict | None:
                async with web.get("/ratings/paohuzi") as resp:
                    board = await resp.json()
                return board if len(board["players"]) == 3 else None

            before = await wait_for(counted)
        first.kill()  # SIGKILL: nothing is saved on the way out
        second = ServiceProcess(real_redis_url, key_prefix)
        try:
            async with aiohttp.ClientSession(second.base, cookie_jar=aiohttp.DummyCookieJar()) as web:
                await second.started(web)
                async with web.get("/ratings/paohuzi") as resp:
                    after = await resp.json()
                async with web.get("/accounts/me", headers=cookie) as resp:
                    mine = (await resp.json())["ratings"]["paohuzi"]
        finally:
            second.stop()
        assert after == before
        where = ("--redis", real_redis_url, "--prefix", key_prefix)
        rebuilt = json.loads(cli("ratings", "rebuild", "--json", *where).stdout)
        _close(after, rebuilt["paohuzi"])
        assert abs(mine["mu"] - rebuilt["paohuzi"]["Restarted"]["mu"]) <= 1e-9
    finally:
        first.stop()
        await drop_prefix(redis_client, key_prefix)


@pytest.mark.timeout(900)
async def test_a_rated_match_of_two_accounts_is_rated_by_the_seats_they_took(http, store):
    """A rated match leaves a seat open for another account: a guest may not take it; Ana's
    account does; the match's result rates Bo, Ana and the bot by the standings, and the rebuild
    from the logs alone agrees; the match audit holds."""
    bo = await sign_up(http, "Bo")
    ana = await sign_up(http, "Ana")
    body = {
        "game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "rated": True, "name": "Bo",
        "length": 2, "deck": list(range(kit("paohuzi").game.deck_size)), "dealer": 0,
    }  # fmt: skip
    resp = await call(http, "POST", "/matches", bo, json=body)
    assert resp.status == 201, await resp.text()
    made = await resp.json()
    match_id, first, bo_token = made["match_id"], made["deal_id"], made["tokens"]["0"]
    join = {"invite": made["invites"]["1"], "name": "Annie"}
    await expect_problem(await call(http, "POST", f"/deals/{first}/join", None, json=join), 401, "DS-34")
    resp = await call(http, "POST", f"/deals/{first}/join", ana, json=join)
    assert resp.status == 201, await resp.text()
    ana_token = (await resp.json())["token"]
    await play_seats(http, first, [bo_token, ana_token], "m1")

    async def second() -> str | None:
        m = await (await call(http, "GET", f"/matches/{match_id}")).json()
        return m["deals"][1]["deal_id"] if len(m["deals"]) == 2 else None

    second_id = await wait_for(second, timeout=120)
    await play_seats(http, second_id, [bo_token, ana_token], "m2")

    async def rated() -> dict | None:
        board = await _board(http)
        return board if len(board["players"]) == 3 else None

    board = await wait_for(rated, timeout=120)
    assert {row["name"] for row in board["players"]} == {"Bo", "Ana", "bot:greedy"}
    _close(board, (await rebuild(store)).table()["paohuzi"])
    audit = await (await call(http, "GET", f"/matches/{match_id}/audit")).json()
    assert audit["ok"], audit
