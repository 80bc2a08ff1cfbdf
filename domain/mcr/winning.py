"""The step that ends a deal with a win (MC-4): ``HandWon`` with its fans and payments, then
the seed."""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.mcr import scoring
from domain.mcr.messages import HandWon
from domain.mcr.run import Run, reveal_seed
from domain.mcr.wins import payments, win_facts


def declare_win(
    run: Run, seat: int, tile: int, from_seat: int | None, self_drawn: bool, robbing: bool
) -> None:
    s = run.s
    facts = win_facts(s, seat, tile, self_drawn, robbing)
    sc = scoring.score_facts(facts)
    if not sc.meets_minimum:  # legal_actions already checked; defensive
        raise RuleViolation("MC-4.3", f"{sc.fan_points} points before flowers; 8 needed")
    hand = sorted(s.hands[seat])
    if self_drawn:
        hand.remove(tile)
    run.emit(
        HandWon(
            seat=seat,
            tile=tile,
            from_seat=from_seat,
            self_drawn=self_drawn,
            robbing_kong=robbing,
            about_kong=facts.about_kong,
            wall_last=facts.wall_last,
            fourth_tile=facts.fourth,
            hand=hand,
            fans=sc.fans,
            fan_points=sc.fan_points,
            flower_points=sc.flower_points,
            total=sc.total,
            payments=payments(seat, from_seat, sc.total),
        )
    )
    reveal_seed(run)
