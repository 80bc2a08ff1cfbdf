"""The pure tournament: table points with ties, standings, pairing, commitments, the verifier."""

from __future__ import annotations

import hashlib
import random
from fractions import Fraction
from typing import Any

import msgspec
import pytest

from domain.envelope import decode_record, encode_record
from domain.errors import RuleViolation
from domain.tournament import log as tlog
from domain.tournament import plan, seeds
from domain.tournament.events import (
    DealResult,
    RoundPaired,
    RoundSeedRevealed,
    Ruling,
    TableResult,
    TableStarted,
    TournamentCreated,
    TournamentEnded,
)
from domain.tournament.pairing import met_pairs, swiss_tables
from domain.tournament.scores import standings, table_points
from domain.tournament.state import HOUSE_TABLE, TournamentState, fold
from domain.tournament.verify import DealFacts, verify

DECK = 16  # a small wall keeps the fake deals quick; the check is the same


def round_seed(r: int) -> bytes:
    return hashlib.sha256(f"round {r}".encode()).digest()


class Sim:
    """A tournament run to its end with made-up deals (what the runner does, minus matches)."""

    def __init__(self, fmt: str = "swiss", players: int = 8, seats: int = 4, rounds: int = 3, deals: int = 2):
        created = TournamentCreated("t1", "mcr", seats, fmt, rounds, deals)
        entries = [(f"p{i:02d}", "person", seeds.seed_hash(f"s{i}")) for i in range(players)]
        self.events: list[Any] = plan.opening(
            created, [seeds.commitment(round_seed(r)) for r in range(1, rounds + 1)], entries
        )
        self.events += plan.start(fold(self.events), [seeds.seed_hash("f")] * seats)
        self.deals: dict[str, DealFacts] = {}
        self.rng = random.Random(7)

    def state(self) -> TournamentState:
        return fold(self.events)

    def run(self, rulings: bool = True) -> Sim:
        while True:
            state = self.state()
            step = plan.next_step(state)
            if isinstance(step, plan.Pair):
                self.events += plan.pairing(state, step.round, round_seed(step.round))
            elif isinstance(step, plan.StartTables):
                self.events += [TableStarted(step.round, t, f"m{step.round}-{t}") for t in step.tables]
            elif isinstance(step, plan.Await):
                for t in step.tables:
                    self.events.append(self.result(state, step.round, t))
                if rulings and step.round == 1:
                    self.events.append(Ruling("p03", -5, "slow play", "TB-2.5", "d1-1-0"))
            elif isinstance(step, plan.Reveal):
                self.events.append(RoundSeedRevealed(step.round, round_seed(step.round).hex()))
            elif isinstance(step, plan.End):
                self.events.append(TournamentEnded())
            else:
                return self

    def result(self, state: TournamentState, r: int, t: int) -> TableResult:
        created = state.created
        assert created is not None
        table = state.rounds[r].tables[t]
        results = []
        for j in range(created.deals_per_round):
            winner = self.rng.randrange(created.seats)
            pays = [-4] * created.seats
            pays[winner] = 4 * (created.seats - 1)
            deal_id = f"d{r}-{t}-{j}"
            dealer, deck = (
                plan.board_of(state, round_seed(r), j, DECK)
                if created.format == "duplicate"
                else (None, None)
            )
            self.deals[deal_id] = DealFacts(deal_id, table.match_id, j, pays, deck, dealer, DECK)
            results.append(DealResult(deal_id, pays))
        scores = [sum(c) for c in zip(*(d.payments for d in results), strict=True)]
        return TableResult(r, t, results, scores)

    def raws(self) -> list[bytes]:
        return tlog.chain(self.events, 0, recorded_at="2026-12-07T00:00:00Z")

    def stated(self) -> list[dict[str, Any]]:
        return msgspec.to_builtins(standings(self.state()))


# --- TN-3.1 ----------------------------------------------------------------------------------------
def test_table_points_without_ties():
    assert table_points([10, 30, -20, -20 + 0 + 1]) == [2, 4, 0, 1]
    assert table_points([5, 0, -5]) == [3, 1, 0]


def test_tied_places_share_the_points_they_span():
    assert table_points([8, 8, -8, -8]) == [3, 3, Fraction(1, 2), Fraction(1, 2)]
    assert table_points([0, 0, 0, 0]) == [Fraction(7, 4)] * 4
    assert table_points([3, 3, 3]) == [Fraction(4, 3)] * 3
    assert table_points([9, 1, 1]) == [3, Fraction(1, 2), Fraction(1, 2)]


# --- TN-3.2 .. 3.3 ----------------------------------------------------------------------------------
def test_standings_by_points_then_score_then_name_and_rulings_count():
    sim = Sim(rounds=1, deals=1).run(rulings=False)
    sim.events.append(Ruling("p03", 7, "wrong claim ruled", "TB-4.1", "x"))
    sim.events.append(Ruling("p03", -7, "the ruling above undone", "TN-4.1", "x"))
    rows = standings(sim.state())
    keys = [(-r.table_points, -r.score, r.player) for r in rows]
    assert keys == sorted(keys)
    assert [r.rank for r in rows] == list(range(1, 9))
    p03 = next(r for r in rows if r.player == "p03")
    assert p03.rulings == 0
    sim.events.append(Ruling("p03", 100, "bonus", "TN-4.1", "x"))
    assert next(r for r in standings(sim.state()) if r.player == "p03").score == p03.score + 100


def test_fillers_play_but_never_rank():
    created = TournamentCreated("t", "paohuzi", 3, "swiss", 1, 1, fill_with_bots=True)
    events = plan.opening(created, ["c"], [("a", "person", "00"), ("b", "person", "11")])
    events += plan.start(fold(events), ["22"])
    state = fold(events)
    assert [e.filler for e in state.entrants.values()] == [False, False, True]
    assert [s.player for s in standings(state)] == ["a", "b"]


def test_a_count_that_does_not_fill_tables_is_refused_without_fillers():
    created = TournamentCreated("t", "mcr", 4, "swiss", 1, 1)
    events = plan.opening(created, ["c"], [(f"p{i}", "person", "00") for i in range(5)])
    with pytest.raises(RuleViolation) as refused:
        plan.start(fold(events), ["00"] * 3)
    assert refused.value.rule_id == "TN-1.2"


def test_duplicate_scores_and_vs_house():
    sim = Sim("duplicate", players=8, rounds=1, deals=1).run(rulings=False)
    state = sim.state()
    rnd = state.rounds[1]
    assert HOUSE_TABLE in rnd.tables and all(p.startswith("house:") for p in rnd.tables[HOUSE_TABLE].players)
    rows = {r.player: r for r in standings(state)}
    # the duplicate scores of everyone who held one seat of a board sum to zero
    for seat in range(4):
        held = [rnd.tables[t].players[seat] for t in (1, 2)]
        assert sum(rows[p].duplicate_score for p in held) == pytest.approx(0)
    house = rnd.tables[HOUSE_TABLE].result
    assert house is not None
    p = rnd.tables[1].players[0]
    own = rnd.tables[1].result
    assert own is not None
    assert rows[p].vs_house == own.deals[0].payments[0] - house.deals[0].payments[0]
    keys = [(-r.duplicate_score, -r.table_points, r.player) for r in standings(state)]
    assert keys == sorted(keys)


# --- TN-2 ---------------------------------------------------------------------------------------------
def test_round_one_is_drawn_from_the_seed_and_every_entrant_sits_once():
    sim = Sim(players=12, rounds=1).run()
    tables = sim.state().rounds[1].tables
    seated = [p for t in tables.values() for p in t.players]
    assert sorted(seated) == [f"p{i:02d}" for i in range(12)]
    other = Sim(players=12, rounds=1)
    other.events[1] = type(other.events[1])(1, seeds.commitment(b"x"))
    again = fold(other.events)
    assert plan.pairing(again, 1, b"another seed") != plan.pairing(again, 1, round_seed(1))


def test_the_entrants_seed_hashs_change_the_draw():
    a, b = Sim(players=12, rounds=1), Sim(players=12, rounds=1)
    b.events[2] = type(b.events[2])("p00", "person", seeds.seed_hash("another"))
    assert plan.pairing(a.state(), 1, round_seed(1)) != plan.pairing(b.state(), 1, round_seed(1))


def test_swiss_mends_a_repeat_by_the_smallest_swap():
    order = ["a", "b", "c", "d", "e", "f"]
    met = {("a", "b")}
    assert swiss_tables(order, 3, met) == [["a", "d", "c"], ["b", "e", "f"]]
    # no repeat: tables filled from the top
    assert swiss_tables(order, 3, set()) == [["a", "b", "c"], ["d", "e", "f"]]
    # a repeat no swap can mend stays
    assert swiss_tables(["a", "b"], 2, {("a", "b")}) == [["a", "b"]]


def test_later_swiss_rounds_avoid_repeats_where_they_can():
    sim = Sim(players=16, rounds=3, deals=1).run()
    state = sim.state()
    for r in (2, 3):
        before = fold(
            sim.events[: next(i for i, e in enumerate(sim.events) if type(e) is RoundPaired and e.round == r)]
        )
        met = met_pairs(before)
        tables = [state.rounds[r].tables[t].players for t in sorted(state.rounds[r].tables)]
        count = lambda t: sum(1 for a in t for b in t if a < b and (a, b) in met)  # noqa: E731, B023
        for upper, lower in zip(tables, tables[1:], strict=False):
            if not count(upper):
                continue
            # a table left with a repeat: no swap with the next table down would leave it fewer
            for ia in range(4):
                for ib in range(4):
                    swapped = upper[:ia] + [lower[ib]] + upper[ia + 1 :]
                    assert count(swapped) >= count(upper)
        assert sum(1 for t in tables if count(t)) <= 2


def test_pairing_a_thousand_is_deterministic():
    created = TournamentCreated("t", "mcr", 4, "swiss", 2, 1)
    events = plan.opening(
        created, ["c", "c"], [(f"p{i}", "person", seeds.seed_hash(str(i))) for i in range(1000)]
    )
    events += plan.start(fold(events), [])
    first = plan.pairing(fold(events), 1, b"s")
    assert first == plan.pairing(fold(events), 1, b"s")
    assert len(first[0].tables) == 250


def test_a_withdrawn_player_is_replaced_by_a_filler():
    sim = Sim(players=8, rounds=2, deals=1)
    sim.events += plan.withdraw(sim.state(), "p01", seeds.seed_hash("f2"))
    sim.run(rulings=False)
    state = sim.state()
    r2 = [p for t in state.rounds[2].tables.values() for p in t.players]
    assert "p01" not in r2 and any(p.startswith("filler:") for p in r2)
    assert next(s for s in standings(state) if s.player == "p01").withdrawn


# --- TN-5.2: the verifier, and one tampered copy per check ------------------------------------------
def test_a_whole_record_verifies():
    for fmt in ("swiss", "duplicate"):
        sim = Sim(fmt).run()
        assert verify(sim.raws(), sim.deals, sim.stated()) is None


def _retyped(raws: list[bytes], version: int, change) -> list[bytes]:
    """The log with record ``version``'s event changed and the chain made good after it (so only
    the content check can catch it)."""
    events = tlog.events_of(raws)
    events[version - 1] = change(events[version - 1])
    return tlog.chain(events, 0, recorded_at="2026-12-07T00:00:00Z")


def _index(sim: Sim, kind: type, **match: Any) -> int:
    for i, e in enumerate(sim.events):
        if type(e) is kind and all(getattr(e, k) == v for k, v in match.items()):
            return i + 1
    raise AssertionError(kind)


def test_tamper_chain():
    sim = Sim().run()
    raws = sim.raws()
    record = decode_record(raws[4])
    raws[4] = encode_record(msgspec.structs.replace(record, recorded_at="2027-01-01T00:00:00Z"))
    failure = verify(raws, sim.deals, sim.stated())
    assert failure is not None and (failure.record, failure.check) == ("tournament record 6", "chain")


def test_tamper_commitment():
    sim = Sim().run()
    v = _index(sim, RoundSeedRevealed, round=2)
    raws = _retyped(sim.raws(), v, lambda e: RoundSeedRevealed(2, "ab" * 32))
    failure = verify(raws, sim.deals, sim.stated())
    assert failure is not None and (failure.record, failure.check) == (f"tournament record {v}", "commitment")
    only_seed = _retyped(sim.raws(), v, lambda e: RoundSeedRevealed(2, "zz"))
    failure = verify(only_seed, sim.deals, sim.stated())
    assert failure is not None and (failure.record, failure.check) == (f"tournament record {v}", "commitment")


def test_tamper_pairing():
    sim = Sim().run()
    v = _index(sim, RoundPaired, round=2)

    def swap(e: RoundPaired) -> RoundPaired:
        a, b = e.tables[0], e.tables[1]
        return RoundPaired(
            e.round,
            [
                type(a)(a.table, [b.players[0], *a.players[1:]]),
                type(b)(b.table, [a.players[0], *b.players[1:]]),
                *e.tables[2:],
            ],
        )

    failure = verify(_retyped(sim.raws(), v, swap), sim.deals, sim.stated())
    assert failure is not None and (failure.record, failure.check) == (f"tournament record {v}", "pairing")


def test_tamper_table_result():
    sim = Sim().run()
    v = _index(sim, TableResult, round=1, table=1)

    def richer(e: TableResult) -> TableResult:
        deals = [
            DealResult(
                e.deals[0].deal_id, [p + (9 if i == 0 else -9) for i, p in enumerate(e.deals[0].payments)]
            ),
            *e.deals[1:],
        ]
        return TableResult(
            e.round, e.table, deals, [sum(c) for c in zip(*(d.payments for d in deals), strict=True)]
        )

    failure = verify(_retyped(sim.raws(), v, richer), sim.deals, None)
    assert failure is not None and (failure.record, failure.check) == (f"tournament record {v}", "deal")


def test_a_deal_that_fails_its_own_audit_is_named():
    sim = Sim().run()
    deals = dict(sim.deals)
    deals["d1-1-0"] = msgspec.structs.replace(deals["d1-1-0"], problem="version 9: prev hash does not match")
    failure = verify(sim.raws(), deals, sim.stated())
    assert failure is not None and (failure.record, failure.check) == ("deal d1-1-0", "deal")


def test_tamper_duplicate_wall():
    sim = Sim("duplicate").run()
    deals = dict(sim.deals)
    facts = deals["d2-0-1"]  # the house table's second board of round 2
    assert facts.fixed_deck is not None
    deals["d2-0-1"] = msgspec.structs.replace(facts, fixed_deck=list(reversed(facts.fixed_deck)))
    failure = verify(sim.raws(), deals, sim.stated())
    assert failure is not None and (failure.record, failure.check) == ("deal d2-0-1", "board")


def test_tamper_standings():
    sim = Sim().run()
    stated = sim.stated()
    stated[0], stated[1] = stated[1], stated[0]
    failure = verify(sim.raws(), sim.deals, stated)
    assert failure is not None and (failure.record, failure.check) == ("standings", "standings")


def test_a_record_that_is_no_event_is_named():
    sim = Sim(rounds=1).run()
    raws = sim.raws()
    events = tlog.events_of(raws)
    bad = tlog.chain(events[:3], 0)
    record = decode_record(tlog.chain([Ruling("p", 1, "r", "TN-4.1", "d")], 3, tlog.head(bad))[0])
    bad.append(encode_record(msgspec.structs.replace(record, data=msgspec.Raw(b'{"type":"Nope"}'))))
    failure = verify(bad, sim.deals, None)
    assert failure is not None and (failure.record, failure.check) == ("tournament record 4", "decode")


def test_the_log_names_no_round_seed_before_its_reveal():
    sim = Sim(rounds=2).run()
    cut = _index(sim, RoundSeedRevealed, round=1)
    text = b"".join(tlog.chain(sim.events[: cut - 1], 0))
    assert round_seed(1).hex().encode() not in text and round_seed(2).hex().encode() not in text


def test_a_player_who_withdraws_before_the_start_leaves_no_seat_to_fill():
    created = TournamentCreated("t", "mcr", 4, "swiss", 1, 1, fill_with_bots=True, open_entries=True)
    events = plan.opening(created, ["c"], [(f"p{i}", "person", "00") for i in range(5)])
    events += plan.withdraw(fold(events), "p4", "11")
    events += plan.start(fold(events), ["22"] * 4)
    state = fold(events)
    assert not any(e.filler for e in state.entrants.values())
    tables = plan.pairing(state, 1, b"s")[0].tables
    assert sorted(p for t in tables for p in t.players) == ["p0", "p1", "p2", "p3"]


def test_a_duplicate_rounds_results_count_only_once_the_round_is_over():
    """TN-3.6: while a duplicate round still plays at some table, a finished table's result in
    the standings would tell a person at another table how the board they hold went (the
    table points and score are the board's payments); it counts once the round's seed is out."""
    sim = Sim("duplicate", players=8, rounds=1, deals=1)
    while True:  # run until every table's result is in, but not the seed
        state = sim.state()
        step = plan.next_step(state)
        if isinstance(step, plan.Reveal):
            break
        if isinstance(step, plan.Pair):
            sim.events += plan.pairing(state, step.round, round_seed(step.round))
        elif isinstance(step, plan.StartTables):
            sim.events += [TableStarted(step.round, t, f"m{step.round}-{t}") for t in step.tables]
        elif isinstance(step, plan.Await):
            sim.events += [sim.result(state, step.round, t) for t in step.tables]
    before = standings(sim.state())
    assert all((r.table_points, r.score, r.duplicate_score, r.vs_house) == (0, 0, 0, 0) for r in before)
    sim.events.append(RoundSeedRevealed(1, round_seed(1).hex()))
    after = standings(sim.state())
    assert any(r.table_points for r in after)  # 4/2/1/0 at every table
