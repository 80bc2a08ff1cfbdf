"""An unknown MCR bot level is a ``RuleViolation`` (DS-1) naming the levels there are; the HTTP
layer refuses an unknown ``bot:<level>`` seat earlier, with DS-5 (``service/app/commands/deals.py``)."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from service.app.games import kit


def test_an_unknown_bot_level_is_refused_with_ds1_naming_the_known_ones() -> None:
    with pytest.raises(RuleViolation) as err:
        kit("mcr").make_bot("godlike", 1)
    assert err.value.rule_id == "DS-1"
    assert "'godlike'" in err.value.message and "greedy, random, strong" in err.value.message
