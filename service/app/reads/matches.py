"""The read side of matches (TB-5): the standings and deals of a match, and its audit (TB-5.5).

Public facts only: each deal's id, dealer, round and, once it ended, its result; the seats'
kinds and names as a deal's summary shows them. Never a token, an invite or a hidden card.
"""

from __future__ import annotations

import msgspec

from domain.envelope import decode_record, record_hash, verify_chain
from domain.game import MatchPlace
from domain.match import (
    MatchCreated,
    MatchDealEnded,
    MatchDealStarted,
    MatchEnded,
    MatchState,
    Standing,
    evolve,
    fold_copy,
    plan,
    standings,
)
from service.app.games import kit
from service.app.reads.answers import PlayerMatch
from service.app.reads.side import ReadSide
from service.app.state.folds import DealNotFound
from service.app.state.match_log import MatchLog, MatchNotFound, deal_ended
from service.app.viewer import NOBODY


class MatchResult(msgspec.Struct):
    winner: int | None
    payments: list[int]
    abandoned: bool = False


class MatchDeal(msgspec.Struct):
    index: int
    deal_id: str
    dealer: int | None  # None: not dealt yet (the first deal's seed draws its dealer)
    round: int
    result: MatchResult | None  # None while the deal is played


class MatchSummary(msgspec.Struct):
    match_id: str
    game: str
    ruleset: str
    length: int  # in deals
    length_word: str | None
    target: int | None
    seats: list[str]
    names: list[str | None]
    deals: list[MatchDeal]
    scores: list[int]
    standings: list[Standing]
    over: bool
    # a duplicate round's table while the round still plays elsewhere (TN-3.6): no result, and
    # the scores and standings as before its first deal, until the round is over
    sealed: bool = False


class MatchAuditDeal(msgspec.Struct):
    index: int
    deal_id: str
    ok: bool
    deal_audit_ok: bool | None  # the deal's own audit (None: not over yet)
    result: MatchResult | None  # as the deal's own log gives it


class MatchAudit(msgspec.Struct):
    ok: bool
    match_id: str
    chain_ok: bool
    deals: list[MatchAuditDeal]
    problems: list[str]


def _result(ended: MatchDealEnded | None) -> MatchResult | None:
    return None if ended is None else MatchResult(ended.winner, list(ended.payments), ended.abandoned)


class MatchReads:
    def __init__(self, log: MatchLog, reads: ReadSide) -> None:
        self.log = log
        self.reads = reads

    async def summary(self, match_id: str) -> MatchSummary:
        state, _version = await self.log.state(match_id)
        created = state.created
        assert created is not None
        deals: list[MatchDeal] = []
        for entry in state.deals:
            dealer = entry.dealer
            if entry is state.current:
                try:
                    folded = await self.reads.folds.load(entry.deal_id)
                except DealNotFound:  # named in the log, being created: listed once it exists
                    break
                if dealer is None and folded.started:  # public once dealt
                    dealer = folded.kit.projections.dealer_of(folded.state)
            deals.append(MatchDeal(entry.index, entry.deal_id, dealer, entry.round, _result(entry.result)))
        seats, names = await self._seating(deals[-1].deal_id if deals else None, created.seats)
        boards = self.reads.boards
        if boards is not None and await boards.match_sealed(match_id):
            zeros = [0] * len(created.seats)
            return MatchSummary(
                match_id=match_id, game=created.game, ruleset=created.ruleset, length=created.length,
                length_word=created.length_word, target=created.target, seats=seats, names=names,
                deals=[msgspec.structs.replace(d, result=None) for d in deals], scores=zeros,
                standings=standings(zeros), over=False, sealed=True,
            )  # fmt: skip
        return MatchSummary(
            match_id=match_id,
            game=created.game,
            ruleset=created.ruleset,
            length=created.length,
            length_word=created.length_word,
            target=created.target,
            seats=seats,
            names=names,
            deals=deals,
            scores=list(state.scores),
            standings=state.ended.standings if state.ended is not None else standings(state.scores),
            over=state.over,
        )

    async def _seating(self, deal_id: str | None, requested: list[str]) -> tuple[list[str], list[str | None]]:
        """The seats' kinds and names as the match's latest listed deal shows them (while the
        next deal is being created, the deal before's: names do not blink out between deals);
        before any deal exists, the seats as requested and no names."""
        if deal_id is not None:
            try:
                folded = await self.reads.folds.load(deal_id)
            except DealNotFound:
                pass
            else:
                return folded.seats, list(folded.state.seating.names)
        return list(requested), [None] * len(requested)

    async def audit(self, match_id: str) -> MatchAudit:
        """TB-5.5: the match log's chain and order, every planned dealer and round, and each
        deal's result read again from the deal's own log (whose own audit must pass too)."""
        events = await self.log.events(match_id)
        raws = await self.log.raw(match_id)
        head = await self.log.head_hash(match_id)
        problems: list[str] = []
        chain_ok = verify_chain(raws) is None and (head is None or record_hash(raws[-1]) == head)
        if not chain_ok:
            problems.append("the match log's hash chain is broken")
        state = MatchState()
        audited: list[MatchAuditDeal] = []
        for n, event in enumerate(events):
            kind = type(event).__name__
            if n == 0 and type(event) is not MatchCreated:
                problems.append("the match log does not start with MatchCreated")
                break
            if type(event) is MatchDealStarted:
                expected = plan(state) if not state.deals or state.deals[-1].result is not None else None
                got = (event.index, event.dealer, event.round)
                if expected is None or (expected.index, expected.dealer, expected.round) != got:
                    problems.append(f"event {n + 1}: {kind} {got} is not what the plan gives: {expected}")
            elif type(event) is MatchDealEnded:
                current = state.current
                if current is None or current.result is not None or current.index != event.index:
                    problems.append(f"event {n + 1}: {kind} for deal {event.index} out of order")
                    break
                match_rated = state.created.rated if state.created is not None else None
                audited.append(
                    await self._deal(match_id, current.deal_id, current.round, event, problems, match_rated)
                )
            elif type(event) is MatchEnded:
                after = fold_copy(state)
                if plan(after) is not None or event.standings != standings(state.scores):
                    problems.append(f"event {n + 1}: the match ended early or with other standings")
            elif n > 0:
                problems.append(f"event {n + 1}: a second MatchCreated")
            evolve(state, event)
        current = state.current
        if current is not None and current.result is None:  # the deal being played
            try:
                folded = await self.reads.folds.load(current.deal_id)
                place = MatchPlace(match_id, current.index, current.round)
                if getattr(folded.events[0], "match", None) != place:
                    problems.append(f"deal {current.index} ({current.deal_id}) names another match place")
            except DealNotFound:
                pass  # being created
            audited.append(MatchAuditDeal(current.index, current.deal_id, not problems, None, None))
        return MatchAudit(not problems, match_id, chain_ok, audited, problems)

    async def _deal(
        self,
        match_id: str,
        deal_id: str,
        round_: int,
        recorded: MatchDealEnded,
        problems: list[str],
        match_rated: list[str] | None = None,
    ) -> MatchAuditDeal:
        before = len(problems)
        index = recorded.index
        try:
            folded = await self.reads.folds.load(deal_id)
        except DealNotFound:
            problems.append(f"deal {index} ({deal_id}) has no log")
            return MatchAuditDeal(index, deal_id, False, None, None)
        created = folded.events[0]
        if getattr(created, "match", None) != MatchPlace(match_id, index, round_):
            problems.append(f"deal {index} ({deal_id}): its DealCreated names another match place")
        if not folded.over:
            problems.append(f"deal {index} ({deal_id}) is recorded as ended but is not over")
            return MatchAuditDeal(index, deal_id, False, None, None)
        found = deal_ended(_Entry(index, deal_id), folded, match_rated)
        if found != recorded:
            problems.append(f"deal {index} ({deal_id}): the match log has {recorded}, its own log {found}")
        if index > 0 and created.fixed_dealer != recorded.dealer:
            problems.append(f"deal {index} ({deal_id}) was not dealt by the planned dealer")
        if await self.reads.is_sealed(folded):  # TN-3.6: its own audit opens when its round ends
            return MatchAuditDeal(index, deal_id, len(problems) == before, None, _result(found))
        report = await self.reads.audit(deal_id, NOBODY)
        if not report.ok:
            problems.append(f"deal {index} ({deal_id}): its own audit fails")
        return MatchAuditDeal(index, deal_id, len(problems) == before, report.ok, _result(found))

    async def player_match(self, match_id: str, seat: int) -> PlayerMatch | None:
        """A row of a player's list (``GET /players/me/deals``): the public facts of
        the match and the running score of ``seat`` (None: no such match)."""
        try:
            state, _version = await self.log.state(match_id)
        except MatchNotFound:
            return None
        created = state.created
        if created is None:
            return None
        raws = await self.log.raw(match_id)
        scores = list(state.scores)
        return PlayerMatch(
            match_id=match_id,
            game=created.game,
            ruleset=created.ruleset,
            created_at=decode_record(raws[0]).recorded_at if raws else "",
            seat=seat,
            status="over" if state.over else "playing",
            score=scores[seat] if 0 <= seat < len(scores) else 0,
            unit=kit(created.game).deal_summary(kit(created.game).game.initial_state()).unit,
            deal_ids=[entry.deal_id for entry in state.deals],
            links={"match": f"/matches/{match_id}"},
        )


class _Entry(msgspec.Struct):
    index: int
    deal_id: str
