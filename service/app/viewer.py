"""Who reads or acts: a seat of a deal, a spectator or nobody.

Both sides name the viewer (the command side shows a command's answer to the seat that sent
it; the read side shows every read through the gate), so it lives beside them, not in either.
"""

from __future__ import annotations

import msgspec


class Viewer(msgspec.Struct, frozen=True):
    """Who is reading: ``seat`` for a seat token of this deal; else a spectator or nobody
    (they may know the same: the public table)."""

    kind: str  # seat | spectator | nobody
    seat: int | None = None

    @classmethod
    def of_seat(cls, seat: int) -> Viewer:
        return cls("seat", seat)

    def __str__(self) -> str:
        return f"seat {self.seat}" if self.seat is not None else self.kind


SPECTATOR = Viewer("spectator")
NOBODY = Viewer("nobody")
