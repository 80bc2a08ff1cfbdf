"""Helpers shared by the bench modules: argument parsing, printing, Redis choice."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from typing import Any


def parser(description: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    return p


def emit(figures: dict[str, Any], as_json: bool) -> None:
    if as_json:
        json.dump(figures, sys.stdout)
        sys.stdout.write("\n")
        return
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        shown = f"{value:,.3f}" if isinstance(value, float) else str(value)
        print(f"{key:<{width}}  {shown}")


def run_on_redis(redis_url: str | None, measure: Any) -> dict[str, Any]:
    """Run ``measure(url)`` (a coroutine function) on the chosen Redis, the embedded one by default."""
    import asyncio

    from service.store.connection import resolve_redis_url

    url, embedded = resolve_redis_url(redis_url)
    try:
        return asyncio.run(measure(url))
    finally:
        if embedded is not None:
            embedded.stop()


def median(values: list[float]) -> float:
    return statistics.median(values)
