"""MCR deals played by bots through ``domain.selfplay`` with the seat views: for tests and bench."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.mcr import GAME
from domain.mcr.bots import make_bot
from domain.selfplay import play_deal as play
from projections.mcr import view_from_state


def play_deal(
    server_seed: bytes,
    levels: Sequence[str] = ("greedy",) * 4,
    *,
    client_seed: str = "",
    bot_seed: int = 0,
    fixed_deck: list[int] | None = None,
    fixed_dealer: int | None = None,
    max_steps: int = 2000,
) -> tuple[list[Any], Any]:
    """(events, state) of one deal played to the end by bots of ``levels`` (one per seat)."""
    bots = [make_bot(level, bot_seed * 4 + i) for i, level in enumerate(levels)]
    return play(
        GAME,
        view_from_state,
        bots,
        deal_id=server_seed.hex()[:16],
        seats=[f"bot:{x}" for x in levels],
        server_seed=server_seed,
        client_seed=client_seed,
        fixed_deck=fixed_deck,
        fixed_dealer=fixed_dealer,
        max_steps=max_steps,
    )
