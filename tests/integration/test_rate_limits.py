"""Per-address budgets in Redis (``service.store.rate_limits``): every process on a store counts
one budget per address. The times are given, not waited for: a window is a number here."""

from __future__ import annotations

import pytest

from service.store.connection import connect
from service.store.rate_limits import SharedRateLimiter
from tests.conftest import drop_prefix

pytestmark = pytest.mark.redis

WINDOW_MS = 10_000
T0 = 1_000_000 * WINDOW_MS  # the start of a window


@pytest.fixture(params=["redis", "cluster"])
async def redis_client(request, real_redis_url, key_prefix):
    url = real_redis_url if request.param == "redis" else request.getfixturevalue("cluster").url
    client = connect(url)
    yield client
    await drop_prefix(client, key_prefix)
    await client.aclose()


def limiter(redis_client, key_prefix, limit: int = 3, name: str = "create") -> SharedRateLimiter:
    return SharedRateLimiter(redis_client, key_prefix, name, limit, WINDOW_MS / 1000)


async def test_a_budget_admits_its_limit_and_says_how_long_to_wait(redis_client, key_prefix):
    budget = limiter(redis_client, key_prefix)
    assert [await budget.allow("203.0.113.5", T0 + i) for i in range(3)] == [None, None, None]
    wait = await budget.allow("203.0.113.5", T0 + 3)
    # this window is full; in the next one its three still weigh in until enough has slid out
    assert wait is not None and WINDOW_MS / 1000 < wait <= 2 * WINDOW_MS / 1000
    assert await budget.allow("203.0.113.6", T0 + 4) is None  # another address, its own budget
    assert await budget.allow("203.0.113.5", T0 + 3 + wait * 1000) is None  # as long as it said


async def test_the_last_window_weighs_what_the_sliding_window_still_covers(redis_client, key_prefix):
    budget = limiter(redis_client, key_prefix, limit=2)
    for i in range(2):
        assert await budget.allow("a", T0 + WINDOW_MS - 10 + i) is None  # at the end of a window
    # just after, the sliding window still covers nearly all of them: no burst of twice the limit
    assert await budget.allow("a", T0 + WINDOW_MS + 100) is not None
    # half a window on, one of the two has slid out
    assert await budget.allow("a", T0 + WINDOW_MS + WINDOW_MS // 2 + 10) is None
    assert await budget.allow("a", T0 + WINDOW_MS + WINDOW_MS // 2 + 20) is not None


async def test_a_refused_request_counts_nothing_and_check_counts_nothing(redis_client, key_prefix):
    budget = limiter(redis_client, key_prefix, limit=1)
    assert await budget.check("a", T0) is None
    assert await budget.check("a", T0 + 1) is None  # asked twice, still room
    assert await budget.allow("a", T0 + 2) is None
    for i in range(50):  # knocking on a spent budget does not lengthen the wait
        assert await budget.allow("a", T0 + 3 + i) is not None
    assert await budget.allow("a", T0 + 2 * WINDOW_MS + 2) is None


async def test_count_spends_the_budget_a_check_found(redis_client, key_prefix):
    budget = limiter(redis_client, key_prefix, limit=2)
    for i in range(2):
        assert await budget.check("a", T0 + i) is None
        await budget.count("a", T0 + i)
    assert await budget.check("a", T0 + 5) is not None


async def test_budgets_of_two_limiters_on_one_store_are_one(redis_client, key_prefix):
    """Two processes (two limiters on the same prefix) share the address's budget; another
    budget name (reviews beside creations) is another budget."""
    here, there = limiter(redis_client, key_prefix), limiter(redis_client, key_prefix)
    assert await here.allow("a", T0) is None
    assert await there.allow("a", T0 + 1) is None
    assert await here.allow("a", T0 + 2) is None
    assert await there.allow("a", T0 + 3) is not None
    assert await limiter(redis_client, key_prefix, name="review").allow("a", T0 + 4) is None


async def test_an_address_is_kept_only_as_a_digest(redis_client, key_prefix):
    budget = limiter(redis_client, key_prefix)
    await budget.allow("203.0.113.5", T0)
    await budget.allow("2001:db8::7", T0)
    keys = [k async for k in redis_client.scan_iter(match=f"{key_prefix}:*")]
    assert len(keys) == 2 and not any(b"203.0.113.5" in k or b"2001:db8" in k for k in keys), keys


async def test_a_reservation_given_back_frees_its_place_and_never_more(redis_client, key_prefix):
    budget = limiter(redis_client, key_prefix, limit=2)
    first, wait = await budget.reserve("a", T0)
    assert first is not None and wait is None
    second, _ = await budget.reserve("a", T0 + 1)
    assert second is not None
    refused, wait = await budget.reserve("a", T0 + 2)
    assert refused is None and wait is not None
    await budget.release(first, T0 + 3)
    assert (await budget.reserve("a", T0 + 4))[0] is not None  # its place came back
    # a place counted in a window that has expired is not taken from the current one
    late, _ = await budget.reserve("b", T0)
    assert late is not None
    for i in range(2):
        assert (await budget.reserve("b", T0 + 3 * WINDOW_MS + i))[0] is not None
    await budget.release(late, T0 + 3 * WINDOW_MS + 5)
    await budget.release(late, T0 + 3 * WINDOW_MS + 6)
    assert (await budget.reserve("b", T0 + 3 * WINDOW_MS + 7))[0] is None
