"""A stored log whose chain verifies but whose events do not fold (written to the store directly,
as an import before it replayed what it stored would): its audit answers a failed check, every
other read of it a problem that says so, and no read of it, nor of the lists, answers 500."""

from __future__ import annotations

import json

import pytest

from tests.forged_logs import unreplayable

pytestmark = pytest.mark.redis

PROBLEM = "application/problem+json"


async def _store_directly(store, deal_id: str, raws: list[bytes], finished: bool) -> None:
    await store.indexes.put_meta(deal_id, {"game": "mcr", "seats": json.dumps(["bot:greedy"] * 4)})
    await store.log.append_records(deal_id, raws)
    await store.indexes.put_meta(deal_id, {"status": "over" if finished else "imported"}, public=True)


@pytest.mark.parametrize("finished", [True, False])
async def test_a_stored_log_that_does_not_replay_is_a_failed_audit_and_a_problem_elsewhere(
    http, store, finished
):
    deal_id = f"forged-{int(finished)}"
    raws, bad = unreplayable(deal_id)
    if not finished:
        raws = raws[: bad + 3]
    await _store_directly(store, deal_id, raws, finished)

    resp = await http.get(f"/deals/{deal_id}/audit")
    assert resp.status == 200, await resp.text()
    report = await resp.json()
    assert report["ok"] is False and report["replay_ok"] is False
    assert [p["version"] for p in report["problems"] if p["check"] == "replay"] == [bad]

    reads = [
        ("GET", f"/deals/{deal_id}"),
        ("GET", f"/deals/{deal_id}/replay"),
        ("GET", f"/deals/{deal_id}/replay?step=2&perspective=0"),
        ("GET", f"/deals/{deal_id}/log"),
        ("GET", f"/deals/{deal_id}/events/stream"),
        ("POST", f"/deals/{deal_id}/reviews"),
    ]
    for method, path in reads:
        resp = await http.request(method, path, json={"seat": 0} if method == "POST" else None)
        body = await resp.text()
        assert resp.status == 409 and resp.content_type == PROBLEM, (path, resp.status, body)
        problem = json.loads(body)
        assert problem["rule"] == "DS-24" and f"version {bad}" in problem["detail"], (path, problem)
    # what needs a seat says so first; nothing answers 500
    for method, path in (("POST", f"/deals/{deal_id}/rematch"), ("GET", f"/deals/{deal_id}/coach")):
        resp = await http.request(method, path, json={})
        assert resp.status == 401 and resp.content_type == PROBLEM, (path, resp.status)
    # the lists that name it still answer
    for path in ("/deals", "/lobby"):
        resp = await http.get(path)
        assert resp.status == 200, (path, await resp.text())
