"""Botzone's Chinese Standard Mahjong (issue 25): tile codes, the judge's reading of a match, the
seat view rebuilt from a request history, our deals as matches and back, bad requests."""

from __future__ import annotations

import pytest

from domain.mcr.bots import make_bot
from domain.mcr.botzone.codes import BotzoneError, Ids, NotTranslatable, check_code, code_of, judge_text
from domain.mcr.botzone.referee import Referee
from domain.mcr.botzone.tracker import SeatTracker, safe_answer
from domain.mcr.botzone.translation import match_of_deal, play_match, read_match
from domain.mcr.messages import Claim
from domain.mcr.tiles import DECK_SIZE, FIRST_FLOWER, KIND_CODES
from service.app.games import kit
from service.cli.play import play_one

K = kit("mcr")


def _deal(i: int, levels=("greedy", "greedy", "random", "strong")):
    seed = bytes([i % 256, i // 256 % 256]) * 16
    return play_one("mcr", list(levels), seed)[1]


def _exportable(n: int, start: int = 0):
    out = []
    i = start
    while len(out) < n:
        events = _deal(i)
        i += 1
        try:
            out.append((events, match_of_deal(events, f"d{i}")))
        except NotTranslatable:
            continue
    return out


def test_tile_codes_round_trip():
    for t in range(DECK_SIZE):
        code = code_of(t)
        assert check_code(code, "x") == code
        if t >= FIRST_FLOWER:
            assert code == f"H{t - FIRST_FLOWER + 1}"
        else:
            assert KIND_CODES.index(code) == t >> 2
    ids = Ids()
    assert sorted(ids.take(code_of(t), "x") for t in range(DECK_SIZE)) == list(range(DECK_SIZE))
    for bad in ("W0", "Z1", "w1", "H9", "F5", "J4", ""):
        with pytest.raises(BotzoneError, match="unknown tile code"):
            check_code(bad, "request 3")


def test_a_fifth_copy_is_an_error():
    ids = Ids()
    for _ in range(4):
        ids.take("W1", "x")
    with pytest.raises(BotzoneError, match="fifth W1"):
        ids.take("W1", "request 9")


def _norm(view, rotate: int = 0) -> dict:
    """A seat view with codes for ids (the copies of a kind are numbered apart on each side)."""
    c = code_of
    seats = []
    for p in view.seats:
        seats.append(
            {
                "wind": p.wind,
                "hand_count": p.hand_count,
                "flowers": sorted(c(t) for t in p.flowers),
                "melds": [
                    (
                        m.kind,
                        sorted(c(t) for t in m.tiles),
                        c(m.card) if m.card is not None else None,
                        m.from_seat,
                    )
                    for m in p.melds
                ],
                "concealed_kongs": p.concealed_kongs,
                "discards": [c(t) for t in p.discards],
            }
        )
    w = view.window
    return {
        "seat": view.seat,
        "phase": view.phase,
        "turn": view.turn,
        "wind": view.prevailing_wind,
        "wall_count": view.wall_count,
        "hand": sorted(c(t) for t in view.hand),
        "drawn": c(view.drawn) if view.drawn is not None else None,
        "seats": seats,
        "window": (c(w.card), w.source, w.source_seat, w.eligible) if w is not None else None,
        "drawn_replacement": view.drawn_replacement,
    }


def _legal(view) -> set[str]:
    card = view.window.card if view.window is not None else None
    return {judge_text(a, card) for a in view.legal_actions}


def test_request_histories_give_our_engines_seat_view():
    """Whole deals our engine played, turned into each seat's Botzone requests: at every
    decision, the view rebuilt from the requests is the engine's own view of that seat, and
    the answers the judge accepts are the engine's legal actions (away from the wall's end,
    where the two read the rules differently, docs/botzone.md)."""
    from projections.mcr import view_from_state

    checked = legal_checked = 0
    for _events, match in _exportable(6):
        del match["dealstream"]  # seat j is judge player j (dealer 0)
        imp = read_match(match)
        created = K.game.create(
            deal_id="x",
            seats=["bot"] * 4,
            server_seed=b"\0" * 32,
            fixed_deck=imp.deck,
            fixed_dealer=imp.dealer,
        )
        decisions: dict[int, list] = {}

        def hook(r, cmd, state, decisions=decisions):
            if r >= 2:
                decisions.setdefault(r, []).append((cmd.seat, view_from_state(state, cmd.seat)))

        play_match(imp, K.game.fold(created), K.game.execute, hook)
        trackers = [SeatTracker() for _ in range(4)]
        log = match["log"]
        for r in range(len(imp.rounds)):
            reqs, answers = log[2 * r]["output"]["content"], log[2 * r + 1]
            for seat, tr in enumerate(trackers):
                tr.request(reqs[str(seat)])
                for s2, engine_view in decisions.get(r, []):
                    if s2 != seat:
                        continue
                    mine, acts = tr.view()
                    if (
                        engine_view.phase == "turn"
                        and engine_view.hand != sorted(engine_view.hand)
                        or (mine.phase == "claim" and engine_view.phase == "turn")
                    ):
                        said = answers[str(seat)]["response"]
                        claim = next(a for a, t in acts if type(a) is Claim and said.startswith(t + " "))
                        mine = tr.after_claim(claim)
                    assert _norm(mine) == _norm(engine_view), (r, seat)
                    checked += 1
                    if engine_view.wall_count > 12 and mine.phase == engine_view.phase:
                        assert _legal(mine) == _legal(engine_view), (r, seat)
                        legal_checked += 1
                tr.response(answers[str(seat)]["response"])
    assert checked > 200 and legal_checked > 150


def _referee_game(seed: int, levels, with_flowers: bool) -> Referee:
    import random

    from domain.mcr.tiles import FLOWER_CODES

    tiles = [c for c in KIND_CODES for _ in range(4)] + (list(FLOWER_CODES) if with_flowers else [])
    random.Random(seed).shuffle(tiles)
    ref = Referee(" ".join(tiles), seed % 4)
    trackers = [SeatTracker() for _ in range(4)]
    bots = [make_bot(lv, seed + i) for i, lv in enumerate(levels)]
    while (content := ref.requests()) is not None:
        answers = []
        for tr, bot, req in zip(trackers, bots, content, strict=True):
            tr.request(req)
            said, failure = safe_answer(tr, bot)
            assert failure is None
            tr.response(said)
            answers.append(said)
        ref.respond(answers)  # raises Penalty on anything the judge punishes
    return ref


@pytest.mark.parametrize("with_flowers", [True, False])
def test_the_answer_is_always_one_the_judge_accepts(with_flowers):
    """Whole games under our statement of the judge's reading, to the wall's end: no penalty,
    with the 144-tile wall of our exports and the judge's own 136 tiles without flowers."""
    ends = []
    for seed in range(12):
        ref = _referee_game(seed, ("random", "greedy", "random", "greedy"), with_flowers)
        ends.append(ref.outcome.kind)
    assert set(ends) <= {"HU", "HUANG"} and "HUANG" in ends  # some games reach the wall's end


def test_malformed_requests_name_the_request():
    cases = [
        (["1 0 0 0 0"], "request 1: the first request must be '0 <seat> <wind>'"),
        (["0 0 7"], "request 1: no prevailing wind 7"),
        (["0 0 0", "1 0 0 0 0 W1 W2 W3"], "request 2: the second request deals the hands"),
        (["0 0 0", "1 0 0 0 0 W1 W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9"], "request 2: a fifth W1"),
        (
            ["0 0 0", "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4", "2 X5"],
            "request 3: unknown tile code 'X5'",
        ),
        (
            ["0 0 0", "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4", "3 2 DRAW"],
            "request 3: seat 2 may not draw",
        ),
        (["0 0 0", "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4", "3 0 FLY W1"], "request 3"),
        (["0 0 0", "hello"], "request 2: not a Chinese Standard Mahjong request"),
    ]
    for requests, message in cases:
        tr = SeatTracker()
        with pytest.raises(BotzoneError) as err:
            for i, r in enumerate(requests):
                tr.request(r)
                if i < len(requests) - 1:
                    tr.response("PASS")
        assert message in str(err.value), (requests, str(err.value))


def test_a_match_with_a_punished_response_is_refused_naming_entry_and_seat():
    _events, match = _exportable(1)[0]
    log = match["log"]
    k = next(k for k in range(5, len(log), 2) if log[k]["1"]["response"] == "PASS")
    log[k]["1"]["response"] = "HU"
    with pytest.raises(BotzoneError, match=f"log entry {k}, seat 1: the judge punishes"):
        read_match(match)
