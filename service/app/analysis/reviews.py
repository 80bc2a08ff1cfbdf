"""Reviews of finished deals (``projections.review``), run in the bot worker processes.

A review is derived data: it is kept under its own key beside the deal
(``<prefix>:{<deal>}:review:<method>:<seat>:<seed>``, in the deal's hash tag; the method is
``projections.review.METHOD``, so a review made before a change of method is not served as one
made after it), never in the event stream,
and can always be computed again from the log. Starting one reads the log, finds the seat's
decisions (cheap, here) and hands them in chunks to the worker processes, which evaluate them
(the search: never on the event loop); after each chunk the progress is written to the review's
key, so every service process answers the same progress, and at the end the review itself. A
review is only made of a finished deal: before the end the decisions of a seat are its secret.

A finished deal leaves Redis for the archive after a while; its log is then read from the archive
(the store falls back to it), so a review of an archived deal starts and answers as before. The
review itself stays in Redis under the deal's tag, and a finished review expires after
``DONE_TTL_S``: the archiver removes only the deal's own keys, and Redis should not hold a
derived copy of every archived deal for ever (asked again later, it is computed again, the
same for the same seed).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from domain.envelope import decode_record
from domain.errors import RuleViolation
from projections import review as rv
from service.app.games import kit_for_ruleset
from service.app.state.folds import DealNotFound
from service.metrics import Metrics
from service.store.event_store import EventStore

log = logging.getLogger("dealstream.reviews")
CHUNK = 4  # decisions per worker task: progress moves often, the pool stays busy
PROGRESS_TTL_S = 600  # a progress nobody refreshed for this long is forgotten
LEASE_S = 15.0  # a running review's owner refreshes its lease every third of this; a stopped one loses it
PER_DEAL = 4  # reviews of one deal running at once in one process (DS-29 beyond)
QUEUE_CAP = 200  # decisions of reviews queued in one process (DS-30 beyond)
RETRY_DEAL_S = 10
DONE_TTL_S = 7 * 24 * 3600  # a finished review is kept this long (computed again when asked after)


class ReviewedSeats(msgspec.Struct, frozen=True):
    """The seats of a deal that have a review with this seed (``GET /deals/{id}/reviews``)."""

    seed: int
    seats: list[int]


class ReviewProgress(msgspec.Struct, frozen=True):
    status: str  # running | done | failed
    done: int
    total: int
    started_ms: int
    error: str | None = None


def _evaluate(ruleset: str, points_json: bytes, review_seed: int) -> bytes:
    """In a worker process: the (value, noise) of every option of each point."""
    k = kit_for_ruleset(ruleset)
    chunk = msgspec.json.decode(points_json, type=list[rv.Point])
    scores = rv.evaluate_chunk(chunk, k.view_type, k.game.command_type, k.review.evaluate, review_seed)
    return msgspec.json.encode(scores)


def build(ruleset: str, deal_id: str, seat: int, review_seed: int, points: list[rv.Point],
          scores: list[list[tuple[float, float]]],
          table_moves: list[rv.TableMove] | None = None) -> rv.Review:  # fmt: skip
    k = kit_for_ruleset(ruleset)
    adapter = k.review
    decisions = [
        rv.decide(
            p,
            s,
            k.view_type,
            k.game.command_type,
            adapter.INACCURACY_FLOOR,
            adapter.MISTAKE_FLOOR,
            adapter.same_play,
            getattr(adapter, "MODEL_NOISE", None),
        )  # fmt: skip
        for p, s in zip(points, scores, strict=True)
    ]
    return rv.Review(
        deal_id=deal_id,
        seat=seat,
        seed=review_seed,
        ruleset=ruleset,
        unit=adapter.UNIT,
        inaccuracy_floor=adapter.INACCURACY_FLOOR,
        mistake_floor=adapter.MISTAKE_FLOOR,
        decisions=decisions,
        summary=rv.summarize(decisions),
        table_moves=table_moves or [],
    )


def decision_points(raws: list[bytes], seat: int) -> tuple[str, str, list[rv.Point], list[rv.TableMove]]:
    """(ruleset, deal id, the seat's decisions, the table's moves for it) of a stored log."""
    from domain.game import DealCreated

    records = [decode_record(r) for r in raws]
    created = msgspec.json.decode(records[0].data, type=DealCreated)
    k = kit_for_ruleset(created.ruleset)
    if not 0 <= seat < len(created.seats):
        raise RuleViolation("DS-3", f"no seat {seat}")
    events = [k.decode_event(r.data) for r in records]
    return (
        created.ruleset,
        created.deal_id,
        rv.points(k.game, k.projections.view_from_state, records, events, seat, k.review.same_play),
        rv.table_moves(k.game, records, seat),
    )


class ReviewRefused(Exception):
    """A review start refused for now: ``DS-29`` (429: this address or this deal
    has started its share) or ``DS-30`` (503: the review queue is full), with ``retry_after``
    seconds."""

    def __init__(self, rule: str, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.retry_after = max(1, int(retry_after))


# a lease is refreshed while its review runs and only its owner refreshes or drops it
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Reviews:
    """Starts reviews and answers their progress or result.

    Bounds: at most ``per_deal`` reviews of one deal run at once in this process and a
    caller's ``admit`` (the HTTP layer's per-address limit) is asked before a new one starts, both
    429 ``DS-29`` beyond; once ``queue_cap`` decisions wait here, a new one is 503 ``DS-30``. The
    bounds are checked before any work is done for the start, so a refusal costs the event loop
    (and the bots waiting on it) next to nothing. A review that is done or
    already running is answered as it is, counted against nothing.

    Ownership: a running review holds a lease beside its progress (``<review key>:lease``, the
    owner's process id and a random part, set with NX and a time-out of ``lease_s``, refreshed
    every third of it while the review runs). A process that stops leaves the progress at
    ``running`` and its lease runs out; the next ``POST`` or ``GET`` of that review starts it
    again in whichever process takes the lease first, so it never runs twice at once and never
    shows ``running`` until the progress's time-out.
    """

    def __init__(
        self,
        store: EventStore,
        pool: Any,
        metrics: Metrics | None = None,
        *,
        per_deal: int = PER_DEAL,
        queue_cap: int = QUEUE_CAP,
        lease_s: float = LEASE_S,
    ) -> None:
        self.store = store
        self.pool = pool  # a ReviewPool (its own workers, live tables first), or anything with run()
        self.per_deal = per_deal
        self.queue_cap = queue_cap
        self.lease_s = lease_s
        self.owner = f"{os.getpid()}:{secrets.token_hex(6)}"
        self._running: dict[tuple[str, int, int], asyncio.Task] = {}
        self._left: dict[tuple[str, int, int], int] = {}  # decisions a running review has yet to evaluate
        self.seconds_per_decision = 0.5  # a running mean, for Retry-After when the queue is full
        self.decisions_per_review = 10.0  # a running mean, what a start is counted as until known
        self.restarted = 0  # orphaned reviews started again here (for tests)
        self.metrics = metrics if metrics is not None else Metrics()
        self.metrics.add_refresher(self._gauge)

    def _gauge(self) -> None:
        """The reviews running here and their decisions still queued (read at scrape time)."""
        running = [key for key, task in self._running.items() if not task.done()]
        self.metrics.reviews_running.set(len(running))
        self.metrics.reviews_queued.set(sum(self._left.get(key, 0) for key in running))

    @property
    def queued(self) -> int:
        """Decisions of the reviews accepted here still to evaluate."""
        return sum(self._left.values())

    def key(self, deal_id: str, seat: int, seed: int) -> str:
        return f"{self.store.prefix}:{{{deal_id}}}:review:{rv.METHOD}:{seat}:{seed}"

    def lease_key(self, deal_id: str, seat: int, seed: int) -> str:
        return self.key(deal_id, seat, seed) + ":lease"

    async def get(self, deal_id: str, seat: int, seed: int = 0) -> dict[str, Any] | None:
        raw = await self.store.redis.get(self.key(deal_id, seat, seed))
        return msgspec.json.decode(raw) if raw else None

    async def read(self, deal_id: str, seat: int, seed: int = 0) -> dict[str, Any] | None:
        """The review's state, starting it again first if it is an orphan (running, no lease)."""
        known = await self.get(deal_id, seat, seed)
        if (
            known is not None
            and known.get("status") == "running"
            and not await self._leased(deal_id, seat, seed)
        ):
            return await self.start(deal_id, seat, seed)
        return known

    async def seats_reviewed(self, deal_id: str, seats: int, seed: int = 0) -> list[int]:
        """The seats of the deal with a review for ``seed`` (running, done or failed): a page
        asks for a review only once it knows there is one."""
        keys = [self.key(deal_id, seat, seed) for seat in range(seats)]
        found = await asyncio.gather(*(self.store.redis.exists(key) for key in keys))
        return [seat for seat, exists in enumerate(found) if exists]

    async def _leased(self, deal_id: str, seat: int, seed: int) -> bool:
        return bool(await self.store.redis.exists(self.lease_key(deal_id, seat, seed)))

    async def start(
        self, deal_id: str, seat: int, seed: int = 0, admit: Callable[[], Awaitable[int | None]] | None = None
    ) -> dict[str, Any]:
        """The review's state now, starting it unless it is done or already running. ``admit``:
        asked before a new review starts; a number is the seconds to wait (``DS-29``)."""
        raws = await self.store.read_raw(deal_id)
        if not raws:
            raise DealNotFound(deal_id)
        if decode_record(raws[-1]).type != "SeedRevealed":
            raise RuleViolation("DS-2", "a deal is reviewed once it is over")
        known = await self.get(deal_id, seat, seed)
        if known is not None and known.get("status") == "done":
            return known
        orphan = known is not None and known.get("status") == "running"
        if orphan and await self._leased(deal_id, seat, seed):
            return known  # running in some process
        task_key = (deal_id, seat, seed)
        if task_key in self._left:  # accepted here a moment ago (two POSTs at once)
            pending = ReviewProgress("running", 0, 0, int(time.time() * 1000))
            return known if known is not None else msgspec.to_builtins(pending)
        if not orphan:  # a new start (or one that failed): within the bounds, before any work
            await self._admit(deal_id, admit)
        # counted at once, at a typical size until its own is known: the awaits below let other
        # starts in, and each must see this one in the queue
        self._left[task_key] = round(self.decisions_per_review)
        try:  # rebuilding every decision's view is CPU work: in a thread, the loop answers meanwhile
            ruleset, _, points, table_moves = await asyncio.get_running_loop().run_in_executor(
                None, decision_points, raws, seat
            )
        except BaseException:
            self._left.pop(task_key, None)
            raise
        self._left[task_key] = len(points)
        self.decisions_per_review = 0.8 * self.decisions_per_review + 0.2 * len(points)
        lease = self.lease_key(deal_id, seat, seed)
        started = int(known["started_ms"]) if orphan and known else int(time.time() * 1000)
        progress = ReviewProgress("running", 0, len(points), started)
        try:
            leased = await self.store.redis.set(lease, self.owner, nx=True, px=int(self.lease_s * 1000))
            if leased:
                await self._put(deal_id, seat, seed, progress, ttl=PROGRESS_TTL_S)
        except BaseException:
            self._left.pop(task_key, None)
            raise
        if not leased:
            self._left.pop(task_key, None)
            return known if orphan and known else msgspec.to_builtins(progress)  # another start won
        if orphan:
            self.restarted += 1
            log.warning("review of deal %s seat %d seed %d was orphaned by a stopped process: "
                        "started again", deal_id, seat, seed)  # fmt: skip
        previous = self._running.get(task_key)
        if previous is not None and not previous.done():
            previous.cancel()  # its lease ran out here (a stalled loop): the new owner runs it
        run = self._run(deal_id, seat, seed, ruleset, points, table_moves, started)
        self._running[task_key] = asyncio.create_task(run)
        return msgspec.to_builtins(progress)

    async def _admit(self, deal_id: str, admit: Callable[[], Awaitable[int | None]] | None) -> None:
        queued = self.queued
        if queued >= self.queue_cap:
            wait = min(600, queued * self.seconds_per_decision / max(1, getattr(self.pool, "workers", 1)))
            raise ReviewRefused(
                "DS-30",
                f"the review queue is full ({queued} decisions); retry in {int(wait) + 1} s",
                int(wait) + 1,
            )
        here = sum(1 for key in self._left if key[0] == deal_id)
        if here >= self.per_deal:
            raise ReviewRefused(
                "DS-29", f"{here} reviews of this deal are running; retry once one is done", RETRY_DEAL_S
            )
        wait = await admit() if admit is not None else None
        if wait is not None:
            raise ReviewRefused(
                "DS-29", f"too many reviews started from this address; retry in {wait} s", wait
            )

    async def _put(self, deal_id: str, seat: int, seed: int, value: Any, ttl: int | None = None) -> None:
        await self.store.redis.set(self.key(deal_id, seat, seed), msgspec.json.encode(value), ex=ttl)

    async def _hold(self, lease: str, task: asyncio.Task) -> None:
        """Refresh the lease while the review runs; a lease another process took ends the run."""
        while not task.done():
            await asyncio.sleep(self.lease_s / 3)
            try:
                held = await self.store.redis.eval(_RENEW, 1, lease, self.owner, int(self.lease_s * 1000))
            except Exception as exc:  # noqa: BLE001 - a store outage: try again next time
                log.warning("could not refresh a review's lease: %s", exc)
                continue
            if not held:
                log.warning("a review's lease %s was lost; another process runs it", lease)
                task.cancel()
                return

    async def _run(
        self, deal_id: str, seat: int, seed: int, ruleset: str, points: list[rv.Point],
        table_moves: list[rv.TableMove], started: int,
    ) -> None:  # fmt: skip
        key = (deal_id, seat, seed)
        lease = self.lease_key(deal_id, seat, seed)
        current = asyncio.current_task()
        assert current is not None
        holder = asyncio.create_task(self._hold(lease, current))
        try:
            scores: list[list[tuple[float, float]]] = []
            for i in range(0, len(points), CHUNK):
                chunk = msgspec.json.encode(points[i : i + CHUNK])
                began = time.perf_counter()
                answer = await self.pool.run(_evaluate, ruleset, chunk, seed)
                took = (time.perf_counter() - began) / max(1, len(points[i : i + CHUNK]))
                self.seconds_per_decision = 0.8 * self.seconds_per_decision + 0.2 * took
                scores.extend(msgspec.json.decode(answer))
                self._left[key] = len(points) - len(scores)
                await self._put(
                    deal_id, seat, seed, ReviewProgress("running", len(scores), len(points), started),
                    ttl=PROGRESS_TTL_S,
                )  # fmt: skip
            scored = [[tuple(x) for x in s] for s in scores]
            review = build(ruleset, deal_id, seat, seed, points, scored, table_moves)
            done = {"status": "done", **msgspec.to_builtins(review)}
            await self._put(deal_id, seat, seed, done, ttl=DONE_TTL_S)
            self.metrics.reviews.labels("done").inc()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a failed review is reported, never fatal
            self.metrics.reviews.labels("failed").inc()
            log.exception("review of deal %s seat %d failed", deal_id, seat)
            failed = ReviewProgress("failed", 0, len(points), started, error=type(exc).__name__)
            await self._put(deal_id, seat, seed, failed, ttl=PROGRESS_TTL_S)
        finally:
            holder.cancel()
            if self._running.get(key) is current:
                self._left.pop(key, None)
            try:  # done, failed or stopped here: whoever asks next may start it at once
                async with asyncio.timeout(2.0):
                    await self.store.redis.eval(_RELEASE, 1, lease, self.owner)
            except Exception:  # noqa: BLE001 - it runs out by itself
                pass

    async def close(self) -> None:
        for task in self._running.values():
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)
        close = getattr(self.pool, "close", None)
        if close is not None:
            close()
