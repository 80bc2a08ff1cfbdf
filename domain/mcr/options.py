"""What each seat may claim on a tile (MC-3.2, MC-3.4, MC-3.7) and how a claim window resolves:
priority first, then the seat nearest after the one the tile came from."""

from __future__ import annotations

from domain.claims import resolve
from domain.mcr.hands import kinds_of, tiles_of_kind
from domain.mcr.messages import Claim
from domain.mcr.seats import SEATS, seats_after
from domain.mcr.state import State, Window
from domain.mcr.wins import evaluate_win

PRIORITY = {"win": 3, "kong": 2, "pung": 2, "chow": 1}


def win_only(s: State, source: str) -> bool:
    """A tile that may be claimed only for a win: a robbed kong (MC-3.4), or, from the ruleset
    of MC-3.7 on, the discard made after the wall's last draw."""
    return source == "added_kong" or (
        s.rules.last_discard_only_for_a_win and source == "discard" and s.front == s.back
    )


def claim_options(s: State, seat: int, card: int, source: str, source_seat: int) -> list[Claim]:
    """A seat's claims on ``card`` (MC-3.2 / MC-3.4 / MC-3.7), without the pass; window id left 0."""
    if seat == source_seat:
        return []
    opts: list[Claim] = []
    robbing = source == "added_kong"
    if evaluate_win(s, seat, card, False, robbing) is not None:
        opts.append(Claim(seat=seat, window=0, claim="win"))
    if win_only(s, source):
        return opts
    k = card >> 2
    hand = s.hands[seat]
    same = tiles_of_kind(hand, k)
    if len(same) >= 3 and s.front < s.back:
        opts.append(Claim(seat=seat, window=0, claim="kong", tiles=same[:3]))
    if len(same) >= 2:
        opts.append(Claim(seat=seat, window=0, claim="pung", tiles=same[:2]))
    if seat == (source_seat + 1) % SEATS and k < 27:
        pos = k % 9
        kinds = {t >> 2 for t in hand}
        for lo in (k - 2, k - 1, k):
            if lo < k - pos or lo + 2 > k - pos + 8:
                continue
            others = [x for x in (lo, lo + 1, lo + 2) if x != k]
            if others[0] in kinds and others[1] in kinds:
                tiles = [tiles_of_kind(hand, x)[0] for x in others]
                opts.append(Claim(seat=seat, window=0, claim="chow", tiles=tiles))
    return opts


def has_claim(s: State, seat: int, card: int, source: str, source_seat: int) -> bool:
    """Whether ``claim_options`` offers anything, without building the claims: on most
    discards nobody can claim, and this answers that with a count before any win search."""
    if seat == source_seat:
        return False
    k = card >> 2
    kinds = kinds_of(s.hands[seat])
    if not win_only(s, source):
        if kinds.count(k) >= 2:
            return True  # a pung at least (MC-3.2)
        if seat == (source_seat + 1) % SEATS and k < 27:
            pos = k % 9
            for lo in (k - 2, k - 1, k):
                if lo < k - pos or lo + 2 > k - pos + 8:
                    continue
                if all(x in kinds for x in (lo, lo + 1, lo + 2) if x != k):
                    return True  # a chow (MC-3.2)
    return evaluate_win(s, seat, card, False, source == "added_kong", kinds) is not None


def window_options(s: State, seat: int) -> list[Claim]:
    """The seat's claims in the open window, with the window's id."""
    w = s.window
    return [
        Claim(seat=seat, window=w.window, claim=o.claim, tiles=o.tiles)
        for o in claim_options(s, seat, w.card, w.source, w.source_seat)
    ]


def claim_order(w: Window) -> list[int]:
    """MC-3.2: ties go to the seat nearest after the discarder."""
    return seats_after(w.source_seat)


def best_claim(w: Window, answers: dict[int, tuple[str, list[int]]]) -> tuple[int, str] | None:
    """The winning (seat, claim) among ``answers``: priority, then nearest after the source."""
    verdict = resolve(claim_order(w), {p: PRIORITY.get(a, 0) for p, (a, _t) in answers.items()}, {})
    return (verdict.seat, answers[verdict.seat][0]) if verdict.seat is not None else None


def expected_resolution(s: State) -> tuple[int, str] | None | bool:
    """(seat, claim) / None when the window can be resolved now; False while it must wait."""
    w = s.window
    pending = {
        p: max((PRIORITY[o.claim] for o in claim_options(s, p, w.card, w.source, w.source_seat)), default=0)
        for p in w.eligible
        if p not in w.answers
    }
    verdict = resolve(claim_order(w), {p: PRIORITY.get(a, 0) for p, (a, _t) in w.answers.items()}, pending)
    if not verdict.closed:
        return False
    return (verdict.seat, w.answers[verdict.seat][0]) if verdict.seat is not None else None
