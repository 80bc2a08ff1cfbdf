"""The deal's dealer and deck (MC-2.1, MC-2.2): a fixed deck or dealer if the deal names one,
else both from the deal seed."""

from __future__ import annotations

from domain.mcr.seats import SEATS
from domain.mcr.state import State
from domain.mcr.tiles import DECK_SIZE
from domain.shuffle import dealer_and_deck
from domain.table.seeds import deal_seed


def dealer_of(s: State, client_seed: str, client_seeds: list[str] | None) -> int:
    if s.fixed_dealer is not None:
        return s.fixed_dealer
    seed = deal_seed(s.server_seed, client_seed, client_seeds)
    return dealer_and_deck(seed, DECK_SIZE, SEATS)[0]


def deck_of(s: State, client_seed: str, client_seeds: list[str] | None) -> list[int]:
    if s.fixed_deck is not None:
        return list(s.fixed_deck)
    seed = deal_seed(s.server_seed, client_seed, client_seeds)
    return dealer_and_deck(seed, DECK_SIZE, SEATS)[1]
