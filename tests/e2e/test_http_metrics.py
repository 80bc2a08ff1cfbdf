"""GET /metrics (issue 26): a real ``dealstream serve`` process with ``--metrics-port``; a bot
deal, a person's deal and a stream reconnect, then one scrape of the metrics port, parsed with
``prometheus_client``'s own parser: every family is there, the counts moved, and no label holds
a deal id, a token, an invite or anything else of unbounded cardinality. The public port
answers 404 for /metrics."""

from __future__ import annotations

import asyncio
import random
import re

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.reliability.harness import ServiceProcess, free_port

pytestmark = pytest.mark.redis

STREAM_ROUTE = "/deals/{deal_id}/events/stream"
FAMILIES = {
    "dealstream_http_requests": "counter",
    "dealstream_http_request_duration_seconds": "histogram",
    "dealstream_commands": "counter",
    "dealstream_command_duration_seconds": "histogram",
    "dealstream_store_appends_per_round_trip": "histogram",
    "dealstream_store_append_duration_seconds": "histogram",
    "dealstream_store_append_round_trip_seconds": "histogram",
    "dealstream_live_deals": "gauge",
    "dealstream_streams_open": "gauge",
    "dealstream_streams_opened": "counter",
    "dealstream_stream_reconnects": "counter",
    "dealstream_stream_delivery_lag_seconds": "histogram",
    "dealstream_bot_decisions": "counter",
    "dealstream_bot_decision_duration_seconds": "histogram",
    "dealstream_bot_fallbacks": "counter",
    "dealstream_clock_expiries": "counter",
    "dealstream_away_seats": "gauge",
    "dealstream_reviews_running": "gauge",
    "dealstream_reviews_queued_decisions": "gauge",
    "dealstream_reviews": "counter",
    "dealstream_archive_backlog_seconds": "gauge",
    "dealstream_archive_finished_in_redis": "gauge",
    "dealstream_store_outages": "counter",
}
MAX_VALUES_PER_LABEL = 40  # a label's distinct values: routes (about 25) are the most
DEAL_ID = re.compile(r"[0-9a-f]{16}")


def total(families: dict, name: str, suffix: str = "", **labels: str) -> float:
    """The sum of a family's samples named ``name + suffix`` whose labels include ``labels``."""
    return sum(
        s.value
        for s in families[name].samples
        if s.name == name + suffix and all(s.labels.get(k) == v for k, v in labels.items())
    )


async def read_until_over(resp: aiohttp.ClientResponse, timeout: float = 120.0) -> list[str]:
    events: list[str] = []
    async with asyncio.timeout(timeout):
        async for raw in resp.content:
            line = raw.decode().strip()
            if line.startswith("event:"):
                events.append(line.split(":", 1)[1].strip())
                if events[-1] == "deal-over":
                    return events
    raise AssertionError(f"the stream ended before deal-over: {events[-5:]}")


@pytest.mark.timeout(900)
async def test_metrics_are_served_on_their_own_port_with_bounded_labels(real_redis_url, key_prefix):
    metrics_port = free_port()
    # bots think 20 ms over a deck they play to the wall's end (--dev): the deal runs while the
    # stream is open, so the hub delivers it live (a random deck may end in a handful of moves)
    service = ServiceProcess(
        real_redis_url,
        key_prefix,
        "--metrics-port",
        str(metrics_port),
        "--no-archiver",
        "--bot-delay",
        "0.02",
        "--dev",
    ).start()
    secrets: list[str] = []
    deal_ids: list[str] = []
    try:
        await service.ready(60)
        async with aiohttp.ClientSession(service.base) as http:
            deck = random.Random(8).sample(range(80), 80)
            bots = {"game": "paohuzi", "seats": ["bot:greedy"] * 3, "deck": deck, "dealer": 0}
            async with http.post("/deals", json=bots) as resp:
                assert resp.status == 201, await resp.text()
                bot_deal = (await resp.json())["deal_id"]
            deal_ids.append(bot_deal)
            # a reconnect: a stream opened with Last-Event-ID, read to the deal's end
            headers = {"Last-Event-ID": "1"}
            async with http.get(f"/deals/{bot_deal}/events/stream", headers=headers, timeout=None) as resp:
                assert resp.status == 200
                assert "deal-over" in await read_until_over(resp)
            # a person's deal: a token, an invite and a name, none of which may become a label
            people = {"game": "mcr", "seats": ["human", "open", "bot:greedy", "bot:greedy"], "name": "Zed"}
            async with http.post("/deals", json=people) as resp:
                assert resp.status == 201, await resp.text()
                created = await resp.json()
            deal_ids.append(created["deal_id"])
            token, invite = created["tokens"]["0"], created["invites"]["1"]
            secrets += [token, invite, "Zed"]
            auth = {"Authorization": f"Bearer {token}"}
            async with http.get(f"/deals/{created['deal_id']}/view", headers=auth) as resp:
                assert resp.status == 200
            bad = {"command_id": "x1", "command": {"type": "NotACommand-" + token[:8]}}
            async with http.post(f"/deals/{created['deal_id']}/commands", json=bad, headers=auth) as resp:
                assert resp.status in (400, 409)
            async with http.get(f"/no/such/{token}") as resp:
                assert resp.status == 404
            async with http.get("/metrics") as resp:  # never on the public port
                assert resp.status == 404

        async with aiohttp.ClientSession() as scraper:
            async with scraper.get(f"http://127.0.0.1:{metrics_port}/metrics") as resp:
                assert resp.status == 200
                assert resp.headers["Content-Type"].startswith("text/plain")
                text = await resp.text()
    finally:
        service.cleanup()

    families = {f.name: f for f in text_string_to_metric_families(text)}
    for name, kind in FAMILIES.items():
        assert name in families, f"{name} is not served"
        assert families[name].type == kind, (name, families[name].type)

    # the counts moved
    assert total(families, "dealstream_commands", "_total", game="paohuzi", outcome="accepted") > 0
    assert total(families, "dealstream_commands", "_total", type="invalid", outcome="refused") >= 1
    assert total(families, "dealstream_bot_decisions", "_total", level="greedy") > 0
    assert total(families, "dealstream_store_appends_per_round_trip", "_count") > 0
    assert total(families, "dealstream_store_append_duration_seconds", "_count") > 0
    assert total(families, "dealstream_http_requests", "_total", route="/deals", status="201") == 2
    assert total(families, "dealstream_http_requests", "_total", route="/deals/{deal_id}/view") == 1
    assert total(families, "dealstream_http_requests", "_total", route="unmatched", status="404") >= 1
    assert total(families, "dealstream_http_request_duration_seconds", "_count", route=STREAM_ROUTE) == 1
    assert total(families, "dealstream_streams_opened", "_total") >= 1
    assert total(families, "dealstream_stream_reconnects", "_total") >= 1
    assert total(families, "dealstream_stream_delivery_lag_seconds", "_count") > 0
    assert total(families, "dealstream_live_deals", game="mcr") >= 1  # the person's deal waits
    assert total(families, "dealstream_archive_finished_in_redis") >= 1  # the bot deal
    assert total(families, "dealstream_archive_backlog_seconds") >= 0

    # bounded labels: no deal id, token, invite or name; few values per label
    for family in families.values():
        values: dict[str, set[str]] = {}
        for sample in family.samples:
            for label, value in sample.labels.items():
                values.setdefault(label, set()).add(value)
                assert not DEAL_ID.fullmatch(value), (family.name, label, value)
                assert value not in deal_ids, (family.name, label, value)
                assert not any(secret in value for secret in secrets), (family.name, label)
        for label, seen in values.items():
            assert len(seen) <= MAX_VALUES_PER_LABEL, (family.name, label, sorted(seen))
