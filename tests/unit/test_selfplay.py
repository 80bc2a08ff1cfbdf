"""``domain.selfplay.play_deal``: the one loop every in-memory bot deal goes through."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
import pytest

from domain.game import DealCreated, SeedRevealed, StartDeal, get_game
from domain.selfplay import DealStalled, Step, play_deal
from service.app.games import kit

SEATS = {"paohuzi": 3, "mcr": 4}
_enc = msgspec.json.Encoder()


class SeatChecker:
    """A greedy bot that records every view it is given (to check it is its own seat's)."""

    def __init__(self, bot: Any, seat: int, seen: list[tuple[int, int | None]]) -> None:
        self.bot, self.seat, self.seen = bot, seat, seen

    def choose(self, view: Any) -> Any:
        self.seen.append((self.seat, view.seat))
        return self.bot.choose(view)


def deal(game_name: str, n: int, **kw: Any) -> tuple[list[Any], Any]:
    k = kit(game_name)
    bots = kw.pop("bots", None) or [k.make_bot("greedy", n * 10 + s) for s in range(SEATS[game_name])]
    seed = hashlib.sha256(f"selfplay:{game_name}:{n}".encode()).digest()
    return play_deal(k.game, k.projections.view_from_state, bots, deal_id=f"s{n}", server_seed=seed, **kw)


@pytest.mark.parametrize("game_name", ["paohuzi", "mcr"])
def test_a_deal_is_played_to_its_end_and_is_the_fold_of_its_events(game_name: str) -> None:
    game = get_game(game_name)
    for n in range(4):
        events, state = deal(game_name, n, client_seed=f"c{n}")
        assert isinstance(events[0], DealCreated) and isinstance(events[-1], SeedRevealed)
        assert events[0].seats == ["bot"] * SEATS[game_name]
        assert game.is_over(state)
        assert game.fold(events) == state
        again, _ = deal(game_name, n, client_seed=f"c{n}")
        assert [_enc.encode(e) for e in again] == [_enc.encode(e) for e in events]
        other, _ = deal(game_name, n, client_seed="another")
        assert [_enc.encode(e) for e in other] != [_enc.encode(e) for e in events]


@pytest.mark.parametrize("game_name", ["paohuzi", "mcr"])
def test_every_bot_sees_only_its_own_seat_view_and_the_hook_sees_every_command(game_name: str) -> None:
    k = kit(game_name)
    seen: list[tuple[int, int | None]] = []
    bots = [SeatChecker(k.make_bot("greedy", s), s, seen) for s in range(SEATS[game_name])]
    steps: list[Step] = []
    events, state = deal(
        game_name, 1, bots=bots, on_step=steps.append, seats=["a", "b", "c", "d"][: len(bots)]
    )
    assert events[0].seats == ["a", "b", "c", "d"][: len(bots)]
    assert seen and all(seat == view_seat for seat, view_seat in seen)
    assert len(seen) == len(steps) - 1  # every command but the StartDeal came from a bot
    assert isinstance(steps[0].command, StartDeal) and steps[0].view is None
    assert [s.number for s in steps] == list(range(len(steps)))
    assert steps[-1].after is state and len(steps[-1].log) == len(events)
    for prev, step in zip(steps, steps[1:], strict=False):
        assert step.before is prev.after  # one state to the next, nothing evolved in between
        assert step.view.seat == step.seat and step.command.seat == step.seat
        assert step.command in k.game.legal_actions(step.before, step.seat)
    assert sum(len(s.events) for s in steps) == len(events) - 1  # all but DealCreated


def test_fixed_deck_dealer_and_start_seat_reach_the_deal() -> None:
    game = get_game("mcr")
    deck = list(range(game.deck_size))[::-1]
    events, _ = deal("mcr", 2, fixed_deck=deck, fixed_dealer=3, start_seat=2)
    assert events[0].fixed_deck == deck and events[0].fixed_dealer == 3
    assert events[1].dealer == 3
    steps: list[Step] = []
    deal("mcr", 2, fixed_deck=deck, fixed_dealer=3, start_seat=2, on_step=steps.append)
    assert steps[0].command == StartDeal(seat=2, client_seed="")


def test_a_deal_that_does_not_end_within_the_step_limit_stalls() -> None:
    with pytest.raises(DealStalled, match="did not end after 5 bot commands"):
        deal("paohuzi", 3, max_steps=5)
    with pytest.raises(ValueError, match="needs 4 bots"):
        deal("mcr", 3, bots=[kit("mcr").make_bot("greedy", 0)] * 3)
