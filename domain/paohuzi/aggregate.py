"""The Paohuzi aggregate, one name for the modules it is made of (kept for the code that
imports ``domain.paohuzi.aggregate``):

- ``changes``: state changes, ``evolve`` and ``fold``;
- ``win_eval``: the best winning split of a seat (PH-4);
- ``options``: what each seat may claim on the table card, priority levels, claim order (PH-6);
- ``queries``: ``legal_actions``, ``seats_to_act``, ``is_over``;
- ``decide``: ``decide`` / ``execute``, accepting exactly ``legal_actions``; ``forced``: the
  steps the rules take by themselves after a command; ``refusals``: the rule a refusal cites.
"""

from __future__ import annotations

from domain.paohuzi.changes import evolve, fold, initial_state
from domain.paohuzi.decide import canonical, decide, execute
from domain.paohuzi.options import (
    _CHI_MEMO,
    LEVEL,
    Options,
    _chi_search,
    chi_choices,
    claim_order,
    compute_options,
    window_options,
)
from domain.paohuzi.queries import chi_choice, is_legal, is_over, legal_actions, seats_to_act
from domain.paohuzi.refusals import refusal
from domain.paohuzi.state import State
from domain.paohuzi.win_eval import WinEval, evaluate_win, meld_huxi

__all__ = [
    "LEVEL",
    "Options",
    "State",
    "WinEval",
    "_CHI_MEMO",
    "_chi_search",
    "canonical",
    "chi_choice",
    "chi_choices",
    "claim_order",
    "compute_options",
    "decide",
    "evaluate_win",
    "evolve",
    "execute",
    "fold",
    "initial_state",
    "is_legal",
    "is_over",
    "legal_actions",
    "meld_huxi",
    "refusal",
    "seats_to_act",
    "window_options",
]
