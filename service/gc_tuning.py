"""Garbage-collector settings for a serving process.

Every command allocates many short-lived containers (a state copy, events, a view, JSON), so
with CPython's default threshold of 700 the young generation is collected every few commands,
and each pass also walks whatever is still young at that moment. Measured in ``bench.service``:
about 5 % of the server's CPU went to the collector and showed up as slow ``decide`` calls.
A larger first threshold collects the same garbage in far fewer passes; freezing moves what
start-up built (modules, tables, the app) out of every later full collection. Cycles are still
found: only how often the collector looks changes.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000  # container allocations between young collections (CPython: 700)


def tune_gc() -> None:
    """Call once the app is built, before it serves."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
