"""The whole-deal property tests of tests/unit at their full example counts.

tests/unit runs them on fewer examples so that the unit tests stay quick; here the same test
bodies (hypothesis's ``inner_test``) over the same strategies run at the counts they had there:
250 Paohuzi deals for each of three properties, 3,000 hands for the chi look-up, 25 MCR deals.
Nothing about them needs a server; they are here for their time (about 12 s of one core)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from tests.unit.mcr import test_mcr_properties as mcr
from tests.unit.paohuzi import test_paohuzi_properties as ph

pytestmark = pytest.mark.slow


def _full(test: Any, examples: int, *args: Any, derandomize: bool = False, **kwargs: Any) -> Any:
    """``test``'s body under ``given(*args, **kwargs)`` with ``examples`` examples."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=derandomize,
        suppress_health_check=[HealthCheck.too_slow],
    )(given(*args, **kwargs)(test.hypothesis.inner_test))


test_paohuzi_whole_deal_ends_and_fold_equals_stepwise_state = _full(
    ph.test_whole_deal_ends_and_fold_equals_stepwise_state, 250, ph.deals
)
test_paohuzi_every_card_in_exactly_one_place_and_PH_4_3_holding_count = _full(
    ph.test_every_card_in_exactly_one_place_and_PH_4_3_holding_count, 250, ph.deals
)
test_paohuzi_replay_gives_byte_identical_events = _full(
    ph.test_replay_gives_byte_identical_events, 250, ph.deals
)
test_PH_6_5_chi_choices_shortcut_agrees_with_the_full_search = _full(
    ph.test_PH_6_5_chi_choices_shortcut_agrees_with_the_full_search, 3000, **ph.CHI_HANDS
)
test_mcr_whole_deals_conserve_fold_replay_and_hide = _full(
    mcr.test_whole_deals_conserve_fold_replay_and_hide, 25, derandomize=True, **mcr.DEAL_ARGS
)


def test_mcr_regular_useful_equals_the_calculator_on_many_more_hands() -> None:
    """The unit test's comparison of the suit-table search with the fan calculator, ten times
    over: 150,000 random hands, 150,000 ready or nearly ready ones, 200 greedy deals."""
    from tests.unit.mcr import test_mcr_regular_shanten as rs

    assert rs._mismatches(rs.random_hands(150_000, 11)) == []
    assert rs._mismatches(rs.near_complete_hands(150_000, 12)) == []
    assert rs._mismatches(rs._selfplay_hands("greedy", 200)) == []
