"""What every worker process of ours arms first: to die with the process that started it; and
how its owner ends a pool at once (``stop_pool``).

A ``ProcessPoolExecutor`` shuts its workers down when its owner exits cleanly; an owner killed
with ``SIGKILL`` (or by the kernel's OOM killer) runs no shutdown, and its workers would go on
searching or playing walls, each holding a core, until their queued work ran out. Linux's
``PR_SET_PDEATHSIG`` has the kernel kill them with their parent.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from typing import Any

_PR_SET_PDEATHSIG = 1  # Linux prctl option


def die_with_parent(parent: int) -> None:
    """In a new worker process (a pool's ``initializer``, with ``initargs=(os.getpid(),)``)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


def stop_pool(pool: Any) -> None:
    """End a process pool now: its workers killed (a search or review in flight is abandoned),
    nothing waited for; the bot runner and the review workers both stop their pools so."""
    for process in list((pool._processes or {}).values()):  # noqa: SLF001
        if process.is_alive():
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
