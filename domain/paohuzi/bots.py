"""The Paohuzi bot levels: ``random``, ``greedy`` (``basic_bots``) and ``strong`` (the
determinized rollouts of ``domain.paohuzi.strong``). They read one seat view (never the state)
and return one of its legal actions."""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.paohuzi.basic_bots import GreedyBot, RandomBot
from domain.paohuzi.strong import StrongBot

BOTS = {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot}


def make_bot(level: str, seed: int = 0) -> RandomBot | GreedyBot | StrongBot:
    """The bot of ``level``; an unknown level is refused as in MCR (DS-1; the HTTP layer refuses
    an unknown ``bot:<level>`` seat before, with DS-5)."""
    try:
        return BOTS[level](seed)
    except KeyError:
        known = ", ".join(sorted(BOTS))
        raise RuleViolation("DS-1", f"unknown bot level {level!r}; known: {known}") from None
