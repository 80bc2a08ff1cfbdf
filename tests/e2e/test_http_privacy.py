"""Privacy at the table: who may watch a live deal, who may learn a private match's next deal,
and that no token or invite digest leaves the server on any read."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time

import pytest

from tests.e2e.conftest import auth, expect_problem

pytestmark = pytest.mark.redis

WAIT_S = 240.0  # generous: the machine is shared


async def _until(check, what: str, timeout: float = WAIT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = await check()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def _listed(http, deal_id: str) -> dict | None:
    deals = (await (await http.get("/deals?count=200")).json())["deals"]
    return next((d for d in deals if d["deal_id"] == deal_id), None)


async def test_a_lobby_table_without_spectators_is_not_watchable_while_live(http):
    """Listed to join is not listed to watch: a person-table's live deal is shown under the
    deals in progress and streamed to a stranger only when its creator allowed spectators."""
    body = {"game": "mcr", "seats": ["human", "open", "bot:random", "bot:random"], "lobby": True}
    created = await (await http.post("/deals", json=body)).json()
    deal_id, ana = created["deal_id"], created["tokens"]["0"]
    assert any(t["deal_id"] == deal_id for t in (await (await http.get("/lobby")).json())["tables"])
    assert await _listed(http, deal_id) is None  # not a deal in progress anyone may watch
    await expect_problem(await http.get(f"/deals/{deal_id}/events/stream"), 401, "DS-8")
    await expect_problem(await http.get(f"/deals/{deal_id}/audit"), 401, "DS-8")
    # the seat itself still streams, and anyone may still read enough to join (TB-1.2)
    ticket = await (await http.post(f"/deals/{deal_id}/stream-ticket", headers=auth(ana))).json()
    resp = await http.get(f"/deals/{deal_id}/events/stream?ticket={ticket['ticket']}")
    assert resp.status == 200
    resp.close()
    assert (await (await http.get(f"/deals/{deal_id}")).json())["open_seats"] == [1]

    # with spectators allowed the same table is listed and streamed to anyone
    body["spectators"] = True
    watched = (await (await http.post("/deals", json=body)).json())["deal_id"]
    row = await _listed(http, watched)
    assert row is not None and row["spectators"] and not row["over"]
    resp = await http.get(f"/deals/{watched}/events/stream")
    assert resp.status == 200
    resp.close()


async def _play(http, deal_id: str, token: str, seed: str) -> None:
    """One person's moves through the API until the deal ends: its seed, then the first legal
    action (a win first)."""
    for n in range(5000):
        view = await (await http.get(f"/deals/{deal_id}/view", headers=auth(token))).json()
        if view.get("result") is not None:
            return
        actions = view["legal_actions"]
        if not actions:
            await asyncio.sleep(0.02)
            continue
        command = actions[0]
        if command["type"] == "StartDeal":
            command = {"type": "StartDeal", "client_seed": seed}
        wins = [a for a in actions if a["type"] in ("Win", "DeclareWin") or a.get("claim") == "win"]
        command = wins[0] if wins else command
        body = {"command_id": f"p{n}", "command": command}
        resp = await http.post(f"/deals/{deal_id}/commands", json=body, headers=auth(token))
        if resp.status in (403, 409):  # another seat's claim closed the window, or the deal ended
            continue
        assert resp.status == 200, await resp.text()
    raise AssertionError("the deal did not end")


async def _texts(http, deal_id: str, headers: dict[str, str]) -> dict[str, str]:
    """Every public read of a finished deal, as text, by where it came from."""
    texts: dict[str, str] = {}
    for path in ("", "/log", "/audit", "/events/stream?after=0"):
        resp = await http.get(f"/deals/{deal_id}{path}", headers=headers)
        assert resp.status == 200, (path, await resp.text())
        texts[path or "/"] = await resp.text()
    total = json.loads(texts["/"])["version"]
    for step in range(total + 1):
        for perspective in ("all", "0", "1", "2"):
            query = f"/replay?step={step}&perspective={perspective}"
            resp = await http.get(f"/deals/{deal_id}{query}", headers=headers)
            assert resp.status == 200, await resp.text()
            texts[query] = await resp.text()
    return texts


@pytest.mark.timeout(900)
async def test_a_private_match_hides_its_next_deal_and_no_read_shows_a_digest(http):
    body = {
        "game": "paohuzi", "seats": ["human", "open", "bot:greedy"], "length": 2, "name": "Ana",
        "pace": "fast", "clock": {"move_s": 120, "claim_s": 60, "bank_s": 60},
    }  # fmt: skip
    resp = await http.post("/matches", json=body)
    assert resp.status == 201, await resp.text()
    created = await resp.json()
    match_id, first, ana = created["match_id"], created["deal_id"], created["tokens"]["0"]
    code = created["invites"]["1"]
    joined = await (await http.post(f"/deals/{first}/join", json={"invite": code, "name": "Bo"})).json()
    bo = joined["token"]
    await asyncio.gather(_play(http, first, ana, "ana"), _play(http, first, bo, "bo"))

    async def second():
        m = await (await http.get(f"/matches/{match_id}")).json()
        return m["deals"][1]["deal_id"] if len(m["deals"]) == 2 else None

    second_id = await _until(second, "the second deal")
    # a member reads the match and the next deal from the finished one
    mine = await (await http.get(f"/deals/{first}", headers=auth(bo))).json()
    assert mine["match"] == {"match_id": match_id, "index": 0, "next_deal_id": second_id}

    # a stranger reads the finished deal and learns neither
    stranger = await _texts(http, first, {})
    for where, text in stranger.items():
        assert match_id not in text and second_id not in text, where
    assert json.loads(stranger["/"])["match"] is None

    # no token or invite digest in any read, for anyone
    secrets = [hashlib.sha256(s.encode()).hexdigest() for s in (ana, bo, code)]
    reads = {**stranger, **{f"bo:{k}": v for k, v in (await _texts(http, first, auth(bo))).items()}}
    for path in (f"/matches/{match_id}", f"/matches/{match_id}/audit", f"/deals/{second_id}"):
        reads[path] = await (await http.get(path)).text()
    for where, text in reads.items():
        assert "digest" not in text, (
            where,
            text[max(0, text.find("digest") - 200) : text.find("digest") + 50],
        )
        assert not any(s in text for s in secrets), where
    # the log with the digests left out still audits: its chain and every command decided again
    from service.app.reads.audit import audit_log

    report = audit_log(stranger["/log"].encode().splitlines(), None)
    assert report.ok, report.problems
