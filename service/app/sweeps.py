"""The loop every self-running log shares (a match's next deal, a tournament's next round): look at
each one whose look is due, one at a time, so one log's trouble never stops the others; run for as
long as the service runs and wait out a store outage."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from service.app.cancellation import raise_if_cancelled
from service.store.looks import LookAlarm
from service.store.outages import STORE_OUTAGES


async def look_at_each(
    due: list[str],
    look_again: Callable[[str], Awaitable[None]],
    advance: Callable[[str], Awaitable[object]],
    what: str,
    log: logging.Logger,
) -> int:
    """``advance`` each id of ``due`` after putting its next look in (so a failure is retried
    later); an error is logged against its id, a store outage ends the round. How many."""
    for log_id in due:
        await look_again(log_id)
        try:
            await advance(log_id)
        except asyncio.CancelledError:
            raise
        except STORE_OUTAGES:
            raise
        except Exception:  # noqa: BLE001 - one log's trouble must not stop the others
            raise_if_cancelled()
            log.exception("%s %s: could not go on", what, log_id)
    return len(due)


async def sweep_forever(
    sweep: Callable[[], Awaitable[int]],
    every_s: float,
    what: str,
    log: logging.Logger,
    stopped: Callable[[], bool] = lambda: False,
    alarm: LookAlarm | None = None,
    idle_s: float | None = None,
) -> None:
    """``sweep`` every ``every_s`` seconds until cancelled or ``stopped()``; a store outage is
    waited out. ``stopped`` ends the loop even where a client swallowed the cancellation.

    Given an ``alarm`` (the looks this process scheduled) and ``idle_s``, the pause after each
    sweep lasts until the next of those looks is due, at least ``every_s`` and at most ``idle_s``:
    an idle service reads its index of looks once per ``idle_s``, not once per ``every_s``."""
    while not stopped():
        swept = alarm.mark() if alarm is not None else None
        try:
            await sweep()
        except asyncio.CancelledError:
            raise
        except STORE_OUTAGES as exc:
            raise_if_cancelled()
            log.warning("%s sweep waits for the event store: %s", what, exc)
        except Exception:  # noqa: BLE001
            raise_if_cancelled()
            log.exception("%s sweep failed", what)
        if stopped():  # told to stop while it swept (its cancellation may have been lost there)
            break
        if alarm is not None and swept is not None and idle_s is not None:
            await alarm.wait(swept, every_s, max(every_s, idle_s))
        else:
            await asyncio.sleep(every_s)
