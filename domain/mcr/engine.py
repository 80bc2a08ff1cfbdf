"""The MCR engine, one name for the modules it is made of (kept for the code that imports
``domain.mcr.engine``; rules in docs/rules/mcr.md, rulesets in ``rulesets``):

- ``changes``: state changes, ``evolve`` and ``fold``; ``wall``: the deal's dealer and deck;
- ``wins``: the facts a win is scored on, whether it is legal now, payments (MC-4);
- ``options``: each seat's claims on a tile and how a window resolves (MC-3.2, MC-3.4, MC-3.7);
- ``queries``: ``legal_actions``, ``seats_to_act``, ``is_over``, the default move (TB-2.5);
- ``decide``: ``decide`` / ``execute``, accepting exactly ``legal_actions``, with the steps a
  command sets going: ``dealing`` (MC-2), ``draws`` (the wall), ``claims`` (windows),
  ``kongs`` (MC-3.3), ``winning`` (``HandWon``); ``refusals``: the rule a refusal cites.
"""

from __future__ import annotations

from domain.mcr.changes import evolve, fold
from domain.mcr.decide import decide, execute
from domain.mcr.options import (
    PRIORITY,
    best_claim,
    claim_options,
    claim_order,
    expected_resolution,
    has_claim,
    win_only,
    window_options,
)
from domain.mcr.queries import default_move, is_over, legal_actions, seats_to_act
from domain.mcr.seats import PREVAILING_WIND, SEATS
from domain.mcr.wins import evaluate_win, packs_of, payments, visible_copies, win_facts

_packs = packs_of  # the name the scoring tests know

__all__ = [
    "PREVAILING_WIND",
    "PRIORITY",
    "SEATS",
    "_packs",
    "best_claim",
    "claim_options",
    "claim_order",
    "decide",
    "default_move",
    "evaluate_win",
    "evolve",
    "execute",
    "expected_resolution",
    "fold",
    "has_claim",
    "is_over",
    "legal_actions",
    "packs_of",
    "payments",
    "seats_to_act",
    "visible_copies",
    "win_facts",
    "win_only",
    "window_options",
]
