"""Paohuzi ``decide``: a command checked against ``legal_actions``, then its events.

One legality, as in MCR: a command is accepted exactly when it is one of the seat's
``legal_actions`` (``queries.is_legal`` answers that without building the list; a chi is
compared in the order ``legal_actions`` writes it: within a group and among the bi groups the
order carries no meaning, only the first group, the one with the claimed card, is told apart).
Anything else is refused with the rule that forbids it (``refusals``).
``StartDeal`` is the one command outside the list: its client seed is the caller's free choice.

``decide`` never mutates its input: it works on a cheap copy and applies each event it emits,
so the forced steps that follow (``forced``) are computed from exactly the state the log will
produce, and ``execute`` hands that state back.
"""

from __future__ import annotations

from typing import Any

from domain.errors import RuleViolation
from domain.game import StartDeal, Watch
from domain.paohuzi.cards import SEATS, group_huxi, kind_name
from domain.paohuzi.changes import evolve
from domain.paohuzi.forced import Ctx, end, next_reveal, open_window, payments, try_resolve
from domain.paohuzi.messages import (
    CardDiscarded,
    Chi,
    ChouMarked,
    ClaimAnswered,
    DealStarted,
    DealWon,
    Discard,
    DiscardRequired,
    KanFormed,
    MeldMade,
    Pao,
    Pass,
    Peng,
    Win,
    WinGroup,
)
from domain.paohuzi.options import chou_on_pass, window_options
from domain.paohuzi.queries import chi_choice, default_move, is_legal
from domain.paohuzi.refusals import refusal
from domain.paohuzi.state import State
from domain.paohuzi.wins import take, tun_for
from domain.shuffle import dealer_and_deck
from domain.table.absence import decide_back, decide_expiry
from domain.table.clock import Abandon, Back, DealAbandoned, Expire
from domain.table.seating import SEATING_COMMANDS, FillSeat, dealt_after_fill, decide_seating, start_plan
from domain.table.seeds import deal_seed

_ANSWERS = {Win: "win", Pao: "pao", Peng: "peng", Chi: "chi", Pass: "pass"}


def _chi_ids(s: State, seat: int, card: int, choice: Any) -> list[list[int]]:
    """The card ids of a chi and its bi groups: the claimed card first, then the lowest ids."""
    pool: dict[int, list[int]] = {}
    for c in sorted(s.hands[seat]):
        pool.setdefault(c >> 2, []).append(c)
    main, bis = choice
    rest = list(main)
    rest.remove(card >> 2)
    groups = [[card] + take(pool, rest)]
    for g in bis:
        groups.append(take(pool, g))
    return groups


def _start(s: State, cmd: StartDeal, watch: Watch | None = None) -> Ctx:
    """PH-2: deal the deck the seeds give, the opening ti and kan, a heavenly win, the first move.
    With several people, each one's ``StartDeal`` but the last only records its seed (TB-3.1)."""
    if s.created is None or s.phase != "new":
        raise RuleViolation("DS-2", "the deal is not created or already started")
    if not 0 <= cmd.seat < SEATS:
        raise RuleViolation("DS-3", f"unknown seat {cmd.seat}")
    ctx = Ctx(s, watch)
    plan = start_plan(s.seating, cmd)
    if plan and not isinstance(plan[0], str):
        for event in plan:
            ctx.emit(event)
        return ctx
    client_seeds: list[str] | None = plan  # type: ignore[assignment]
    _deal(ctx, "" if client_seeds else cmd.client_seed, client_seeds)
    return ctx


def _deal(ctx: Ctx, client_seed: str, client_seeds: list[str] | None) -> None:
    """PH-2 with the seeds the people sent (TB-3.1)."""
    s = ctx.s
    created = s.created
    seed = deal_seed(created.server_seed, client_seed, client_seeds)
    dealer, deck = dealer_and_deck(seed, 80, SEATS)
    if created.fixed_deck is not None:
        deck = list(created.fixed_deck)
    if created.fixed_dealer is not None:
        dealer = created.fixed_dealer
    hands = [[] for _ in range(SEATS)]
    hands[dealer] = deck[0:21]
    hands[(dealer + 1) % SEATS] = deck[21:41]
    hands[(dealer + 2) % SEATS] = deck[41:61]
    ctx.emit(
        DealStarted(
            client_seed=client_seed,
            dealer=dealer,
            hands=hands,
            stock=deck[61:80],
            face_up=deck[20],
            client_seeds=client_seeds,
        )
    )
    order = [(dealer + i) % SEATS for i in range(SEATS)]
    for seat in order:  # PH-2.5
        byk: dict[int, list[int]] = {}
        for c in sorted(s.hands[seat]):
            byk.setdefault(c >> 2, []).append(c)
        for k in sorted(byk):
            if len(byk[k]) == 4:
                ctx.emit(MeldMade(seat=seat, meld="ti", cards=byk[k], rule_id="PH-2.5"))
            elif len(byk[k]) == 3:
                ctx.emit(KanFormed(seat=seat, cards=byk[k]))
    for seat in order:  # PH-2.6
        ti = [m for m in s.melds[seat] if m[0] == "ti"]
        kans = s.kans[seat]
        if len(ti) >= 3 or len(kans) >= 5:
            groups = [WinGroup("ti", list(m[1]), group_huxi("ti", [m[1][0] >> 2]), True) for m in ti]
            groups += [WinGroup("kan", list(kn), group_huxi("kan", [kn[0] >> 2]), False) for kn in kans]
            huxi = sum(g.huxi for g in groups)
            tun = tun_for(huxi)
            end(
                ctx,
                DealWon(
                    seat=seat,
                    card=None,
                    from_seat=None,
                    groups=groups,
                    huxi=huxi,
                    tun=tun,
                    payments=payments(seat, tun),
                    heavenly=True,
                    rule_id="PH-2.6",
                ),
            )
            return
    if s.holding(dealer) > s.target(dealer):  # PH-2.7
        ctx.emit(DiscardRequired(seat=dealer, rule_id="PH-2.7"))
    else:
        next_reveal(ctx, (dealer + 1) % SEATS)


def canonical(command: Any) -> Any:
    """A chi written the way ``legal_actions`` writes it (each group's kinds in order, the bi
    groups in order after the first); any other command as it is."""
    choice = chi_choice(command) if type(command) is Chi else None
    if choice is None:
        return command
    groups = [[kind_name(x) for x in g] for g in (choice[0], *choice[1])]
    return Chi(seat=command.seat, window=command.window, groups=groups)


def _answer(s: State, cmd: Any, watch: Watch | None = None) -> Ctx:
    """A legal claim or pass: the answer, the chou a passed chi or peng causes (PH-6.7), and the
    window's resolution once nobody still to answer could beat the best claim (PH-6.4)."""
    seat = cmd.seat
    o = window_options(s)[seat]
    answer = _ANSWERS[type(cmd)]
    groups = None
    if answer == "chi":
        groups = _chi_ids(s, seat, s.table, chi_choice(cmd))
    ctx = Ctx(s.copy(), watch)
    ctx.emit(ClaimAnswered(window=s.window, seat=seat, answer=answer, groups=groups))
    if answer == "pass" and chou_on_pass(o.peng, bool(o.chi)):
        ctx.emit(ChouMarked(seat=seat, kind=kind_name(s.table >> 2)))
    try_resolve(ctx)
    return ctx


def decide(state: State, command: Any) -> list[Any]:
    return execute(state, command)[0]


def execute(state: State, command: Any, watch: Watch | None = None) -> tuple[list[Any], State]:
    """``decide``, plus the state those events lead to: the events are applied to a private
    copy as they are emitted, so it equals folding them onto ``state``, and it keeps what was
    worked out on the way (the options of a claim window just opened)."""
    if isinstance(command, Abandon):  # TB-2.7: the table ends an untimed deal nobody moved in
        if state.phase == "over":
            raise RuleViolation("DS-6", "the deal is over")
        ctx = Ctx(state.copy(), watch)
        end(ctx, DealAbandoned(command.idle_since_ms, command.idle_ms))
        return ctx.out, ctx.s
    if isinstance(command, StartDeal):
        ctx = _start(state.copy(), command, watch)
        return ctx.out, ctx.s
    if isinstance(command, SEATING_COMMANDS):
        ctx = Ctx(state.copy(), watch)
        for event in decide_seating(state.seating, command, state.phase != "new"):
            ctx.emit(event)
        seeds = dealt_after_fill(ctx.s.seating) if isinstance(command, FillSeat) else None
        if seeds is not None:  # TB-1.4: the bot took the last seat anyone waited for: deal
            _deal(ctx, *seeds)
        return ctx.out, ctx.s
    if isinstance(command, Expire):  # TB-2.5: the table plays the default move for the seat
        return decide_expiry(
            execute, evolve, State.copy, state, command, default_move(state, command.seat), watch
        )
    if isinstance(command, Back):
        ctx = Ctx(state.copy(), watch)
        for event in decide_back(state.seating, command):
            ctx.emit(event)
        return ctx.out, ctx.s
    if state.phase == "new":
        raise RuleViolation("DS-2", "the deal has not started")
    if state.phase == "over":
        raise RuleViolation("DS-6", "the deal is over")
    seat = getattr(command, "seat", -1)
    if not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise RuleViolation("DS-3", f"unknown seat {seat!r}")
    if not is_legal(state, command):
        raise refusal(state, command)
    if type(command) is Discard:
        ctx = Ctx(state.copy(), watch)
        ctx.emit(CardDiscarded(seat=seat, card=command.card))
        open_window(ctx)
    else:  # a claim or a pass in the open window: legal_actions lists nothing else
        ctx = _answer(state, command, watch)
    return ctx.out, ctx.s
