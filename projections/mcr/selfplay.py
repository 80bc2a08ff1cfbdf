"""Play whole deals with bots through the public contract (decide + seat views): tests, bench."""

from __future__ import annotations

from domain.game import StartDeal
from domain.mcr import GAME
from domain.mcr.bots import make_bot
from projections.mcr import view_from_state


def play_deal(server_seed: bytes, levels=("greedy",) * 4, *, client_seed: str = "",
              bot_seed: int = 0, fixed_deck=None, fixed_dealer=None, max_steps: int = 2000):
    """(events, state) of one deal played to the end by bots of ``levels`` (one per seat)."""
    bots = [make_bot(level, bot_seed * 4 + i) for i, level in enumerate(levels)]
    events = GAME.create(deal_id=server_seed.hex()[:16], seats=[f"bot:{x}" for x in levels],
                         server_seed=server_seed, fixed_deck=fixed_deck,
                         fixed_dealer=fixed_dealer)
    state = GAME.fold(events)
    new = GAME.decide(state, StartDeal(seat=0, client_seed=client_seed))
    for e in new:
        GAME.evolve(state, e)
    events.extend(new)
    steps = 0
    while not GAME.is_over(state):
        seat = GAME.seats_to_act(state)[0]
        cmd = bots[seat].choose(view_from_state(state, seat))
        new = GAME.decide(state, cmd)
        for e in new:
            GAME.evolve(state, e)
        events.extend(new)
        steps += 1
        if steps > max_steps:  # pragma: no cover - a deal always ends (wall is finite)
            raise RuntimeError("deal did not end")
    return events, state
