"""The deal's start (MC-2): dealer and winds, 14 tiles to the dealer and 13 to the others, then
every flower shown and replaced."""

from __future__ import annotations

from domain.mcr.draws import replace_flower
from domain.mcr.messages import DealStarted, TilesDealt
from domain.mcr.run import Run
from domain.mcr.seats import PREVAILING_WIND, SEATS
from domain.mcr.tiles import FIRST_FLOWER
from domain.mcr.wall import dealer_of


def start(run: Run, client_seed: str, client_seeds: list[str] | None) -> None:
    s = run.s
    dealer = dealer_of(s, client_seed, client_seeds)
    # MC-2.3: East, or in a match the wind of the hand's round (MC-6.2), from its DealCreated
    prevailing = s.prevailing_wind if s.prevailing_wind else PREVAILING_WIND
    winds = [(p - dealer) % SEATS for p in range(SEATS)]
    run.emit(
        DealStarted(
            dealer=dealer,
            client_seed=client_seed,
            prevailing_wind=prevailing,
            seat_winds=winds,
            client_seeds=client_seeds,
        )
    )
    order = [(dealer + i) % SEATS for i in range(SEATS)]
    pos = 0
    for p in order:
        n = 14 if p == dealer else 13
        run.emit(TilesDealt(seat=p, tiles=s.wall[pos : pos + n]))
        pos += n
    for p in order:  # MC-2.4: flowers shown and replaced, dealer first then in turn order
        for t in sorted(x for x in s.hands[p] if x >= FIRST_FLOWER):
            if not replace_flower(run, p, t):
                return
