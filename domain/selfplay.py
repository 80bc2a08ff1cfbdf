"""The one self-play loop: bots play a whole deal in memory through the game's public contract.

Every place that plays bot deals in memory (``dealstream simulate`` and ``arena``, the benches, the
tests) goes through ``play_deal``, so a seeded deal gives the same events wherever it is played.
It stays pure: no clock and no I/O. A caller that times decisions wraps its bots; one that
records or checks every command passes ``on_step``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from domain.envelope import NO_COMMAND, StoredEvent
from domain.game import Game, StartDeal


class Bot(Protocol):
    def choose(self, view: Any) -> Any: ...


ViewFn = Callable[[Any, int], Any]  # (state, seat) -> that seat's view, e.g. view_from_state


class DealStalled(RuntimeError):
    """The deal did not end within the step limit, or nobody was left to act before its end."""


@dataclass(frozen=True, slots=True)
class Step:
    """One command and what it did, handed to ``on_step`` once its events are in the log.

    ``number`` is 0 for the ``StartDeal`` (``view`` None) and counts bot commands after it.
    ``before`` is the state the command was decided on (``Game.execute`` leaves it unchanged),
    ``after`` the state its ``events`` lead to. ``log`` is the loop's own growing list of every
    event so far, these included: read it (or copy it), never change it.
    """

    number: int
    seat: int
    view: Any
    command: Any
    before: Any
    events: list[Any]
    after: Any
    log: list[Any]


def play_deal(
    game: Game,
    view: ViewFn,
    bots: Sequence[Bot],
    *,
    deal_id: str,
    server_seed: bytes,
    client_seed: str = "",
    seats: Sequence[str] | None = None,
    fixed_deck: list[int] | None = None,
    fixed_dealer: int | None = None,
    start_seat: int = 0,
    max_steps: int = 5000,
    on_step: Callable[[Step], None] | None = None,
) -> tuple[list[Any], Any]:
    """(events, final state) of one deal that ``bots`` (one per seat) play to its end.

    Each bot sees only ``view(state, seat)`` of its own seat. ``seats`` are the names written in
    ``DealCreated`` (default ``"bot"`` for each). Raises ``DealStalled`` after ``max_steps``
    bot commands, or if the game has nobody to act before it is over.
    """
    if len(bots) != game.seat_count:
        raise ValueError(f"{game.name} needs {game.seat_count} bots, got {len(bots)}")
    names = list(seats) if seats is not None else ["bot"] * game.seat_count
    log = game.create(
        deal_id=deal_id,
        seats=names,
        server_seed=server_seed,
        fixed_deck=fixed_deck,
        fixed_dealer=fixed_dealer,
    )
    state = game.fold(log)
    seat, seen = start_seat, None
    command: Any = StartDeal(seat=start_seat, client_seed=client_seed)
    for number in range(max_steps + 1):
        events, after = game.execute(state, command)
        log.extend(events)
        if on_step is not None:
            on_step(Step(number, seat, seen, command, state, events, after, log))
        state = after
        if game.is_over(state):
            return log, state
        to_act = game.seats_to_act(state)
        if not to_act:
            raise DealStalled(f"{game.name} deal {deal_id}: nobody to act after {len(log)} events")
        seat = to_act[0]
        seen = view(state, seat)
        command = bots[seat].choose(seen)
    raise DealStalled(f"{game.name} deal {deal_id} did not end after {max_steps} bot commands")


def play_stored(
    game: Game, view: ViewFn, bots: Sequence[Bot], *, deal_id: str, server_seed: bytes
) -> tuple[list[StoredEvent], list[Any]]:
    """(records, events) of one bot deal, the records shaped as the event store keeps them
    (``StoredEvent``, without hashes or times): the first record of each command's batch carries
    that command, which is what a review reads a seat's decisions from."""
    commands: dict[int, Any] = {}

    def hook(step: Step) -> None:
        commands[len(step.log) - len(step.events) + 1] = step.command

    events, _ = play_deal(game, view, bots, deal_id=deal_id, server_seed=server_seed, on_step=hook)
    records = [
        StoredEvent(
            version=v,
            type=type(e).__name__,
            data=msgspec.Raw(msgspec.json.encode(e)),
            prev="",
            recorded_at="",
            command=msgspec.Raw(msgspec.json.encode(commands[v])) if v in commands else NO_COMMAND,
        )  # fmt: skip
        for v, e in enumerate(events, start=1)
    ]
    return records, events
