"""The MCR bot levels: ``random`` and ``greedy`` (``basic_bots``) and ``strong`` (the
expected-value search of ``domain.mcr.strong``). They see one seat view only (docs/design.md,
Bots)."""

from __future__ import annotations

from domain.mcr.basic_bots import GreedyBot, RandomBot
from domain.mcr.strong import StrongBot

BOTS = {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot}


def make_bot(level: str, seed: int = 0) -> RandomBot | GreedyBot | StrongBot:
    """The bot of ``level``; an unknown level is refused as in Paohuzi (DS-1; the HTTP layer
    refuses an unknown ``bot:<level>`` seat before, with DS-5)."""
    try:
        return BOTS[level](seed)
    except KeyError:
        from domain.errors import RuleViolation

        known = ", ".join(sorted(BOTS))
        raise RuleViolation("DS-1", f"unknown bot level {level!r}; known: {known}") from None
