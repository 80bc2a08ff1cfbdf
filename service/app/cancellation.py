"""Background loops that log an error and go on must still stop when their task is cancelled.

A library can turn the ``CancelledError`` thrown into a pending call into an error of its own
(a Redis or database client closing the connection it was reading on raises a connection
error), or swallow it and answer the call after all: a loop that waits out outages would then
run on, and the service's shutdown would wait for it for ever (seen in the tests: an app whose
cleanup awaited its cancelled clock keeper, still sleeping between sweeps). Each loop asks
after every call whether its task was asked to stop.
"""

from __future__ import annotations

import asyncio


def raise_if_cancelled() -> None:
    """Raise ``CancelledError`` when the current task has been asked to stop."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
