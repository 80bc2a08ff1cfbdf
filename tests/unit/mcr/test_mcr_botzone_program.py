"""A Botzone program at our MCR tables (issue 25, docs/bots.md): the judge's requests for a seat
made from our deal's events, and the program's answers read by ``mcr/2``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.mcr.botzone.codes import code_of
from domain.mcr.botzone.program import SeatTranslation, seat_history, simple_input
from domain.mcr.botzone.tracker import SeatTracker
from domain.mcr.messages import AddedKong, Claim, ConcealedKong, DeclareWin, Discard, Pass
from domain.mcr.tiles import KIND_CODES
from domain.selfplay import play_deal
from service.app.games import kit
from service.cli.botzone import Player, _history

K = kit("mcr")


class InProcessProgram:
    """``dealstream botzone`` as a Botzone program, in this process, behind a ``SeatTranslation``
    as the runner drives one: ``known``, else ``inputs`` (a fresh process's whole history or, for
    a long-running one, each request it missed with the answer expected), the program's answers,
    ``command``."""

    def __init__(self, seat: int, level: str = "greedy", keep_running: bool = False) -> None:
        self.t = SeatTranslation(seat)
        self.level = level
        self.keep_running = keep_running
        self.events: list[Any] = []
        self.state: Any = None
        self.asked = 0
        self.texts: list[str] = []
        self.player: Player | None = None

    def choose(self, view: Any) -> Any:
        known = self.t.known(self.state)
        if known is not None:
            assert known in view.legal_actions
            return known
        fresh = not self.keep_running or self.asked == 0
        inputs = self.t.inputs(self.events, fresh)
        self.texts += [text for _, text, _ in inputs]
        self.asked += 1
        if fresh:
            ((_, text, expected),) = inputs
            assert expected is None
            reqs, resps, as_json = _history(text)
            assert not as_json
            self.player = Player(self.level)
            self.player.replay(reqs, resps)
            answer = self.player.answer()
        else:
            assert self.player is not None
            for _, text, expected in inputs:
                assert text.endswith("\n") and text.count("\n") == 1 and not text.startswith("{")
                self.player.request(text.strip())
                answer = self.player.answer()
                if expected is not None:
                    assert self.t.response(answer) == expected, (text, answer)
        command = self.t.command(answer, self.state)
        assert command in view.legal_actions
        return command


def _play(levels: list[Any], seed: int) -> tuple[list[Any], Any, list[Any]]:
    """``levels``: (level, keep running) of a program seat, or None for our own greedy bot."""
    bots = [K.make_bot("greedy", seed * 4 + i) if lv is None else InProcessProgram(i, *lv)
            for i, lv in enumerate(levels)]  # fmt: skip

    def view(state: Any, seat: int) -> Any:
        if isinstance(bots[seat], InProcessProgram):
            bots[seat].state = state
        return K.projections.view_from_state(state, seat)

    def on_step(step: Any) -> None:
        for b in bots:
            if isinstance(b, InProcessProgram):
                b.events = step.log

    events, state = play_deal(
        K.game, view, bots, deal_id="bz", server_seed=bytes([seed, 7]).ljust(32, b"."), on_step=on_step
    )
    assert K.game.is_over(state)
    return events, state, bots


@pytest.mark.parametrize("seed", range(4))
def test_every_decision_gets_the_history_the_judge_would_send(seed):
    """At each decision of a deal, the seat's requests are read by our own reading of the judge's
    protocol (the request order, the tiles, four copies of a kind) and give the seat its hand."""
    seen = 0
    log: list[Any] = []

    class Check:
        def __init__(self, seat: int) -> None:
            self.bot = K.make_bot("greedy", seed * 4 + seat)

        def choose(self, view: Any) -> Any:
            nonlocal seen
            if not (view.phase == "turn" and K.game.fold(log).must_discard):
                reqs, resps = seat_history(log, view.seat)
                assert len(reqs) == len(resps) + 1
                tracker = SeatTracker()
                for i, r in enumerate(reqs):
                    tracker.request(r)
                    if i < len(resps):
                        tracker.response(resps[i])
                assert sorted(code_of(t) for t in tracker.s.hands[tracker.me]) == sorted(
                    code_of(t) for t in view.hand
                )
                seen += 1
            return self.bot.choose(view)

    def on_step(step: Any) -> None:
        log[:] = step.log

    play_deal(
        K.game, K.projections.view_from_state, [Check(i) for i in range(4)], deal_id="h",
        server_seed=bytes([seed, 3]).ljust(32, b"."), on_step=on_step,
    )  # fmt: skip
    assert seen > 20


def test_the_dealer_is_judge_player_zero_and_its_fourteenth_tile_its_first_draw():
    events = K.game.create(deal_id="d", seats=["bot"] * 4, server_seed=b"w" * 32)
    from domain.game import StartDeal

    state = K.game.fold(events)
    more, state = K.game.execute(state, StartDeal(seat=0, client_seed=""))
    events += more
    dealer = state.dealer
    for seat in range(4):
        reqs, resps = seat_history(events, seat)
        assert reqs[0] == f"0 {(seat - dealer) % 4} {state.prevailing_wind}"
        assert reqs[1].startswith("1 ") and set(resps) == {"PASS"}
        if seat == dealer:
            assert reqs[2] == f"2 {code_of(state.last_tile)}" and len(resps) == 2
        else:
            assert reqs[2] == "3 0 DRAW" and len(resps) == 3  # no decision: the dealer's move comes first


@pytest.mark.parametrize("keep_running", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_dealstream_botzone_plays_whole_deals_through_the_translation(seed, keep_running):
    levels = [("greedy", keep_running), None, ("strong", keep_running), ("random", keep_running)]
    _, _, bots = _play(levels, seed)
    programs = [b for b in bots if isinstance(b, InProcessProgram)]
    assert all(b.asked for b in programs)
    for b in programs:
        fresh = [t.split("\n", 1)[0].isdigit() for t in b.texts]
        assert fresh[0] and (all(fresh) != keep_running or len(fresh) == 1)


def test_the_fresh_input_is_the_simple_interaction():
    """The turn count, request, response, ..., request, then the data line (what the program
    saved last, here nothing) and the globaldata line."""
    assert simple_input(["0 1 0", "1 0 0 0 0 W1", "3 0 DRAW"], ["PASS", "PASS"]) == (
        "3\n0 1 0\nPASS\n1 0 0 0 0 W1\nPASS\n3 0 DRAW\n\n\n"
    )
    assert simple_input(["0 1 0"], [], data="seen 1") == "1\n0 1 0\nseen 1\n\n"


# --- answers mcr/2 refuses are refusals (the runner plays the default move, with the reason) --------
def _state_where(pred, limit: int = 40) -> tuple[Any, int, list[Any]]:
    """The first state of seeded greedy deals where ``pred(state, seat)`` holds for a seat to act."""
    for n in range(limit):
        found = _scan(n, pred)
        if found:
            return found[0]
    raise AssertionError("no such state")


def _scan(n: int, pred: Any) -> list[Any]:
    found: list[Any] = []
    log: list[Any] = []

    class Bot:
        def __init__(self, seat: int) -> None:
            self.bot = K.make_bot("greedy", n * 4 + seat)

        def choose(self, view: Any) -> Any:
            s = K.game.fold(log)
            if not found and pred(s, view.seat):
                found.append((s, view.seat, list(log)))
            return self.bot.choose(view)

    def on_step(step: Any) -> None:
        log[:] = step.log

    play_deal(
        K.game, K.projections.view_from_state, [Bot(i) for i in range(4)], deal_id="s",
        server_seed=bytes([n, 9]).ljust(32, b"."), on_step=on_step,
    )  # fmt: skip
    return found


def _asked(state: Any, seat: int, events: list[Any]) -> SeatTranslation:
    t = SeatTranslation(seat)
    assert t.known(state) is None
    t.inputs(events, True)
    return t


def test_a_turn_answer_becomes_our_command_and_a_bad_one_a_refusal():
    s, seat, events = _state_where(lambda s, p: s.phase == "turn" and not s.must_discard)
    t = _asked(s, seat, events)
    drawn = code_of(s.last_tile)
    assert t.command(f"PLAY {drawn}", s) == Discard(seat=seat, tile=s.last_tile)  # the drawn copy first
    assert t.command(json.dumps({"response": f"PLAY {drawn}"}), s) == Discard(seat=seat, tile=s.last_tile)
    absent = next(c for c in KIND_CODES if all(code_of(x) != c for x in s.hands[seat]))
    for bad, why in [
        (f"PLAY {absent}", "no legal move"),
        ("HU", "not a self-drawn win mcr/2 accepts"),
        ("PASS", "does not answer"),
        (f"GANG {drawn}", "no legal move"),
        ("PLAY Z9", "no legal move"),
        ("", "no Botzone response"),
        ('{"respons": 1}', "no 'response'"),
    ]:
        with pytest.raises(ValueError, match=why):
            t.command(bad, s)
    assert type(t.command(f"PLAY {drawn}", s)) is Discard
    assert all(
        type(a) in (Discard, DeclareWin, ConcealedKong, AddedKong) for a in K.game.legal_actions(s, seat)
    )


def test_a_pung_names_its_discard_which_is_played_without_asking_again():
    def pungable(s, p):
        return s.phase == "claim" and any(
            type(a) is Claim and a.claim == "pung" for a in K.game.legal_actions(s, p)
        )

    s, seat, events = _state_where(pungable)
    t = _asked(s, seat, events)
    claim = next(a for a in K.game.legal_actions(s, seat) if type(a) is Claim and a.claim == "pung")
    rest = list(s.hands[seat])
    for x in claim.tiles:
        rest.remove(x)
    keep = code_of(rest[0])
    absent = next(c for c in KIND_CODES if all(code_of(x) != c for x in rest))
    with pytest.raises(ValueError, match=f"no {absent} in hand after the claim"):
        t.command(f"PENG {absent}", s)
    with pytest.raises(ValueError, match="names the discard"):
        t.command("PENG", s)
    assert t.command(f"PENG {keep}", s) == claim
    _, after = K.game.execute(s, claim)
    while after.phase == "claim":  # the other seats of the window pass
        other = next(p for p in after.window.eligible if p not in after.window.answers)
        more, after = K.game.execute(after, Pass(seat=other, window=after.window.window))
    if after.phase == "turn" and after.turn == seat and after.must_discard:
        d = t.known(after)
        assert type(d) is Discard and code_of(d.tile) == keep
        assert t.known(after) is None  # only once


def test_a_win_the_judge_might_accept_but_mcr2_does_not_is_refused_with_the_rule():
    s, seat, events = _state_where(lambda s, p: s.phase == "claim" and s.window.source == "discard")
    t = _asked(s, seat, events)
    legal = K.game.legal_actions(s, seat)
    assert t.command("PASS", s) == Pass(seat=seat, window=s.window.window)
    if not any(type(a) is Claim and a.claim == "win" for a in legal):
        with pytest.raises(ValueError, match="MC-4.3"):
            t.command("HU", s)
    with pytest.raises(ValueError, match="does not answer"):
        t.command("PLAY W1", s)
