"""The MCR rulesets as objects: what each one changes, by name and rule id (docs/rules/mcr.md).

A deal names its ruleset once, in ``DealCreated.ruleset`` (``"mcr/1"``, ``"mcr/2"``); that text
stays the wire format. The engine asks the ruleset object the state names (``State.rules``)
instead of comparing the text, so a rule that holds "from ``mcr/2`` on" is one flag on the class
that introduced it, inherited by every later ruleset.
"""

from __future__ import annotations

from typing import ClassVar

from domain.errors import RuleViolation


class MCR1:
    """``mcr/1``: the rules as first played; every later ruleset is a subclass."""

    __slots__ = ()  # no instance state: a ruleset is its class attributes, shared and unchangeable

    name: ClassVar[str] = "mcr/1"
    # MC-3.7: the discard made after the wall's last draw can be claimed only to win on it.
    last_discard_only_for_a_win: ClassVar[bool] = False
    # MC-4.6: a tile drawn to replace a flower is no kong replacement, so a win on it scores
    # without Out with Replacement Tile (under mcr/1 it kept the kong's bonus).
    flower_replacement_is_no_kong_replacement: ClassVar[bool] = False

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class MCR2(MCR1):
    """``mcr/2``: ``mcr/1`` with MC-3.7 and MC-4.6."""

    __slots__ = ()

    name: ClassVar[str] = "mcr/2"
    last_discard_only_for_a_win: ClassVar[bool] = True
    flower_replacement_is_no_kong_replacement: ClassVar[bool] = True


RULESETS: dict[str, MCR1] = {ruleset.name: ruleset() for ruleset in (MCR1, MCR2)}
CURRENT: MCR1 = RULESETS["mcr/2"]  # the ruleset of new deals


def ruleset_of(name: str) -> MCR1:
    """The ruleset object a deal's ``ruleset`` text names; a name this build lacks is DS-1, as
    ``domain.game.get_ruleset`` refuses such a log before any event is folded."""
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(sorted(RULESETS))
        raise RuleViolation("DS-1", f"this build has no ruleset {name!r}; it decides {known}") from None
