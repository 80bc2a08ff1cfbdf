"""The review of a finished deal (projections.review): decisions from the seat's own views only,
each option valued by the game's evaluator, verdicts, byte-for-byte determinism."""

from __future__ import annotations

import functools
import hashlib
import math

import msgspec
import pytest

from domain.envelope import StoredEvent
from domain.mcr.messages import Claim, Discard, Pass
from domain.selfplay import play_stored
from projections import review as rv
from projections.mcr import review as mcr_review
from service.app.analysis.reviews import build
from service.app.games import kit
from tests.reliability.test_leaks import HIDDEN, card_ids


def _log(game: str, levels: list[str], seed: bytes) -> tuple[list[StoredEvent], list]:
    """A bot deal as stored records: each batch's first record carries its command."""
    k = kit(game)
    bots = [k.make_bot(level, i) for i, level in enumerate(levels)]
    return play_stored(k.game, k.projections.view_from_state, bots, deal_id="r", server_seed=seed)


# The MCR evaluator on fewer paired deals than a served review's (up to 96 per option, in rounds of
# 16): one round of 8. Every step of a review still runs (the model's shortlist, the options
# played out on paired deals, the paired noises, the verdicts); a whole deal takes a few seconds
# instead of a minute of one core. Reviews at their served size are measured by ``bench.review``.
QUICK_MCR = functools.partial(mcr_review.evaluate, samples=8)


def _review(game: str, records, events, seat: int, seed: int = 0) -> rv.Review:
    k = kit(game)
    points = rv.points(k.game, k.projections.view_from_state, records, events, seat, k.review.same_play)
    evaluate = QUICK_MCR if game == "mcr" else k.review.evaluate
    scores = rv.evaluate_chunk(points, k.view_type, k.game.command_type, evaluate, seed)
    return build(k.game.ruleset, "r", seat, seed, points, scores)


def test_every_decision_is_seen_from_the_seats_view_then_and_holds_no_hidden_card():
    k = kit("mcr")
    records, events = _log("mcr", ["random", "greedy", "greedy", "greedy"], hashlib.sha256(b"rev1").digest())
    points = rv.points(k.game, k.projections.view_from_state, records, events, 0, k.review.same_play)
    assert len(points) > 5
    state = k.game.initial_state()
    by_version = {0: HIDDEN["mcr"](state, 0)}
    for v, e in enumerate(events, start=1):
        state = k.game.evolve(state, e)
        by_version[v] = HIDDEN["mcr"](state, 0)
    for p in points:
        view = msgspec.json.decode(p.view)
        assert view["seat"] == 0 and view["version"] == p.version
        assert not card_ids(view) & by_version[p.version], p.version  # nothing hidden from seat 0 then
        assert msgspec.json.decode(p.chosen) in view["legal_actions"]


def test_a_choice_between_copies_of_one_tile_is_no_decision():
    """Two legal discards of the same kind play the same: the review does not count them."""
    k = kit("mcr")
    records, events = _log("mcr", ["random", "greedy", "greedy", "greedy"], hashlib.sha256(b"rev1").digest())
    decoder = msgspec.json.Decoder(k.game.command_type)
    discards = {r.version - 1: decoder.decode(r.command) for r in records if r.command}
    discards = {v: c for v, c in discards.items() if isinstance(c, Discard) and c.seat == 0}

    def with_options(twin_of):
        def view_from_state(state, seat):
            view = k.projections.view_from_state(state, seat)
            chosen = discards.get(view.version)
            if seat != 0 or chosen is None:
                return view
            twin = Discard(seat=0, tile=twin_of(chosen.tile))
            return msgspec.structs.replace(view, legal_actions=[chosen, twin])

        return view_from_state

    same_kind = with_options(lambda t: t ^ 1)  # another copy of the kind (kind = id // 4)
    other_kind = with_options(lambda t: (t + 4) % 136)
    assert k.review.same_play(Discard(seat=0, tile=8)) == k.review.same_play(Discard(seat=0, tile=9))
    copies = rv.points(k.game, same_kind, records, events, 0, k.review.same_play)
    kinds = rv.points(k.game, other_kind, records, events, 0, k.review.same_play)
    assert len(discards) > 5
    assert {p.version for p in kinds} >= set(discards)
    assert not {p.version for p in copies} & set(discards)


def test_the_same_deal_seat_and_seed_give_the_same_review_byte_for_byte():
    records, events = _log("mcr", ["random", "greedy", "greedy", "greedy"], hashlib.sha256(b"rev2").digest())
    review = _review("mcr", records, events, 0, seed=5)
    played_out = [d for d in review.decisions if any(o.noise != mcr_review.MODEL_NOISE for o in d.options)]
    assert len(played_out) >= 5  # the rollouts' deals, not only the model's values, are repeated
    first = msgspec.json.encode(review)
    assert first == msgspec.json.encode(_review("mcr", records, events, 0, seed=5))


def test_verdicts_follow_the_floors_and_the_gap_noise():
    actions = [Pass(seat=1, window=0), Claim(seat=1, window=0, claim="pung", tiles=[1, 2])]

    def verdict(scores):
        return rv.judge(3, actions, 1, scores, 0.15, 0.4)

    # with a third play well behind, so the decision is not ``even`` (method m8)
    three = [*actions, Claim(seat=1, window=0, claim="chow", tiles=[1, 2])]

    def verdict3(scores):
        return rv.judge(3, three, 1, [*scores, (0.0, 0.0)], 0.15, 0.4).verdict

    assert verdict3([(1.0, 0.0), (1.0, 0.0)]) == "agrees"  # a tie is the best
    assert verdict3([(1.0, 0.0), (0.9, 0.0)]) == "agrees"  # within the inaccuracy floor
    assert verdict([(1.0, 0.0), (0.9, 0.0)]).verdict == "even"  # both plays within it: no choice
    assert verdict([(1.0, 0.0), (0.7, 0.0)]).verdict == "inaccuracy"
    d = verdict([(1.0, 0.0), (0.2, 0.0)])
    assert (d.verdict, d.rank, d.best, round(d.loss, 3), d.kind) == ("mistake", 2, 0, 0.8, "Claim")
    # a gap the evaluator cannot tell from noise is no mistake, however large it looks, nor an
    # agreement: the review cannot say (method m7)
    assert verdict([(1.0, 0.3), (0.2, 0.3)]).verdict == "unclear"
    assert verdict3([(1.0, 0.3), (0.9, 0.3)]) == "unclear"  # within the floor by value, not surely (m9)
    assert verdict3([(1.0, 0.01), (0.9, 0.01)]) == "agrees"  # surely within the floor


def test_an_agreement_carries_the_noise_of_its_gap_to_the_nearest_other_play():
    # the chosen option is the best: no loss, but no surer than the gap to the runner-up (never a
    # bare "0 ± 0.00" where the values themselves are uncertain, issue 24)
    many = [Discard(seat=1, tile=t) for t in range(5)]
    scores = [(0.2, 0.5), (1.0, 0.3), (0.9, 0.4), (0.1, 2.0), (0.0, 2.0)]
    d = rv.judge(3, many, 1, scores, 0.05, 0.25)
    assert (d.best, d.loss) == (1, 0.0)
    assert d.loss_noise == pytest.approx(0.5)  # hypot(0.3, 0.4): the runner-up's
    assert d.verdict == "unclear"  # 0.1 ahead of it, +- 0.5: not surely within the floor (m9)
    # copies of the chosen tile are the same play, not a rival
    copies = [Discard(seat=1, tile=t) for t in (0, 1, 4)]  # kinds 0, 0, 1
    d = rv.judge(3, copies, 0, [(1.0, 0.3), (1.0, 0.3), (0.5, 0.4)], 0.05, 0.25, kit("mcr").review.same_play)
    assert d.loss_noise == pytest.approx(0.5)


def test_a_paohuzi_mistake_is_at_least_half_a_tun_behind():
    """Method m6 (issue 24): marked Paohuzi mistakes that claimed under half a tun did not lose it
    in strong play (``bench.review_calibration``), so a sure gap of 0.41 tun (the size of one
    that measured -0.23 tun on 192 continuations) is an inaccuracy; 0.6 tun is still a mistake."""
    ph = kit("paohuzi").review
    two = [Pass(seat=1, window=0), Claim(seat=1, window=0, claim="pung", tiles=[1, 2])]
    judged = [
        rv.judge(3, two, 1, [(1.0, 0.05), (1.0 - gap, 0.05)], ph.INACCURACY_FLOOR, ph.MISTAKE_FLOOR).verdict
        for gap in (0.41, 0.6)
    ]
    assert judged == ["inaccuracy", "mistake"]


def test_a_gap_to_the_best_of_many_options_needs_more_noise_to_count():
    """The best of many options is picked by noisy values: the luckiest of 13 equal options looks
    ahead by two noises far more often than the best of two (module doc), so the multiples grow
    with the options compared; copies that score the same are one option."""
    assert rv.noise_multiple(rv.AGREE_P, 1) == pytest.approx(1.96, abs=0.01)
    assert rv.noise_multiple(rv.MISTAKE_P, 1) == pytest.approx(3.0, abs=0.01)
    assert rv.noise_multiple(rv.AGREE_P, 12) == pytest.approx(2.87, abs=0.01)
    two = [Pass(seat=1, window=0), Claim(seat=1, window=0, claim="pung", tiles=[1, 2])]
    # a loss of 2.5 noises: between two options it is no longer noise...
    assert rv.judge(3, two, 1, [(1.0, 0.0), (0.5, 0.2)], 0.05, 0.25).verdict == "inaccuracy"
    # ...against the best of 13 different options it still is: the review cannot tell
    many = [Discard(seat=1, tile=t) for t in range(13)]
    scores = [(1.0, 0.0), (0.5, 0.2)] + [(0.4 - t / 100, 0.2) for t in range(11)]
    assert rv.judge(3, many, 1, scores, 0.05, 0.25).verdict == "unclear"
    # thirteen discards of which ten are copies of the chosen one: three options, 2.24 noises
    copies = [(1.0, 0.0), (0.5, 0.2)] + [(0.5, 0.2)] * 10 + [(0.3, 0.25)]
    assert rv.judge(3, many, 1, copies, 0.05, 0.25).verdict == "inaccuracy"
    # the rank is among distinct plays: two copies of a better tile are one better option, and
    # two tiles of different kinds that score the same are still two plays
    four = [Discard(seat=1, tile=t) for t in (0, 1, 4, 8, 12)]  # kinds 0, 0, 1, 2, 3
    scores4 = [(1.0, 0.0), (1.0, 0.0), (0.8, 0.0), (0.5, 0.0), (0.5, 0.0)]
    ranked = rv.judge(3, four, 3, scores4, 0.05, 0.25, kit("mcr").review.same_play)
    assert (ranked.rank, ranked.choices) == (3, 4)
    # and a gap far beyond every multiple is a mistake however many options there are
    assert rv.judge(3, many, 1, [(2.0, 0.0), (0.5, 0.2)] + scores[2:], 0.05, 0.25).verdict == "mistake"


def test_the_strong_bots_own_seat_agrees_and_a_random_seat_loses_more():
    # issue 24: MCR values are played out with their noise, so a random choice is marked a
    # mistake only when the loss is surely large; what must hold is that the random seat loses
    # more per decision than the strong one (no longer that most of its choices are mistakes)
    strong_loss = random_loss = strong_n = random_n = 0.0
    for i in range(2):
        seed = hashlib.sha256(f"rev-sanity-{i}".encode()).digest()
        records, events = _log("mcr", ["strong", "random", "greedy", "greedy"], seed)
        strong = _review("mcr", records, events, 0).summary
        random_seat = _review("mcr", records, events, 1).summary
        assert strong.agreement >= 0.9, strong
        strong_loss += strong.total_loss
        strong_n += strong.decisions
        random_loss += random_seat.total_loss
        random_n += random_seat.decisions
    assert random_loss / random_n > strong_loss / strong_n


def test_a_play_ranked_last_by_far_that_the_evaluator_cannot_tell_apart_is_unclear_not_agrees():
    """A discard ranked 12 of 12, 9.28 points behind the best, with a gap noise the evaluator cannot
    see through (three of a random seat's MCR decisions looked like this): the review does not know
    it was fine, so it must not say "agrees", nor count it as agreement; it says "unclear"."""
    mcr = kit("mcr").review
    many = [Discard(seat=1, tile=4 * t) for t in range(12)]  # twelve kinds: twelve plays
    scores = [(0.0, 2.5)] + [(-0.5 - 0.7 * t, 3.0) for t in range(10)] + [(-9.28, 2.5)]
    d = rv.judge(3, many, 11, scores, mcr.INACCURACY_FLOOR, mcr.MISTAKE_FLOOR, mcr.same_play)
    assert (d.rank, d.choices, d.loss) == (12, 12, 9.28)
    assert d.loss > mcr.MISTAKE_FLOOR
    assert d.verdict == "unclear"
    summary = rv.summarize([d])
    assert (summary.agreements, summary.agreement, summary.unclear) == (0, 0.0, 1)
    assert (summary.inaccuracies, summary.mistakes) == (0, 0)


def test_only_the_meaning_of_agrees_changed_in_method_m7():
    """m7 (the verdict ``unclear``) moves no decision into or out of ``mistake``, so the marked
    mistakes ``bench.review_calibration`` measured are the same decisions with the same claims;
    every ``agrees`` is within the inaccuracy floor; an ``unclear`` is what m6 called ``agrees``
    beyond that floor. m6's rule is written out here to compare with."""
    import random

    def m6(actions, chosen, scores, inaccuracy_floor, mistake_floor):
        best = max(range(len(actions)), key=lambda i: (scores[i][0], -i))
        if scores[chosen][0] >= scores[best][0]:
            best = chosen
        loss = max(0.0, scores[best][0] - scores[chosen][0])
        noise = rv.judge(0, actions, chosen, scores, inaccuracy_floor, mistake_floor).loss_noise
        others = len(set(scores)) - 1
        if chosen == best or loss <= max(inaccuracy_floor, rv.noise_multiple(rv.AGREE_P, others) * noise):
            return "agrees"
        if loss > max(mistake_floor, rv.noise_multiple(rv.MISTAKE_P, others) * noise):
            return "mistake"
        return "inaccuracy"

    rng = random.Random("m7")
    seen = set()
    for _ in range(4000):
        n = rng.randint(2, 14)
        actions = [Discard(seat=1, tile=4 * t) for t in range(n)]
        scores = [
            (round(rng.gauss(0, 3), 2), round(rng.choice([0.0, rng.uniform(0, 3)]), 2)) for _ in range(n)
        ]
        chosen = rng.randrange(n)
        floors = rng.choice([(0.5, 2.0), (0.05, 0.5)])
        new = rv.judge(0, actions, chosen, scores, *floors)
        old = m6(actions, chosen, scores, *floors)
        seen.add((old, new.verdict))
        assert (new.verdict == "mistake") == (old == "mistake")
        assert new.verdict != "agrees" or new.loss <= floors[0]
        assert new.verdict != "unclear" or old == "agrees"  # beyond the floor, or not surely within (m9)
        if new.verdict == "inaccuracy":
            assert old == "inaccuracy"
    assert {
        ("agrees", "unclear"),
        ("agrees", "agrees"),
        ("mistake", "mistake"),
        ("inaccuracy", "inaccuracy"),
    } <= seen


def test_a_decision_where_every_play_is_within_the_floor_is_even_and_left_out_of_the_agreement():
    """A late MCR discard among tiles the evaluator values within half a point of each other:
    whatever the seat played was as good, so the review cannot agree or disagree with it. It is
    ``even`` (method m8; m7 said "agrees", which credited a random seat with every such decision),
    counted apart and left out of the agreement share; a decision with a play beyond the floor
    is judged as before."""
    mcr = kit("mcr").review
    four = [Discard(seat=1, tile=4 * t) for t in range(4)]  # four kinds: four plays
    flat = [(1.0, 0.8), (0.7, 0.8), (0.6, 0.8), (0.55, 0.8)]  # all within 0.5 points of the best
    even = rv.judge(3, four, 3, flat, mcr.INACCURACY_FLOOR, mcr.MISTAKE_FLOOR, mcr.same_play)
    assert (even.verdict, even.rank, even.choices, even.loss) == ("even", 4, 4, 0.45)
    steep = [(1.0, 0.05), (0.7, 0.05), (0.6, 0.05), (-0.5, 0.2)]  # one play 1.5 points behind: a choice
    agrees = rv.judge(5, four, 1, steep, mcr.INACCURACY_FLOOR, mcr.MISTAKE_FLOOR, mcr.same_play)
    assert agrees.verdict == "agrees"
    missed = rv.judge(7, four, 3, [(1.0, 0.0), (0.7, 0.0), (0.6, 0.0), (-1.5, 0.0)],
                      mcr.INACCURACY_FLOOR, mcr.MISTAKE_FLOOR, mcr.same_play)  # fmt: skip
    assert missed.verdict == "mistake"
    summary = rv.summarize([even, agrees, missed])
    assert (summary.decisions, summary.even, summary.agreements, summary.mistakes) == (3, 1, 1, 1)
    assert summary.agreement == 0.5  # one agreement of the two decisions that were a choice
    assert rv.summarize([even]).agreement == 1.0  # nothing to disagree with


def test_only_even_decisions_changed_in_method_m8():
    """m8 takes from ``agrees`` the decisions whose plays are all within the inaccuracy floor of
    the best and calls them ``even``; every other verdict, loss and rank is m7's."""
    import random

    rng = random.Random("m8")
    seen = set()
    for _ in range(3000):
        n = rng.randint(2, 8)
        actions = [Discard(seat=1, tile=4 * t) for t in range(n)]
        spread = rng.choice([0.04, 0.4, 3.0])
        scores = [(round(rng.uniform(0, spread), 3), round(rng.uniform(0, 0.3), 2)) for _ in range(n)]
        chosen = rng.randrange(n)
        floors = rng.choice([(0.5, 2.0), (0.05, 0.5)])
        d = rv.judge(0, actions, chosen, scores, *floors)
        values = [v for v, _n in scores]
        assert (d.verdict == "even") == (max(values) - min(values) <= floors[0])
        assert d.verdict != "even" or d.loss <= floors[0]  # an even decision was m7's "agrees"
        if d.verdict != "even":  # m7's rule, but an agreement shown by the evaluator (m9)
            z = rv.noise_multiple(rv.AGREE_P, 1)
            shown = all(
                v - values[chosen] + z * math.hypot(n, scores[chosen][1]) <= floors[0]
                for i, (v, n) in enumerate(scores) if i != chosen
            )  # fmt: skip
            assert (d.verdict == "agrees") == shown
        seen.add(d.verdict)
    assert {"even", "agrees", "unclear", "inaccuracy"} <= seen


def test_an_agreement_within_the_floor_is_shown_by_the_evaluator_not_assumed():
    """A random MCR discard 0.3 points behind the best, with a gap whose noise is 0.6 points:
    by value it is within the half-point floor, but the evaluator cannot show that it is (the
    gap may as well be 1.5 points). Method m9 calls it ``unclear``, not ``agrees`` (m8 said
    "agrees", so a seat that played at random agreed on every near play the rollouts could
    not tell apart). The best play agrees, and so does a near play whose gap is measured
    well inside the floor."""
    mcr = kit("mcr").review
    floors = (mcr.INACCURACY_FLOOR, mcr.MISTAKE_FLOOR)
    four = [Discard(seat=1, tile=4 * t) for t in range(4)]
    scores = [(1.0, 0.42), (0.7, 0.42), (-1.0, 3.0), (-2.0, 3.0)]
    noisy = rv.judge(3, four, 1, scores, *floors, mcr.same_play, mcr.MODEL_NOISE)
    assert (noisy.loss, noisy.verdict) == (0.3, "unclear")
    # the best by value, 0.3 ahead of the runner-up +- 0.6: not surely within the floor of it
    # either (a random discard comes out first among three near plays a third of the time)
    ahead = rv.judge(3, four, 0, scores, *floors, mcr.same_play, mcr.MODEL_NOISE)
    assert (ahead.best, ahead.verdict) == (0, "unclear")
    clear = [(1.0, 0.42), (-0.5, 0.42), (-1.0, 3.0), (-2.0, 3.0)]  # 1.5 ahead: surely the best
    assert rv.judge(3, four, 0, clear, *floors, mcr.same_play, mcr.MODEL_NOISE).verdict == "agrees"
    sure = [(1.0, 0.05), (0.7, 0.05), (-1.0, 3.0), (-2.0, 3.0)]  # 0.3 +- 0.07: inside the floor
    assert rv.judge(3, four, 1, sure, *floors, mcr.same_play, mcr.MODEL_NOISE).verdict == "agrees"
    # nothing measured: the model's values alone, and its first play is the bot's own
    model = [
        (1.0, mcr.MODEL_NOISE),
        (0.95, mcr.MODEL_NOISE),
        (-1.0, mcr.MODEL_NOISE),
        (-2.0, mcr.MODEL_NOISE),
    ]
    assert rv.judge(3, four, 0, model, *floors, mcr.same_play, mcr.MODEL_NOISE).verdict == "agrees"
    assert rv.judge(3, four, 1, model, *floors, mcr.same_play, mcr.MODEL_NOISE).verdict == "unclear"
    summary = rv.summarize([noisy])
    assert (summary.agreements, summary.unclear, summary.agreement) == (0, 1, 0.0)


def test_only_plays_the_evaluator_cannot_vouch_for_changed_in_method_m9():
    """m9 moves from ``agrees`` to ``unclear`` the choices, the best or within the inaccuracy
    floor by value, that the evaluator cannot show within the floor of every other play (two
    noises of each gap included); every other verdict, loss and rank is m8's (m8's rule written
    out here to compare with)."""
    import random

    def m8(d, scores, floor):
        values = [v for v, _n in scores]
        if max(values) - min(values) <= floor:
            return "even"
        if d.chosen == d.best or d.loss <= floor:
            return "agrees"
        return d.verdict  # beyond the floor: unchanged

    rng = random.Random("m9")
    seen = set()
    for _ in range(3000):
        n = rng.randint(2, 8)
        actions = [Discard(seat=1, tile=4 * t) for t in range(n)]
        spread = rng.choice([0.04, 0.4, 3.0])
        scores = [(round(rng.uniform(0, spread), 3), round(rng.uniform(0, 0.4), 2)) for _ in range(n)]
        chosen = rng.randrange(n)
        floors = rng.choice([(0.5, 2.0), (0.05, 0.5)])
        d = rv.judge(0, actions, chosen, scores, *floors)
        old = m8(d, scores, floors[0])
        seen.add((old, d.verdict))
        if d.verdict != old:
            assert (old, d.verdict) == ("agrees", "unclear")
            assert d.loss <= floors[0]
            z = rv.noise_multiple(rv.AGREE_P, 1)
            assert any(
                v - scores[chosen][0] + z * math.hypot(n, scores[chosen][1]) > floors[0]
                for i, (v, n) in enumerate(scores) if i != chosen
            )  # fmt: skip
    assert {("agrees", "unclear"), ("agrees", "agrees"), ("even", "even")} <= seen
    assert rv.METHOD == "m9"  # a review stored under m8's meaning is never served as this one
