"""A small burst of review starts beside a live table of strong bots (issue 26): the starts beyond
the bounds are refused with ``Retry-After``, the accepted reviews finish, and the strong bots never
fall back to greedy. The bench's own run (``bench.review_burst``) with the sizes of a test; the
bot budget is generous so that a machine busy with other work cannot make a search overrun, while
a review queue ahead of the bots (as before issue 26) would still hold them far past it. The
review workers run at nice 11, one step below the bot workers (10), not the service's 19: the
bots still go first, and the accepted reviews still finish on a machine whose other work runs at
nice 0 (at 19 they get about 1 % of a core beside it: one of four Paohuzi reviews finished in the
900 s drain beside two CPU-bound processes)."""

from __future__ import annotations

import pytest

from bench.review_burst import measure

pytestmark = pytest.mark.redis


@pytest.mark.timeout(1200)
async def test_a_review_burst_costs_live_strong_tables_no_fallback(real_redis_url):
    figures = await measure(
        real_redis_url, tables=1, posts=6, addresses=2, finished=3, window_s=5.0, drain_s=900.0,
        bot_budget=10.0, queue_cap=30, review_limit=2, review_nice=11,
    )  # fmt: skip
    statuses = {**figures["burst_statuses"]}
    for status, n in figures["spread_statuses"].items():
        statuses[status] = statuses.get(status, 0) + n
    refused = {s for s in statuses if s not in ("200", "202")}
    assert refused and refused <= {"429 DS-29", "503 DS-30"}, statuses  # each with Retry-After
    assert figures["reviews_accepted"] >= 2
    assert figures["reviews_finished"] == figures["reviews_accepted"]
    for window in ("quiet", "burst", "spread"):
        assert figures[f"{window}_strong_decisions"] > 0, figures
        assert figures[f"{window}_fallbacks"] == 0, figures
