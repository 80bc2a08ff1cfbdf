"""``Game.execute`` hands the service the state after a command; it must be the fold, exactly.

The service keeps that state instead of evolving its own copy, so any field the engine sets
on the way that evolving the events would not set (or a stale cache) would make two service
processes disagree about one deal. Each step of many bot deals (played by the self-play loop,
which runs on ``execute``) is checked against a fresh fold of the whole log, and the state it
was given must come out unchanged.
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import msgspec
import pytest

from domain.game import get_game
from domain.paohuzi.options import window_options
from domain.selfplay import Step, play_deal
from service.app.games import kit

DEALS = 12


def fields(state: Any) -> dict[str, Any]:
    """Every field of a state except private caches."""
    if isinstance(state, msgspec.Struct):
        return msgspec.structs.asdict(state)
    return {name: getattr(state, name) for name in type(state).__slots__ if not name.startswith("_")}


def options(state: Any) -> dict[int, tuple[Any, ...]]:
    """Paohuzi claim-window options of the seats still to answer, as comparable tuples.

    Only those count: a seat that passed may have been marked chou since the window opened,
    and nothing reads an answered seat's options again (a claimant never passed).
    """
    opts = window_options(state)
    return {
        seat: (o.level, o.pao, o.peng, o.chi, None if o.win is None else (o.win.huxi, repr(o.win.groups)))
        for seat, o in opts.items()
        if seat not in state.answers
    }


@pytest.mark.parametrize("game_name", ["paohuzi", "mcr"])
@pytest.mark.parametrize("level", ["random", "greedy"])
def test_execute_gives_the_fold_and_leaves_its_input_alone(game_name: str, level: str) -> None:
    game = get_game(game_name)
    k = kit(game_name)
    steps = windows = 0
    for deal in range(DEALS):
        seed = hashlib.sha256(f"execute:{game_name}:{level}:{deal}".encode()).digest()
        created = game.create(deal_id=f"x{deal}", seats=["human"] * game.seat_count, server_seed=seed)
        # deep: a shared list changed in place shows; taken when each state is made, so whatever
        # runs on it before the next command (the view, the bot, execute) must leave it alone
        before = copy.deepcopy(fields(game.fold(created)))

        def check(step: Step) -> None:
            nonlocal before, steps, windows
            state, command, events, after = step.before, step.command, step.events, step.after
            assert events == game.decide(state, command)
            assert fields(state) == before, "execute changed the state it was given"
            folded = game.fold(step.log)
            assert fields(after) == fields(folded)
            steps += 1
            if game_name == "paohuzi" and after.phase == "claim":
                assert options(after) == options(folded), "options kept from the window's opening differ"
                windows += 1
            before = copy.deepcopy(fields(after))

        bots = [k.make_bot(level, deal * 10 + s) for s in range(game.seat_count)]
        play_deal(
            game,
            k.projections.view_from_state,
            bots,
            deal_id=f"x{deal}",
            seats=["human"] * game.seat_count,
            server_seed=seed,
            client_seed=f"c{deal}",
            on_step=check,
        )
    assert steps > DEALS * 10
    if game_name == "paohuzi":
        assert windows > DEALS
