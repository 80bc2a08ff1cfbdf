"""What ``/health`` and ``/ready`` say beyond "the process runs": the durability of
the store (found at start-up: ``aof``, ``none``, ``unknown``) and the archive's state (``ok``,
``unreachable``, ``off``), asked again every ``interval`` seconds while the service runs, so an
archive that comes back turns the service from degraded to ok by itself."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("dealstream.status")
ARCHIVE_PROBE_S = 15.0  # how often the archive is asked whether it answers
ARCHIVE_PROBE_TIMEOUT_S = 3.0


@dataclass
class ServiceStatus:
    durability: str = "unknown"  # aof | none | unknown
    archive: str = "off"  # ok | unreachable | off

    @property
    def degraded(self) -> bool:
        return self.archive == "unreachable"

    async def watch_archive(self, archive: Any, interval: float = ARCHIVE_PROBE_S) -> None:
        """Ask the archive for one meta row every ``interval`` seconds; log each change."""
        while True:
            try:
                await asyncio.wait_for(archive.meta("health-check"), ARCHIVE_PROBE_TIMEOUT_S)
                state = "ok"
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - whatever it is, the archive did not answer
                state = "unreachable"
            if state != self.archive:
                (log.info if state == "ok" else log.warning)("the archive is %s now", state)
                self.archive = state
            await asyncio.sleep(interval)
