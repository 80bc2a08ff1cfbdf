"""The events of one ``decide`` call, each applied to a private clone as it is emitted, so every
step after a command is worked out from exactly the state the log will produce."""

from __future__ import annotations

from domain.game import SeedRevealed, Watch
from domain.mcr.changes import evolve
from domain.mcr.messages import Event
from domain.mcr.state import State
from domain.table.seeds import deal_seed


class Run:
    __slots__ = ("s", "events", "watch")

    def __init__(self, s: State, watch: Watch | None = None) -> None:
        self.s = s
        self.events: list[Event] = []
        self.watch = watch  # shown each event with the state just after it (``GameRules.execute``)

    def emit(self, e: Event) -> None:
        self.events.append(e)
        evolve(self.s, e)
        if self.watch is not None:
            self.watch(e, self.s)


def reveal_seed(run: Run) -> None:
    """The last event of every deal (MC-2.1): the seeds, so anyone can check the shuffle."""
    s = run.s
    seed = deal_seed(s.server_seed, s.client_seed, s.client_seeds).hex()
    run.emit(
        SeedRevealed(
            server_seed=s.server_seed, client_seed=s.client_seed, seed=seed, client_seeds=s.client_seeds
        )
    )
