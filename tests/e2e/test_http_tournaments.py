"""Tournaments through HTTP (TN-1..TN-5): events of house bots run to their end, refusals store
nothing, the arbiter's token guards rulings, and two processes make exactly one of everything."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import subprocess
import sys
import time

from domain.tournament import log as tlog
from domain.tournament.events import TableStarted
from tests.e2e.conftest import ROOT, auth, expect_problem

WAIT_S = 300.0  # generous: the machine is shared


async def _until_over(http, tournament_id: str, timeout: float = WAIT_S) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        resp = await http.get(f"/tournaments/{tournament_id}")
        assert resp.status == 200, await resp.text()
        view = await resp.json()
        if view["over"]:
            return view
        await asyncio.sleep(0.1)
    raise AssertionError(f"tournament {tournament_id} did not end: {view}")


async def _create(http, **body) -> dict:
    resp = await http.post("/tournaments", json=body)
    assert resp.status == 201, await resp.text()
    return await resp.json()


async def _match_count(redis, prefix: str) -> int:
    return len([k async for k in redis.scan_iter(match=f"{prefix}:match:{{*}}:events")])


async def test_a_two_round_swiss_of_house_bots_runs_to_the_end(http, store):
    made = await _create(
        http, game="mcr", format="swiss", rounds=2, deals_per_round=1, pace="fast",
        players=["bot:greedy"] * 4 + ["bot:random"] * 4,
    )  # fmt: skip
    assert set(made) == {"tournament_id", "arbiter_token"}
    view = await _until_over(http, made["tournament_id"])
    assert [r["round"] for r in view["rounds"]] == [1, 2]
    for rnd in view["rounds"]:
        assert hashlib.sha256(bytes.fromhex(rnd["seed"])).hexdigest() == rnd["seed_commitment"]
        assert len(rnd["tables"]) == 2 and all(t["over"] and len(t["deals"]) == 1 for t in rnd["tables"])
        for table in rnd["tables"]:  # each table's result: its scores and each deal's payments
            assert len(table["scores"]) == 4 and len(table["payments"]) == 1
            assert [sum(p) for p in zip(*table["payments"], strict=True)] == table["scores"]
        seated = sorted(p for t in rnd["tables"] for p in t["players"])
        assert seated == sorted(e["player"] for e in view["entrants"])
    rows = view["standings"]
    assert [r["rank"] for r in rows] == list(range(1, 9))
    keys = [(-r["table_points"], -r["score"], r["player"]) for r in rows]
    assert keys == sorted(keys)
    assert sum(r["table_points"] for r in rows) == 2 * 2 * (4 + 2 + 1 + 0)
    assert await _match_count(store.redis, store.prefix) == 4
    # the arbiter's token is nowhere in what anyone reads
    assert made["arbiter_token"] not in await (await http.get(f"/tournaments/{made['tournament_id']}")).text()


async def test_a_count_that_does_not_fill_tables_is_refused_unless_filled(http, store):
    resp = await http.post(
        "/tournaments", json={"game": "paohuzi", "rounds": 1, "players": ["bot:greedy"] * 4}
    )
    await expect_problem(resp, 422, "TN-1.2")
    assert not [k async for k in store.redis.scan_iter(match=f"{store.prefix}:tournament:*")]
    made = await _create(
        http, game="paohuzi", rounds=1, players=["bot:greedy"] * 4, fill_with_bots=True, pace="fast"
    )
    view = await _until_over(http, made["tournament_id"])
    fillers = [e for e in view["entrants"] if e["filler"]]
    assert len(fillers) == 2 and len(view["standings"]) == 4
    assert sum(r["table_points"] for r in view["standings"]) <= 2 * (3 + 1 + 0)


async def test_rulings_need_the_arbiter_token_and_show_in_the_standings(http):
    made = await _create(http, game="mcr", rounds=1, players=["bot:greedy"] * 4, pace="fast")
    tid = made["tournament_id"]
    view = await _until_over(http, tid)
    player = view["standings"][0]["player"]
    ruling = {"player": player, "points": -30, "reason": "claimed late", "rule": "TB-4.1", "deal_id": "x"}
    await expect_problem(await http.post(f"/tournaments/{tid}/rulings", json=ruling), 401, "DS-56")
    await expect_problem(
        await http.post(f"/tournaments/{tid}/rulings", json=ruling, headers=auth("wrong")), 401, "DS-56"
    )
    resp = await http.post(f"/tournaments/{tid}/rulings", json=ruling, headers=auth(made["arbiter_token"]))
    assert resp.status == 201, await resp.text()
    after = await (await http.get(f"/tournaments/{tid}")).json()
    row = next(r for r in after["standings"] if r["player"] == player)
    assert row["score"] == view["standings"][0]["score"] - 30 and row["rulings"] == -30
    assert after["rulings"] == [ruling]
    arbiter = await http.get(f"/tournaments/{tid}/arbiter", headers=auth(made["arbiter_token"]))
    assert arbiter.status == 200
    deals = (await arbiter.json())["deals"]
    assert len(deals) == 1 and deals[0]["audit_ok"] and isinstance(deals[0]["claim_windows"], list)
    await expect_problem(await http.get(f"/tournaments/{tid}/arbiter"), 401, "DS-56")
    await expect_problem(await http.get("/tournaments/nope"), 404, "DS-55")


async def test_open_entries_take_accounts_until_the_arbiter_starts(http):
    made = await _create(http, game="mcr", rounds=1, fill_with_bots=True, pace="fast")
    tid = made["tournament_id"]
    for name in ("Ada", "Brook"):
        resp = await http.post("/accounts", json={"name": name, "password": "correct horse"})
        assert resp.status == 201, await resp.text()
        for _ in range(2):  # twice: the same entry
            entered = await http.post(f"/tournaments/{tid}/entries", json={})
            assert entered.status == 201, await entered.text()
    view = await (await http.get(f"/tournaments/{tid}")).json()
    assert [e["player"] for e in view["entrants"]] == ["Ada", "Brook"] and view["open_entries"]
    await expect_problem(await http.post(f"/tournaments/{tid}/start"), 401, "DS-56")
    resp = await http.post(f"/tournaments/{tid}/start", headers=auth(made["arbiter_token"]))
    assert resp.status == 200, await resp.text()
    started = await resp.json()
    assert started["started"] and len([e for e in started["entrants"] if e["filler"]]) == 2
    table = await (await http.get(f"/tournaments/{tid}/my-table")).json()  # Brook is signed in
    assert table["round"] == 1 and table["deal_id"] is not None
    seat = await http.post(f"/deals/{table['deal_id']}/my-seat")
    assert seat.status == 200, await seat.text()
    assert (await seat.json())["seat"] == table["seat"]
    resp = await http.post("/accounts", json={"name": "Cleo", "password": "correct horse"})
    assert resp.status == 201
    await expect_problem(await http.post(f"/tournaments/{tid}/entries", json={}), 409, "DS-57")


async def test_two_processes_leave_exactly_one_of_everything(http, store, second_server):
    made = await _create(http, game="mcr", rounds=2, players=["bot:random"] * 8, pace="fast")
    tid = made["tournament_id"]
    view = await _until_over(http, tid)
    other = await (await second_server.get(f"/tournaments/{tid}")).json()
    assert other["standings"] == view["standings"]
    raws = await store.redis.xrange(f"{store.prefix}:tournament:{{{tid}}}:events")
    assert raws
    from service.store.tournaments import TournamentStore

    events = tlog.events_of(await TournamentStore(store).raw(tid))
    started = [(e.round, e.table) for e in events if type(e) is TableStarted]
    assert sorted(started) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert [type(e).__name__ for e in events].count("RoundSeedRevealed") == 2
    assert await _match_count(store.redis, store.prefix) == 4


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args], cwd=str(ROOT), capture_output=True, text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


def _retype(lines: list[bytes], index: int, change) -> list[bytes]:
    """The bundle with the tournament record at line ``index`` changed as an event and every
    later tournament record chained again (only the content check can then catch it)."""
    from domain.tournament import log as tlog

    start = lines.index(b'{"section":"tournament"}') + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(b'{"section"'))
    events = tlog.events_of(lines[start:end])
    events[index - start] = change(events[index - start])
    return lines[:start] + tlog.chain(events, 0, recorded_at="2026-01-01T00:00:00Z") + lines[end:]


async def test_the_exported_record_verifies_offline_and_each_tampered_copy_fails(
    http, store, real_redis_url, tmp_path
):
    made = await _create(http, game="mcr", format="swiss", rounds=2, players=["bot:greedy"] * 8, pace="fast")
    tid = made["tournament_id"]
    await _until_over(http, tid)
    ruling = {"player": "bot:greedy#1", "points": 5, "reason": "r", "rule": "TN-4.1", "deal_id": ""}
    await http.post(f"/tournaments/{tid}/rulings", json=ruling, headers=auth(made["arbiter_token"]))
    out = tmp_path / "t.jsonl"
    done = _cli(
        "tournament", "export", tid, "--out", str(out), "--redis", real_redis_url, "--prefix", store.prefix
    )
    assert done.returncode == 0, done.stderr
    text = out.read_bytes()
    assert made["arbiter_token"].encode() not in text and b"digest" not in text
    audited = _cli("audit", str(out))
    assert audited.returncode == 0 and "AUDIT OK" in audited.stdout, audited.stdout + audited.stderr
    lines = text.splitlines()
    from domain.tournament.events import RoundPaired, RoundSeedRevealed

    def first(kind) -> int:
        return next(i for i, line in enumerate(lines) if f'"type":"{kind}"'.encode() in line)

    def tables_swapped(e: RoundPaired) -> RoundPaired:
        a, b = e.tables[0], e.tables[1]
        return RoundPaired(e.round, [type(a)(a.table, b.players), type(b)(b.table, a.players)])

    deal_line = lines.index(next(x for x in lines if x.startswith(b'{"section":"deal"'))) + 3
    copies = {
        "chain": lines[:5] + [lines[5].replace(b'"recorded_at":"', b'"recorded_at":"1')] + lines[6:],
        "commitment": _retype(lines, first("RoundSeedRevealed"), lambda e: RoundSeedRevealed(e.round, "00")),
        "pairing": _retype(lines, first("RoundPaired"), tables_swapped),
        "deal": lines[:deal_line]
        + [lines[deal_line].replace(b'"prev":"', b'"prev":"0')]
        + lines[deal_line + 1 :],
        "standings": lines[:-1] + [lines[-1].replace(b'"rank":1', b'"rank":9')],
    }
    for check, copy in copies.items():
        bad = tmp_path / f"{check}.jsonl"
        bad.write_bytes(b"\n".join(copy) + b"\n")
        audited = _cli("audit", str(bad))
        assert audited.returncode == 1, (check, audited.stdout)
        assert f"[{check}]" in audited.stdout and "AUDIT FAILED" in audited.stdout, (check, audited.stdout)


async def test_a_duplicate_event_deals_every_table_the_same_boards_and_a_house_table_too(
    http, store, real_redis_url, tmp_path
):
    made = await _create(
        http, game="paohuzi", format="duplicate", rounds=2, deals_per_round=2, players=["bot:greedy"] * 6,
        pace="fast",
    )  # fmt: skip
    tid = made["tournament_id"]
    view = await _until_over(http, tid)
    assert [b["round"] for b in view["benchmark"]] == [1, 2]
    assert all(p.startswith("house:strong") for b in view["benchmark"] for p in b["players"])
    # once a round is over, each table's (and the house's) payments per board are published
    tables = [t for r in view["rounds"] for t in r["tables"]] + view["benchmark"]
    boards = [t["payments"] for t in tables]
    assert all(len(p) == 2 and all(len(d) == 3 for d in p) for p in boards)
    for rnd in view["rounds"]:
        deals = [t["deals"] for t in rnd["tables"]] + [
            b["deals"] for b in view["benchmark"] if b["round"] == rnd["round"]
        ]
        for j in range(len(deals[0])):
            walls = set()
            for table in deals:
                if j < len(table):
                    log = await (await http.get(f"/deals/{table[j]}/log")).read()
                    created = json.loads(log.splitlines()[0])["data"]
                    walls.add((created["fixed_dealer"], tuple(created["fixed_deck"])))
            assert len(walls) == 1, (rnd["round"], j)
    rows = view["standings"]
    keys = [(-r["duplicate_score"], -r["table_points"], r["player"]) for r in rows]
    assert keys == sorted(keys) and all(r["vs_house"] is not None for r in rows)
    assert abs(sum(r["duplicate_score"] for r in rows)) < 1e-6
    out = tmp_path / "d.jsonl"
    done = _cli(
        "tournament", "export", tid, "--out", str(out), "--redis", real_redis_url, "--prefix", store.prefix
    )
    assert done.returncode == 0, done.stderr
    audited = _cli("audit", str(out))
    assert "AUDIT OK" in audited.stdout, audited.stdout


async def test_a_live_deal_of_a_person_shows_nothing_hidden_to_the_arbiter_or_anyone(http, store):
    made = await _create(http, game="mcr", rounds=1, fill_with_bots=True, pace="fast")
    tid, arbiter = made["tournament_id"], auth(made["arbiter_token"])
    resp = await http.post("/accounts", json={"name": "Dora", "password": "correct horse"})
    assert resp.status == 201
    assert (await http.post(f"/tournaments/{tid}/entries", json={"client_seed": "dora's seed"})).status == 201
    assert (await http.post(f"/tournaments/{tid}/start", headers=arbiter)).status == 200
    table = await (await http.get(f"/tournaments/{tid}/my-table")).json()
    seat = await (await http.post(f"/deals/{table['deal_id']}/my-seat")).json()
    start = {"command_id": "go", "command": {"type": "StartDeal", "client_seed": "dora"}}
    resp = await http.post(f"/deals/{table['deal_id']}/commands", json=start, headers=auth(seat["token"]))
    assert resp.status == 200, await resp.text()
    secret = await store.redis.hget(f"{store.prefix}:tournament:{{{tid}}}:meta", "seed:1")
    assert secret
    reads = [
        await (await http.get(f"/tournaments/{tid}")).text(),
        await (await http.get(f"/tournaments/{tid}/arbiter", headers=arbiter)).text(),
        await (await http.get(f"/tournaments/{tid}/my-table")).text(),
    ]
    for text in reads:
        assert secret.decode() not in text and seat["token"] not in text and made["arbiter_token"] not in text
        assert "digest" not in text and "dora's seed" not in text and "hand" not in text
    assert json.loads(reads[1])["deals"] == []  # the deal is live: the arbiter sees none of it
    assert json.loads(reads[0])["rounds"][0]["seed"] is None


PERSON_CLOCK = {"move_s": 2, "claim_s": 2, "bank_s": 0}  # an absent person is played for quickly
# the person's table waits a minute for them to start (TN-1.4): the other tables end meanwhile
PRESENT_CLOCK = {"move_s": 60, "claim_s": 60, "bank_s": 0}


async def _play(http, deal_id: str, headers: dict) -> None:
    """The seat plays its deal to the end: the first legal action each time (a pass in a window)."""
    for n in range(2000):
        view = await (await http.get(f"/deals/{deal_id}/view", headers=headers)).json()
        if view["result"] is not None or view["phase"] == "over":
            return
        actions = view["legal_actions"]
        if not actions:
            await asyncio.sleep(0.05)
            continue
        command = next((a for a in actions if a.get("type") == "Pass"), actions[0])
        body = {"command_id": f"p{n}", "command": command}
        resp = await http.post(f"/deals/{deal_id}/commands", json=body, headers=headers)
        assert resp.status in (200, 409), await resp.text()  # 409: the table moved on meanwhile
    raise AssertionError("the deal did not end")


async def _sse(http, deal_id: str, headers: dict | None = None) -> list[tuple[str, dict]]:
    """Every message of a stream opened at version 0 of a finished deal, up to ``deal-over``."""
    resp = await http.get(f"/deals/{deal_id}/events/stream", headers=headers or {})
    assert resp.status == 200, await resp.text()
    messages, name, data = [], "message", []
    try:
        while True:
            line = (await asyncio.wait_for(resp.content.readline(), 30)).decode()
            assert line, "the stream ended before deal-over"
            line = line.rstrip("\r\n")
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
            elif line == "" and data:
                messages.append((name, json.loads("\n".join(data))))
                if name == "deal-over":
                    return messages
                name, data = "message", []
    finally:
        resp.close()


async def _board_secrets(store, deal_id: str) -> list[str]:
    """What a finished board's hidden content looks like in a JSON answer: its server seed, its
    wall's order, each seat's hand at the end (as a sorted list)."""
    from service.app.games import kit

    raws = await store.read_raw(deal_id)
    records = [json.loads(raw) for raw in raws]
    created = records[0]["data"]
    k = kit("mcr")
    state = k.game.fold(k.decode_event(json.dumps(r["data"]).encode()) for r in records)
    wall = created["fixed_deck"]
    found = [created["server_seed"], ",".join(map(str, wall[:12]))]
    found += [",".join(map(str, sorted(hand))) for hand in state.hands if len(hand) > 4]
    return found


async def _until(check, timeout: float = WAIT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError("the state waited for never came")


async def test_a_duplicate_board_stays_sealed_until_its_round_ends_at_every_table(
    http, store, real_redis_url, tmp_path
):
    """TN-3.6: a person's table has not started board 1 while the other table has finished it:
    no read of the finished deal shows its wall or hands to a stranger or to the person (with
    the token of their own table), nor does the arbiter's; once the round is over it reads as
    any finished deal."""
    resp = await http.post("/accounts", json={"name": "Pia", "password": "correct horse"})
    assert resp.status == 201, await resp.text()
    signed_in = {"Cookie": f"ds_session={resp.cookies['ds_session'].value}"}
    http.session.cookie_jar.clear()  # each request below says who asks
    made = await _create(
        http, game="mcr", format="duplicate", rounds=1, deals_per_round=1, pace="fast",
        players=["Pia"] + ["bot:greedy"] * 7, clock=PRESENT_CLOCK,
    )  # fmt: skip
    tid, arbiter = made["tournament_id"], auth(made["arbiter_token"])

    async def seated() -> dict | None:
        found = await (await http.get(f"/tournaments/{tid}/my-table", headers=signed_in)).json()
        return found if found["deal_id"] is not None else None

    table = await _until(seated)
    seat = await (await http.post(f"/deals/{table['deal_id']}/my-seat", headers=signed_in)).json()
    pia = auth(seat["token"])
    view = await (await http.get(f"/tournaments/{tid}")).json()
    other = next(t for t in view["rounds"][0]["tables"] if t["table"] != table["table"])
    house = view["benchmark"][0]

    async def finished() -> list[str] | None:
        shown = await (await http.get(f"/tournaments/{tid}")).json()
        deals = [
            t["deals"]
            for t in shown["rounds"][0]["tables"] + shown["benchmark"]
            if t["table"] != table["table"]
        ]
        if any(not d for d in deals):
            return None
        states = [await (await http.get(f"/deals/{d[0]}")).json() for d in deals]
        return [d[0] for d in deals] if all(s["over"] for s in states) else None

    # the bots' table and the house table end board 1; the person's table waits for its person
    sealed_ids = await _until(finished)
    assert other["match_id"] and house["match_id"]
    own = await (await http.get(f"/deals/{table['deal_id']}")).json()
    assert not own["over"] and own["version"] == 1, own  # not dealt: it waits for its person
    # nobody watches a duplicate round's table live: a person at another table would see the
    # board played ahead of them (TN-3.6)
    assert not own["spectators"], own
    # how a board went waits for the round too: no result on the finished tables' match pages,
    # nothing in the standings (their table points and scores are the board's payments)
    for finished_table in (other, house):
        shown_match = await (await http.get(f"/matches/{finished_table['match_id']}")).json()
        assert shown_match["sealed"] and not shown_match["over"], shown_match
        assert all(d["result"] is None for d in shown_match["deals"]), shown_match
        assert not any(shown_match["scores"]), shown_match
    during = await (await http.get(f"/tournaments/{tid}")).json()
    assert all(r["table_points"] == 0 and r["score"] == 0 for r in during["standings"]), during["standings"]
    await expect_problem(await http.get(f"/deals/{table['deal_id']}/view"), 401, "DS-8")
    await expect_problem(await http.get(f"/deals/{table['deal_id']}/view", headers=signed_in), 401, "DS-8")
    for deal_id in sealed_ids:
        secrets = await _board_secrets(store, deal_id)
        shown = await (await http.get(f"/tournaments/{tid}")).json()
        match_id = next(
            t["match_id"] for t in shown["rounds"][0]["tables"] + shown["benchmark"] if deal_id in t["deals"]
        )
        # the person's token is their own table's: no seat of this deal
        await expect_problem(await http.get(f"/deals/{deal_id}/log", headers=pia), 401, "DS-8")
        await expect_problem(await http.get(f"/deals/{deal_id}/view", headers=pia), 401, "DS-8")
        for who, headers in (("stranger", {}), ("the person", signed_in)):
            texts = []
            summary = await http.get(f"/deals/{deal_id}", headers=headers)
            body = await summary.json()
            assert body["over"] and body["sealed"], body
            texts.append(json.dumps(body))
            await expect_problem(await http.get(f"/deals/{deal_id}/log", headers=headers), 409, "DS-47")
            await expect_problem(await http.get(f"/deals/{deal_id}/replay", headers=headers), 409, "DS-47")
            for perspective in ("all", "0", "1"):
                resp = await http.get(f"/deals/{deal_id}/replay", params={"perspective": perspective})
                await expect_problem(resp, 409, "DS-47")
            resp = await http.post(f"/deals/{deal_id}/reviews", json={"seat": 0}, headers=headers)
            await expect_problem(resp, 409, "DS-47")
            await expect_problem(await http.get(f"/deals/{deal_id}/reviews/0", headers=headers), 409, "DS-47")
            resp = await http.get(f"/deals/{deal_id}/audit", headers=headers)
            assert resp.status == 200, await resp.text()
            texts.append(await resp.text())
            report = await resp.json()
            assert not report["ok"] and all(not w["options"] for w in report["claim_windows"]), report
            for path in (f"/deals/{deal_id}/view", f"/deals/{deal_id}/coach"):
                resp = await http.get(path, headers=headers)
                assert resp.status == 401, (path, resp.status)  # no seat of this deal
                texts.append(await resp.text())
            messages = await _sse(http, deal_id, headers)
            assert messages[-1][0] == "deal-over"
            texts += [json.dumps(m) for m in messages]
            last_view = next(m for name, m in reversed(messages) if name == "view")
            assert last_view["result"] is None and not last_view["hand"], last_view
            for path in (
                f"/matches/{match_id}",
                f"/matches/{match_id}/audit",
                "/deals",
                f"/tournaments/{tid}",
            ):
                resp = await http.get(path)
                assert resp.status == 200, (path, await resp.text())
                texts.append(await resp.text())
            texts.append(await (await http.get(f"/tournaments/{tid}/my-table", headers=headers)).text())
            texts.append(await (await http.get("/players/me/deals", headers=headers)).text())
            for text in texts:
                for secret in secrets:
                    assert secret not in text, (who, deal_id, secret, text[:400])
                assert '"fixed_deck":[' not in text.replace(" ", ""), (who, text[:400])
    match_audit = await (await http.get(f"/matches/{other['match_id']}/audit")).json()
    assert match_audit["ok"] and match_audit["deals"][0]["deal_audit_ok"] is None, match_audit
    arbiter_read = await http.get(f"/tournaments/{tid}/arbiter", headers=arbiter)
    assert arbiter_read.status == 200
    assert not {d["deal_id"] for d in (await arbiter_read.json())["deals"]} & set(sealed_ids)
    # the exports: a board's public copy is refused, the tournament's record leaves the round out
    where = ("--redis", real_redis_url, "--prefix", store.prefix)
    exported = await asyncio.to_thread(_cli, "export", sealed_ids[0], "--public", *where)
    assert exported.returncode == 1 and "TN-3.6" in exported.stderr, exported.stdout[:300]
    out = tmp_path / "mid-round.jsonl"
    bundle = await asyncio.to_thread(_cli, "tournament", "export", tid, "--out", str(out), *where)
    assert bundle.returncode == 0, bundle.stderr
    audited = await asyncio.to_thread(_cli, "audit", str(out))
    assert "AUDIT OK" in audited.stdout, audited.stdout + audited.stderr
    bundle.stdout = out.read_text()
    for deal_id in sealed_ids:
        assert f'"section":"deal","deal_id":"{deal_id}"' not in bundle.stdout
        assert not any(secret in bundle.stdout for secret in await _board_secrets(store, deal_id))
    # the person's own table: its own deal as a seat sees it, live
    resp = await http.get(f"/deals/{table['deal_id']}/view", headers=pia)
    assert resp.status == 200 and (await resp.json())["prompt"] == "start"
    # the person starts and plays their board; the round ends
    start = {"command_id": "go", "command": {"type": "StartDeal", "client_seed": "pia"}}
    resp = await http.post(f"/deals/{table['deal_id']}/commands", json=start, headers=pia)
    assert resp.status == 200, await resp.text()
    await _play(http, table["deal_id"], pia)
    done = await _until_over(http, tid)
    assert done["rounds"][0]["seed"] is not None
    walls = set()
    for deal_id in [*sealed_ids, table["deal_id"]]:
        summary = await (await http.get(f"/deals/{deal_id}")).json()
        assert summary["over"] and not summary["sealed"]
        log = await http.get(f"/deals/{deal_id}/log")
        assert log.status == 200, await log.text()
        created = json.loads((await log.read()).splitlines()[0])["data"]
        walls.add((created["fixed_dealer"], tuple(created["fixed_deck"])))
        frame = await http.get(f"/deals/{deal_id}/replay", params={"perspective": "all"})
        assert frame.status == 200, await frame.text()
        audit = await (await http.get(f"/deals/{deal_id}/audit")).json()
        assert audit["ok"], audit
    assert len(walls) == 1  # one board, the same wall at every table
    listed = {
        d["deal_id"]
        for d in (await (await http.get(f"/tournaments/{tid}/arbiter", headers=arbiter)).json())["deals"]
    }
    assert set(sealed_ids) <= listed


async def test_an_absent_person_is_played_for_and_finds_their_seat_in_the_next_deal(http):
    """TN-1.4, TB-2: a person who never starts their table's deal does not end the match: past
    the table's start wait (the clock's move time and bank) the table starts the deal for them,
    the clock plays their seat, and every deal of the match is played. Signed in, they find
    their seat in the match's second deal (``my-table``, then ``my-seat``)."""
    resp = await http.post("/accounts", json={"name": "Abe", "password": "correct horse"})
    assert resp.status == 201, await resp.text()
    made = await _create(
        http, game="mcr", format="swiss", rounds=1, deals_per_round=2, pace="fast",
        players=["Abe"] + ["bot:greedy"] * 3, clock=PERSON_CLOCK,
    )  # fmt: skip
    tid = made["tournament_id"]

    async def at_table(index: int):
        found = await (await http.get(f"/tournaments/{tid}/my-table")).json()
        deals = (
            (await (await http.get(f"/matches/{found['match_id']}")).json()) if found["match_id"] else None
        )
        return found if deals is not None and len(deals["deals"]) > index else None

    first = await _until(lambda: at_table(0), 120)
    second = await _until(lambda: at_table(1), 200)
    assert second["deal_id"] != first["deal_id"] and second["seat"] == first["seat"]
    seat = await http.post(f"/deals/{second['deal_id']}/my-seat")
    assert seat.status == 200, await seat.text()
    assert (await seat.json())["seat"] == second["seat"]
    view = await _until_over(http, tid)
    table = view["rounds"][0]["tables"][0]
    assert len(table["deals"]) == 2
    match = await (await http.get(f"/matches/{table['match_id']}")).json()
    assert match["over"] and len(match["deals"]) == 2, match
    for deal in match["deals"]:
        assert deal["result"] is not None and not deal["result"]["abandoned"], match
        audit = await (await http.get(f"/deals/{deal['deal_id']}/audit")).json()
        assert audit["ok"], audit
        records = [
            json.loads(x)
            for x in (await (await http.get(f"/deals/{deal['deal_id']}/log")).read()).splitlines()
        ]
        started = [r for r in records if (r.get("command") or {}).get("type") == "StartDeal"]
        # the table started the deal for the absent seat, and its log says so
        assert [r["command_id"].split(":")[:2] for r in started] == [["away", str(first["seat"])]], started
    assert any(row["player"] == "Abe" for row in view["standings"])
