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
import time
from typing import Any

import msgspec

from domain.envelope import decode_record
from domain.errors import RuleViolation
from projections import review as rv
from service.app.bots.runner import BotPool
from service.app.games import kit_for_ruleset
from service.app.state.folds import DealNotFound
from service.metrics import Metrics
from service.store.event_store import EventStore

log = logging.getLogger("dealstream.reviews")
CHUNK = 4  # decisions per worker task: progress moves often, the pool stays busy
PROGRESS_TTL_S = 600  # a review whose worker vanished (its service died) is started again after this
DONE_TTL_S = 7 * 24 * 3600  # a finished review is kept this long (computed again when asked after)


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


class Reviews:
    """Starts reviews and answers their progress or result."""

    def __init__(self, store: EventStore, pool: BotPool, metrics: Metrics | None = None) -> None:
        self.store = store
        self.pool = pool
        self._running: dict[tuple[str, int, int], asyncio.Task] = {}
        self._left: dict[tuple[str, int, int], int] = {}  # decisions a running review has yet to evaluate
        self.metrics = metrics if metrics is not None else Metrics()
        self.metrics.add_refresher(self._gauge)

    def _gauge(self) -> None:
        """The reviews running here and their decisions still queued (read at scrape time)."""
        running = [key for key, task in self._running.items() if not task.done()]
        self.metrics.reviews_running.set(len(running))
        self.metrics.reviews_queued.set(sum(self._left.get(key, 0) for key in running))

    def key(self, deal_id: str, seat: int, seed: int) -> str:
        return f"{self.store.prefix}:{{{deal_id}}}:review:{rv.METHOD}:{seat}:{seed}"

    async def get(self, deal_id: str, seat: int, seed: int = 0) -> dict[str, Any] | None:
        raw = await self.store.redis.get(self.key(deal_id, seat, seed))
        return msgspec.json.decode(raw) if raw else None

    async def start(self, deal_id: str, seat: int, seed: int = 0) -> dict[str, Any]:
        """The review's state now, starting it unless it is done or already running."""
        raws = await self.store.read_raw(deal_id)
        if not raws:
            raise DealNotFound(deal_id)
        if decode_record(raws[-1]).type != "SeedRevealed":
            raise RuleViolation("DS-2", "a deal is reviewed once it is over")
        known = await self.get(deal_id, seat, seed)
        if known is not None and (known.get("status") == "done" or self._fresh(known)):
            return known
        ruleset, _, points, table_moves = decision_points(raws, seat)
        progress = ReviewProgress("running", 0, len(points), int(time.time() * 1000))
        await self._put(deal_id, seat, seed, progress, ttl=PROGRESS_TTL_S)
        task_key = (deal_id, seat, seed)
        if task_key not in self._running or self._running[task_key].done():
            run = self._run(deal_id, seat, seed, ruleset, points, table_moves, progress.started_ms)
            self._running[task_key] = asyncio.create_task(run)
        return msgspec.to_builtins(progress)

    @staticmethod
    def _fresh(known: dict[str, Any]) -> bool:
        return known.get("status") == "running" and time.time() * 1000 - known.get("started_ms", 0) < (
            PROGRESS_TTL_S * 1000
        )

    async def _put(self, deal_id: str, seat: int, seed: int, value: Any, ttl: int | None = None) -> None:
        await self.store.redis.set(self.key(deal_id, seat, seed), msgspec.json.encode(value), ex=ttl)

    async def _run(
        self, deal_id: str, seat: int, seed: int, ruleset: str, points: list[rv.Point],
        table_moves: list[rv.TableMove], started: int,
    ) -> None:  # fmt: skip
        key = (deal_id, seat, seed)
        self._left[key] = len(points)
        try:
            scores: list[list[tuple[float, float]]] = []
            for i in range(0, len(points), CHUNK):
                chunk = msgspec.json.encode(points[i : i + CHUNK])
                answer = await self.pool.run(_evaluate, ruleset, chunk, seed)
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
            self._left.pop(key, None)

    async def close(self) -> None:
        for task in self._running.values():
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)
