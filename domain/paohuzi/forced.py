"""The forced steps of Paohuzi: everything the rules do by themselves after a command.

A command's events are followed, in the same ``decide`` call, by every step it makes due: the
mandatory ti or wei on an own reveal (PH-6.1), the discard a meld calls for (PH-5.2) or the dead
hand (PH-6.6), the window's resolution (PH-6.4) and the claim it gives, the next reveal (PH-5.1,
PH-5.4), and the end of the deal with the seed (PH-5.5, PH-8). Each step is emitted through a
``Ctx``, which applies it to its own state copy, so the next step is worked out from exactly the
state the log will produce.
"""

from __future__ import annotations

from typing import Any

from domain.claims import resolve
from domain.game import SeedRevealed, Watch
from domain.paohuzi.cards import SEATS
from domain.paohuzi.changes import evolve
from domain.paohuzi.messages import (
    CardRevealed,
    CardUnclaimed,
    ClaimWindowOpened,
    ClaimWindowResolved,
    DealDrawn,
    DealWon,
    DiscardRequired,
    HandDead,
    MeldMade,
)
from domain.paohuzi.options import (
    ASKED,
    LEVEL,
    Options,
    claim_order,
    compute_options,
    mandatory_meld,
    step_after_meld,
    window_options,
)
from domain.paohuzi.state import State
from domain.paohuzi.wins import evaluate_win, payment, tun_for
from domain.table.seeds import deal_seed


class Ctx:
    """The events of one ``decide`` call, each applied to a private state copy as it is emitted."""

    __slots__ = ("s", "out", "watch")

    def __init__(self, s: State, watch: Watch | None = None) -> None:
        self.s = s
        self.out: list[Any] = []
        self.watch = watch  # shown each event with the state just after it (``GameRules.execute``)

    def emit(self, e: Any) -> None:
        self.out.append(e)
        evolve(self.s, e)
        if self.watch is not None:
            self.watch(e, self.s)


def end(ctx: Ctx, e: Any) -> None:
    """The deal's last events: its result, then the seed (docs/design.md, the shuffle)."""
    s = ctx.s
    ctx.emit(e)
    server_seed = s.created.server_seed
    seed = deal_seed(server_seed, s.client_seed, s.client_seeds)
    ctx.emit(
        SeedRevealed(
            server_seed=server_seed, client_seed=s.client_seed, seed=seed.hex(), client_seeds=s.client_seeds
        )
    )


def payments(seat: int, tun: int) -> list[int]:
    return [payment(i, seat, tun) for i in range(SEATS)]


def next_reveal(ctx: Ctx, seat: int) -> None:
    """PH-5.1: ``seat`` reveals the top stock card; PH-6.1 melds it at once or a window opens."""
    s = ctx.s
    if s.stock_left() == 0:
        end(ctx, DealDrawn())
        return
    card = s.stock[s.stock_pos]
    ctx.emit(CardRevealed(seat=seat, card=card, stock_left=s.stock_left() - 1))
    k = card >> 2
    kan = next((kan for kan in s.kans[seat] if kan[0] >> 2 == k), None)
    meld = mandatory_meld(kan is not None, s.dead[seat], s.counts[seat][k])
    if meld is None:
        open_window(ctx)
        return
    # PH-6.1: the own card goes onto the kan in hand (ti) or the pair in hand (wei) at once
    held = list(kan) if meld == "ti" else sorted(c for c in s.hands[seat] if c >> 2 == k)
    cards = held + [card]
    ctx.emit(MeldMade(seat=seat, meld=meld, cards=cards, rule_id="PH-6.1", claimed=card, from_seat=seat))
    _after_mandatory(ctx, seat)


def _after_mandatory(ctx: Ctx, seat: int) -> None:
    s = ctx.s
    if not s.dead[seat] and evaluate_win(s, seat, None) is not None:
        ctx.emit(
            ClaimWindowOpened(
                window=s.window + 1,
                card=s.melds[seat][-1][1][-1],
                source_seat=seat,
                source="reveal",
                eligible=[seat],
            )
        )
        return
    after_meld(ctx, seat, mandatory=True)


def after_meld(ctx: Ctx, seat: int, mandatory: bool = False) -> None:
    """PH-5.2 / PH-5.4 / PH-6.6: discard if over target, else the next seat reveals."""
    s = ctx.s
    step = step_after_meld(s.dead[seat], s.holding(seat), s.fours(seat), len(s.hands[seat]))
    if step == "discard":
        ctx.emit(DiscardRequired(seat=seat))
        return
    if step == "dead":
        ctx.emit(HandDead(seat=seat))
    next_reveal(ctx, (seat + 1) % SEATS)


def open_window(ctx: Ctx) -> None:
    """The claim window on the table card, or the card to its row when nobody may claim it."""
    s = ctx.s
    src = s.table_source
    who = s.table_seat
    seats = ASKED[src == "reveal"][who]
    options = {seat: compute_options(s, seat) for seat in seats}
    eligible = [seat for seat in seats if options[seat].any()]
    if not eligible:
        ctx.emit(CardUnclaimed(seat=who, card=s.table, rule_id="PH-5.1" if src == "reveal" else "PH-5.4"))
        next_reveal(ctx, (who + 1) % SEATS)
        return
    ctx.emit(
        ClaimWindowOpened(window=s.window + 1, card=s.table, source_seat=who, source=src, eligible=eligible)
    )
    # opening the window changed nothing the options depend on: keep them for window_options
    # (a new dict: the one this copy shares with the state it was copied from stays untouched)
    s._cache = {"opts": (s.window, {seat: options[seat] for seat in eligible})}


def try_resolve(ctx: Ctx) -> None:
    """PH-6.4: close the window as soon as no seat still to answer could beat the best claim."""
    s = ctx.s
    opts = window_options(s)
    pending = [seat for seat in s.eligible if seat not in s.answers]
    answered = {seat: LEVEL[a[0]] for seat, a in s.answers.items()}
    verdict = resolve(claim_order(s), answered, {x: opts[x].level for x in pending})
    if not verdict.closed:
        return
    best_seat = verdict.seat
    claims = sum(1 for a in s.answers.values() if a[0] != "pass")
    mandatory_window = s.table is None
    if best_seat is None:
        rule = "PH-6.1" if mandatory_window else ("PH-5.1" if s.table_source == "reveal" else "PH-5.4")
    elif claims > 1 or pending:
        rule = "PH-6.4"
    elif mandatory_window:
        rule = "PH-6.1"
    else:
        rule = "PH-6.2" if s.table_source == "reveal" else "PH-6.3"
    claim = s.answers[best_seat][0] if best_seat is not None else None
    ctx.emit(ClaimWindowResolved(window=s.window, seat=best_seat, claim=claim, rule_id=rule))
    if best_seat is None:
        if mandatory_window:
            after_meld(ctx, s.turn, mandatory=True)
        else:
            who = s.table_seat
            ctx.emit(
                CardUnclaimed(
                    seat=who,
                    card=s.table,
                    rule_id="PH-5.1" if s.table_source == "reveal" else "PH-5.4",
                )
            )
            next_reveal(ctx, (who + 1) % SEATS)
        return
    _apply_claim(ctx, best_seat, claim, s.answers[best_seat][1], opts[best_seat])


def _apply_claim(ctx: Ctx, seat: int, claim: str, groups: Any, o: Options) -> None:
    s = ctx.s
    card = s.table
    who = s.table_seat
    if claim == "win":
        w = o.win
        tun = tun_for(w.huxi)
        if card is None:  # PH-6.1: the revealed card already sits in the new ti/wei
            card = s.melds[seat][-1][1][-1]
        end(
            ctx,
            DealWon(
                seat=seat,
                card=card,
                from_seat=who,
                groups=w.groups,
                huxi=w.huxi,
                tun=tun,
                payments=payments(seat, tun),
                heavenly=False,
                rule_id="PH-4.1",
            ),
        )
        return
    rule = "PH-6.2" if s.table_source == "reveal" else "PH-6.3"
    k = card >> 2
    if claim == "pao":
        where, idx = o.pao
        if where == "kan":
            cards = list(s.kans[seat][idx]) + [card]
            ctx.emit(MeldMade(seat=seat, meld="pao", cards=cards, rule_id=rule, claimed=card, from_seat=who))
        else:
            cards = list(s.melds[seat][idx][1]) + [card]
            ctx.emit(
                MeldMade(
                    seat=seat,
                    meld="pao",
                    cards=cards,
                    rule_id=rule,
                    claimed=card,
                    from_seat=who,
                    upgrades=idx,
                )
            )
    elif claim == "peng":
        pair = sorted(c for c in s.hands[seat] if c >> 2 == k)
        ctx.emit(
            MeldMade(
                seat=seat,
                meld="peng",
                cards=pair + [card],
                rule_id=rule,
                claimed=card,
                from_seat=who,
            )
        )
    else:  # chi
        first = True
        for g in groups:
            ctx.emit(
                MeldMade(
                    seat=seat,
                    meld="chi",
                    cards=list(g),
                    rule_id=rule if first else "PH-6.5",
                    claimed=card if first else None,
                    from_seat=who if first else None,
                )
            )
            first = False
    after_meld(ctx, seat)
