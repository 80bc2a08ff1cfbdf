"""The MCR coach: what one seat's hand is worth now, read from its ``SeatView`` alone (MC-5).

``coach(view)`` answers the questions a player asks at the table: how far the hand is from ready
(shanten over every MCR form, MC-4.1), what it waits on and what each wait would score before
flowers (or that it falls under the 8-point minimum, MC-4.3), what each discard leaves, what a
win declared now scores, and why a complete hand shows no win. It sees exactly what the seat sees:
hands, walls and answers of others never enter, so two deals that differ only in hidden tiles get
the same advice. Every fan figure comes from the reference calculator through ``scoring``.

Waits are valued as the table stands now: "Last Tile" (the fourth copy, MC-4.2) is counted when
the other three copies are face up already; the kong, last-tile-of-the-wall and robbing fans are
not, since they depend on how the tile would come. A win the seat may declare now gets all the
facts the view holds (robbing, last tile of the wall, fourth tile, and whether the drawn tile is a
kong's own replacement: ``SeatView.drawn_replacement``, for Out with Replacement Tile).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.errors import RuleViolation
from domain.mcr import scoring
from domain.mcr.messages import Claim, DeclareWin
from domain.mcr.scoring import MIN_POINTS, Fan
from domain.mcr.tiles import FIRST_FLOWER, KIND_CODES, KINDS
from domain.mcr.view import SeatView


class TileCount(msgspec.Struct, frozen=True):
    """A tile kind and how many of its copies this seat has not seen.

    - ``tile``: the kind's code, ``"W1"`` .. ``"J3"`` (MC-1.1).
    - ``unseen``: copies not in this seat's hand, its own sets, any discard or any open set;
      they are in the wall or in other hands (or in another seat's concealed kong).
    """

    tile: str
    unseen: int


class WinPoints(msgspec.Struct, frozen=True):
    """What one win would score, before flowers (MC-4.3).

    - ``points``: the fan total before flowers.
    - ``fans``: the calculator's fans (``points`` each, ``count`` times, ``name_zh``/``name_en``:
      PyMahjongGB's names, the keys ``fans.js`` translates).
    - ``under_minimum``: true when ``points`` < 8: "under 8 points: not a win" (MC-4.3).
    """

    points: int
    fans: list[Fan]
    under_minimum: bool


class Wait(msgspec.Struct, frozen=True):
    """A kind that completes a ready hand.

    - ``tile``, ``unseen``: as in ``TileCount``.
    - ``discard``: the win on another seat's discard; ``self_drawn``: the win on an own draw.
      ``None`` only where the calculator finds no winning hand that way (never for a true wait).
    """

    tile: str
    unseen: int
    discard: WinPoints | None
    self_drawn: WinPoints | None


class DiscardOption(msgspec.Struct, frozen=True):
    """The effect of one discard, for a seat that must discard (each distinct kind in hand).

    - ``tile``: the kind discarded (any copy: copies of a kind are alike).
    - ``shanten``: the shanten after it (0: ready).
    - ``useful``: kinds that would lower that shanten (when ready: the waits), with unseen copies;
      ``useful_unseen``: their unseen copies added up.
    - ``waits``: when the discard leaves the hand ready, each wait with its scores; else empty.
    """

    tile: str
    shanten: int
    useful: list[TileCount]
    useful_unseen: int
    waits: list[Wait]


class WinNow(msgspec.Struct, frozen=True):
    """The win this seat may declare now (a ``DeclareWin`` or ``Claim(win)`` in its legal actions).

    - ``tile``: the winning tile's kind; ``self_drawn``: on its own draw (else on the window's tile).
    - ``fans``: every fan scored, the flowers' included; ``fan_points``: before flowers (>= 8);
      ``flower_points``: one per flower (MC-2.5); ``total``: what MC-4.4 pays on.
    """

    tile: str
    self_drawn: bool
    fans: list[Fan]
    fan_points: int
    flower_points: int
    total: int


class NoWin(msgspec.Struct, frozen=True):
    """Why a hand that is complete cannot be declared.

    - ``tile``: the tile that completes it (None when no single tile is the winning one).
    - ``rule``: ``"MC-4.3"`` (under 8 points before flowers), ``"MC-3.5"`` (after a chow or pung
      the seat must discard first) or ``"MC-4.5"`` (not a legal win now, any other reason).
    - ``reason``: ``"under_minimum"``, ``"must_discard"`` or ``"not_legal"``, for the web's texts.
    - ``points``, ``fans``: what the hand scores before flowers, when it was scored (else None, []).
    """

    tile: str | None
    rule: str
    reason: Literal["under_minimum", "must_discard", "not_legal"]
    points: int | None
    fans: list[Fan]


class McrAdvice(msgspec.Struct, frozen=True):
    """The coach's answer for one seat view (``GET /deals/{id}/coach``).

    - ``game``: ``"mcr"``; ``version``/``seat``: the view it was computed from.
    - ``shanten``: tiles away from ready over all MCR forms (MC-4.1): 0 ready, -1 the hand is
      complete (a seat holding 14 - 3n tiles), None before the deal is dealt.
    - ``useful``/``useful_unseen``: for a seat holding 13 - 3n tiles that is not ready, the kinds
      that lower its shanten (empty otherwise; a seat about to discard finds them per discard).
    - ``waits``: for a ready seat holding 13 - 3n tiles, every wait with unseen copies and scores.
    - ``discards``: for a seat that must discard, one entry per distinct kind in hand, in tile
      order; empty otherwise.
    - ``win``: what declaring the win offered now would score; None when none is offered.
    - ``no_win``: why a complete hand (or a tile that completes it) cannot be declared; else None.
    """

    game: Literal["mcr"]
    version: int
    seat: int | None
    shanten: int | None
    useful: list[TileCount]
    useful_unseen: int
    waits: list[Wait]
    discards: list[DiscardOption]
    win: WinNow | None
    no_win: NoWin | None


Advice = McrAdvice  # the name every game's coach answers with


# ---- what the view shows --------------------------------------------------------------------


class _Table:
    """The facts of one view the coach reads: the seat's packs and winds, and the copies seen."""

    __slots__ = ("packs", "seat_wind", "prevailing", "flowers", "in_sets", "face_up", "unseen")

    def __init__(self, view: SeatView) -> None:
        me = view.seat
        pub = view.seats[me]
        self.seat_wind = pub.wind
        self.prevailing = view.prevailing_wind
        self.flowers = len(pub.flowers)
        self.packs = scoring.packs(view.seats[me].melds, me)
        # face_up: copies in discards and exposed sets, what "fourth tile" counts (as the engine);
        # in_sets: copies in this seat's own sets; own concealed kongs are the only ones with tiles
        face_up = [0] * KINDS
        in_sets = [0] * KINDS
        kongs = [0] * KINDS
        for p in view.seats:
            for t in p.discards:
                face_up[t >> 2] += 1
            for m in p.melds:
                for t in m.tiles:
                    if m.kind == "concealed_kong":
                        kongs[t >> 2] += 1
                    else:
                        face_up[t >> 2] += 1
                    if p.seat == me:
                        in_sets[t >> 2] += 1
        in_hand = [0] * KINDS
        for t in view.hand:
            if t < FIRST_FLOWER:
                in_hand[t >> 2] += 1
        self.face_up = face_up
        self.in_sets = in_sets
        self.unseen = [max(0, 4 - face_up[k] - kongs[k] - in_hand[k]) for k in range(KINDS)]


def _drop(kinds: tuple[int, ...], k: int) -> tuple[int, ...]:
    i = kinds.index(k)
    return kinds[:i] + kinds[i + 1 :]


# ---- scores -----------------------------------------------------------------------------------

# (packs, kinds, win kind, self_drawn, fourth, seat wind, prevailing) -> WinPoints | None.
# Fans depend on nothing else here, and the same ready hand is asked about on every view until it
# changes; bounded, cleared when full. It only saves time: a cold process answers the same.
_VALUES: dict[tuple, WinPoints | None] = {}
_VALUES_LIMIT = 50_000
_MISS = object()


def _value(t: _Table, kinds: tuple[int, ...], k: int, self_drawn: bool) -> WinPoints | None:
    fourth = t.face_up[k] == 3
    key = (t.packs, kinds, k, self_drawn, fourth, t.seat_wind, t.prevailing)
    hit = _VALUES.get(key, _MISS)
    if hit is not _MISS:
        return hit
    if len(_VALUES) >= _VALUES_LIMIT:
        _VALUES.clear()
    try:
        sc = scoring.score(
            t.packs,
            scoring.hand_codes(kinds),
            KIND_CODES[k],
            0,
            self_drawn,
            fourth,
            False,
            False,
            t.seat_wind,
            t.prevailing,
        )
        v = WinPoints(sc.fan_points, sc.fans, sc.fan_points < MIN_POINTS)
    except RuleViolation:
        v = None
    _VALUES[key] = v
    return v


def _obtainable(t: _Table, kinds: tuple[int, ...], k: int) -> bool:
    """Whether a copy of ``k`` can still reach a seat holding ``kinds``: not all four are its own."""
    return kinds.count(k) + t.in_sets[k] < 4


def _ready_on(kinds: tuple[int, ...]) -> frozenset[int]:
    """The kinds that complete a hand of 13 - 3n tiles (empty when it is not ready). ``useful``
    covers every MCR form (MC-4.1) and gives the same shanten as the calculator's
    ``MahjongShanten``; at shanten 0 the kinds that lower it are the waits."""
    s, use = scoring.useful(kinds)
    return use if s == 0 else frozenset()


def _waits(t: _Table, kinds: tuple[int, ...]) -> list[Wait]:
    """Every wait of a ready hand of 13 - 3n tiles, in tile order (a fifth copy is no wait)."""
    return [
        Wait(KIND_CODES[k], t.unseen[k], _value(t, kinds, k, False), _value(t, kinds, k, True))
        for k in sorted(_ready_on(kinds))
        if _obtainable(t, kinds, k)
    ]


def _useful(t: _Table, kinds: tuple[int, ...]) -> tuple[int, list[TileCount], int]:
    """(shanten, kinds that lower it with unseen copies, their unseen copies added up)."""
    s, use = scoring.useful(kinds)
    counts = [TileCount(KIND_CODES[k], t.unseen[k]) for k in sorted(use) if _obtainable(t, kinds, k)]
    return s, counts, sum(c.unseen for c in counts)


def _complete(kinds: tuple[int, ...]) -> int | None:
    """For 14 - 3n tiles: a kind whose copy completes the rest (the hand is a winning shape), else None."""
    for k in sorted(set(kinds)):
        if k in _ready_on(_drop(kinds, k)):
            return k
    return None


# ---- the advice -------------------------------------------------------------------------------


def _score_now(
    t: _Table, view: SeatView, kinds: tuple[int, ...], tile: int, self_drawn: bool, replacement: bool = False
) -> scoring.WinScore:
    """The calculator's score of winning on ``tile`` now with every fact the view holds
    (``replacement``: the drawn tile was a kong's replacement, which the view does not say)."""
    k = tile >> 2
    robbing = not self_drawn and view.window is not None and view.window.source == "added_kong"
    # other copies face up: a claimed tile lies face up itself (in a discard pile or the kong)
    fourth = t.face_up[k] - (0 if self_drawn else 1) == 3
    return scoring.score(
        t.packs,
        scoring.hand_codes(kinds),
        KIND_CODES[k],
        t.flowers,
        self_drawn,
        fourth,
        robbing or replacement,
        view.wall_count == 0,
        t.seat_wind,
        t.prevailing,
    )


def _win_now(t: _Table, view: SeatView, kinds: tuple[int, ...]) -> WinNow | None:
    acts = view.legal_actions
    if any(type(a) is DeclareWin for a in acts) and view.drawn is not None:
        tile, self_drawn, rest = view.drawn, True, _drop(kinds, view.drawn >> 2)
    elif any(type(a) is Claim and a.claim == "win" for a in acts) and view.window is not None:
        tile, self_drawn, rest = view.window.card, False, kinds
    else:
        return None
    try:
        sc = _score_now(t, view, rest, tile, self_drawn, replacement=self_drawn and view.drawn_replacement)
    except RuleViolation:
        return None
    return WinNow(KIND_CODES[tile >> 2], self_drawn, sc.fans, sc.fan_points, sc.flower_points, sc.total)


def _no_win(t: _Table, view: SeatView, kinds: tuple[int, ...]) -> NoWin | None:
    """Why a complete hand shows no win: on the seat's own turn with 14 - 3n tiles, or on a
    window's tile that would complete its 13 - 3n (whether or not the seat may answer)."""
    me = view.seat
    acts = view.legal_actions
    if view.phase == "turn" and view.turn == me and len(kinds) % 3 == 2 and acts:
        if any(type(a) is DeclareWin for a in acts):
            return None
        if view.drawn is None:  # after a chow or pung (MC-3.5): no tile to win on
            k = _complete(kinds)
            return None if k is None else NoWin(None, "MC-3.5", "must_discard", None, [])
        tile = view.drawn
        rest = _drop(kinds, tile >> 2)
        self_drawn = True
    elif view.phase == "claim" and view.window is not None:
        w = view.window
        if w.source_seat == me or w.answer is not None or len(kinds) % 3 != 1:
            return None
        if any(type(a) is Claim and a.claim == "win" for a in acts):
            return None
        tile, rest, self_drawn = w.card, kinds, False
    else:
        return None
    if (tile >> 2) not in _ready_on(rest):
        return None
    try:
        sc = _score_now(t, view, rest, tile, self_drawn)
    except RuleViolation:
        return None
    code = KIND_CODES[tile >> 2]
    if sc.fan_points < MIN_POINTS:
        return NoWin(
            code,
            "MC-4.3",
            "under_minimum",
            sc.fan_points,
            [f for f in sc.fans if f.name_zh != scoring.FLOWER_FAN],
        )
    return NoWin(
        code, "MC-4.5", "not_legal", sc.fan_points, [f for f in sc.fans if f.name_zh != scoring.FLOWER_FAN]
    )


def _empty(view: SeatView) -> McrAdvice:
    return McrAdvice("mcr", view.version, view.seat, None, [], 0, [], [], None, None)


def coach(view: SeatView) -> McrAdvice:
    """The coach's advice for the seat of ``view``, from that view alone (deterministic)."""
    if view.seat is None or not view.seats:
        return _empty(view)
    kinds = tuple(sorted(t >> 2 for t in view.hand if t < FIRST_FLOWER))
    n = len(kinds)
    if n % 3 == 0:
        return _empty(view)
    t = _Table(view)
    useful: list[TileCount] = []
    useful_unseen = 0
    waits: list[Wait] = []
    discards: list[DiscardOption] = []
    if n % 3 == 1:
        shanten, use, total = _useful(t, kinds)
        if shanten == 0:
            waits = _waits(t, kinds)
        else:
            useful, useful_unseen = use, total
    else:
        shanten = 99
        for k in sorted(set(kinds)):
            rest = _drop(kinds, k)
            s, use, total = _useful(t, rest)
            discards.append(DiscardOption(KIND_CODES[k], s, use, total, _waits(t, rest) if s == 0 else []))
            shanten = min(shanten, s)
        if shanten == 0 and _complete(kinds) is not None:
            shanten = -1
    return McrAdvice(
        "mcr",
        view.version,
        view.seat,
        shanten,
        useful,
        useful_unseen,
        waits,
        discards,
        _win_now(t, view, kinds),
        _no_win(t, view, kinds),
    )
