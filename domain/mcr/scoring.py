"""The one adapter between the domain and PyMahjongGB (MC-4.2): fans, the 8-point minimum, shanten.

The domain hands over facts (packs with offers, concealed hand, winning tile, flower count and
the winning-event flags); this module turns them into tile codes, calls the reference
calculator once, translates its ``TypeError`` codes into ``RuleViolation`` and applies MC-4.3
(8 points before flowers). Shanten and waits are cached by the sorted kinds of a hand; the
regular-hand form's useful tiles come from ``regular_shanten`` (the same answers, faster).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import MahjongGB
import msgspec

from domain.errors import RuleViolation
from domain.mcr.regular_shanten import regular_useful
from domain.mcr.tiles import KIND_CODES, KIND_INDEX

MIN_POINTS = 8  # MC-4.3
FLOWER_FAN = "花牌"

_calc = MahjongGB.MahjongFanCalculator
_shanten = MahjongGB.MahjongShanten
_CHEAP_13 = (
    MahjongGB.SevenPairsShanten,
    MahjongGB.ThirteenOrphansShanten,
    MahjongGB.HonorsAndKnittedTilesShanten,
)
_REGULAR = MahjongGB.RegularShanten
_KNITTED = MahjongGB.KnittedStraightShanten
# the six knitted straights (1-4-7 / 2-5-8 / 3-6-9 spread over the three suits), as kind sets
_KNITS = [
    frozenset(9 * suit + start + 3 * i for suit, start in zip(perm, (0, 1, 2), strict=True) for i in range(3))
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
]

_NOT_A_TILE = "not a tile the fan calculator accepts (flowers go in the count)"
# PyMahjongGB error codes (sic, including its spelling) -> what the user is told.
_ERRORS = {
    "ERROR_NOT_WIN": ("MC-4.1", "the tiles do not form a winning hand"),
    "ERROR_WRONG_TILES_COUNT": ("MC-4.1", "wrong number of tiles for a winning hand"),
    "ERROR_TILE_COUNT_GREATER_THAN_4": ("MC-1.1", "more than four copies of a tile"),
    "ERROE_WRONG_TILE_CODE": ("MC-1.1", _NOT_A_TILE),
    "ERROR_WRONG_TILE_CODE": ("MC-1.1", _NOT_A_TILE),
    "ERROR_INVALID_HAND_OR_PACK": ("MC-4.1", "invalid hand or sets for the fan calculator"),
}


class Fan(msgspec.Struct, frozen=True):
    """One scored fan: ``points`` each, ``count`` times (MC-4.2)."""

    points: int
    count: int
    name_zh: str
    name_en: str


class WinScore(msgspec.Struct, frozen=True):
    fans: list[Fan]
    fan_points: int  # before flowers (MC-4.3)
    flower_points: int  # MC-2.5
    total: int  # fan_points + flower_points (MC-4.4 pays on this)

    @property
    def meets_minimum(self) -> bool:
        return self.fan_points >= MIN_POINTS


def packs(melds: Iterable[Any], seat: int) -> tuple | None:
    """A seat's sets as PyMahjongGB packs: a claimed set carries the discarder's seat relative to
    this one (an offer of 0 would score it as concealed); a chow's code is its middle tile and its
    offer says which of its three tiles was claimed. None when a concealed kong shows no tiles
    (another seat's, in a view: MC-5.1)."""
    out = []
    for m in melds:
        if not m.tiles:
            return None
        k = m.tiles[0] >> 2
        if m.kind == "chow":
            lo = min(t >> 2 for t in m.tiles)
            out.append(("CHI", KIND_CODES[lo + 1], (m.card >> 2) - lo + 1))
        elif m.kind == "concealed_kong":
            out.append(("GANG", KIND_CODES[k], 0))
        else:
            out.append(("PENG" if m.kind == "pung" else "GANG", KIND_CODES[k], (seat - m.from_seat) % 4))
    return tuple(out)


def translate(exc: TypeError) -> RuleViolation:
    """A calculator ``TypeError`` as a rule violation (never a 500)."""
    code = str(exc.args[0]) if exc.args else "UNKNOWN"
    rule, message = _ERRORS.get(code, ("MC-4.2", "the fan calculator rejected the hand"))
    return RuleViolation(rule, f"{message} ({code})")


def raw_fans(
    packs: tuple,
    hand: tuple[str, ...],
    win: str,
    flowers: int,
    self_drawn: bool,
    fourth: bool,
    about_kong: bool,
    wall_last: bool,
    seat_wind: int,
    prevailing: int,
) -> tuple[tuple[int, int, str, str], ...]:
    """The bare calculator call (bench baseline)."""
    return _calc(
        packs, hand, win, flowers, self_drawn, fourth, about_kong, wall_last, seat_wind, prevailing, True
    )


class WinFacts(NamedTuple):
    """Everything that decides a win's fans (MC-4.2), in one object (as the ``mahjong``
    package's HandConfig names a win's situation). A tuple, so ``score(*facts)`` still reads it."""

    packs: tuple  # the sets: (kind, middle or tile code, offer), claimed ones with their offer
    hand: tuple[str, ...]  # the concealed tiles' codes, without the winning tile
    win: str  # the winning tile's code
    flowers: int
    self_drawn: bool
    fourth: bool  # the last of its kind: the other three are visible
    about_kong: bool  # out with replacement tile, or robbing the kong
    wall_last: bool  # the wall's last tile (self-drawn) or the discard after it
    seat_wind: int
    prevailing: int


def score_facts(facts: WinFacts) -> WinScore:
    return score(*facts)


def score(
    packs: tuple,
    hand: tuple[str, ...],
    win: str,
    flowers: int,
    self_drawn: bool,
    fourth: bool,
    about_kong: bool,
    wall_last: bool,
    seat_wind: int,
    prevailing: int,
) -> WinScore:
    """Fans of a complete hand; raises RuleViolation (MC-4.1 ...) when it is not one."""
    try:
        raw = _calc(
            packs, hand, win, flowers, self_drawn, fourth, about_kong, wall_last, seat_wind, prevailing, True
        )
    except TypeError as exc:
        raise translate(exc) from None
    fans = []
    base = 0
    flower_points = 0
    for pts, cnt, zh, en in raw:
        if zh == FLOWER_FAN:
            flower_points = pts * cnt
        else:
            base += pts * cnt
        fans.append(Fan(pts, cnt, zh, en))
    return WinScore(fans, base, flower_points, base + flower_points)


_code_of = KIND_CODES.__getitem__


def hand_codes(kinds: Iterable[int]) -> tuple[str, ...]:
    return tuple(map(_code_of, kinds))


_shanten_cache: dict[tuple[int, ...], int] = {}
_waits_cache: dict[tuple[int, ...], frozenset[int]] = {}
_useful_cache: dict[tuple[int, ...], tuple[int, frozenset[int]]] = {}
_EMPTY: frozenset[int] = frozenset()
_CACHE_LIMIT = 150_000  # entries per cache (~30 MB at most)


def _trim(cache: dict) -> None:
    if len(cache) > _CACHE_LIMIT:
        cache.clear()


def shanten(kinds: tuple[int, ...]) -> int:
    """Shanten of a concealed hand of 13 - 3n tiles (sorted kinds), over all forms."""
    s = _shanten_cache.get(kinds)
    if s is None:
        if len(_shanten_cache) > _CACHE_LIMIT:
            _shanten_cache.clear()
        s = _shanten_cache[kinds] = _shanten((), tuple(map(_code_of, kinds)))
    return s


def useful(kinds: tuple[int, ...]) -> tuple[int, frozenset[int]]:
    """(shanten, kinds that lower it) over the forms that reach the minimum shanten: what the
    bots weigh, with the regular hand's part from the suit tables (``regular_useful``)."""
    r = _useful_cache.get(kinds)
    if r is not None:
        return r
    _trim(_useful_cache)
    r = _useful_cache[kinds] = _useful_over_forms(kinds, regular_useful)
    return r


def _useful_over_forms(
    kinds: tuple[int, ...], regular: Callable[[tuple[int, ...]], tuple[int, frozenset[int]]]
) -> tuple[int, frozenset[int]]:
    codes = hand_codes(kinds)
    n = len(kinds)
    best, regular_kinds = regular(kinds)
    tiles: set[str] = set(map(_code_of, regular_kinds))
    forms = _CHEAP_13 if n == 13 else ()
    for form in forms:
        s, use = form(codes)
        if s < best:
            best = s
            tiles = set(use)
        elif s == best:
            tiles.update(use)
    if n >= 10:
        # a knitted straight needs its nine tiles: skip the (slow) form when it cannot compete
        present = set(kinds)
        have = max(len(present & knit) for knit in _KNITS)
        if 8 - have <= best:
            s, use = _KNITTED(codes)
            if s < best:
                best = s
                tiles = set(use)
            elif s == best:
                tiles.update(use)
    return best, frozenset(KIND_INDEX[c] for c in tiles)


def calculator_regular_useful(kinds: tuple[int, ...]) -> tuple[int, frozenset[int]]:
    """The fan calculator's own regular-hand shanten and useful kinds: the reference that
    ``regular_useful`` is checked against (tests, benches)."""
    s, use = _REGULAR(hand_codes(kinds))
    return s, frozenset(KIND_INDEX[c] for c in use)


def waits(kinds: tuple[int, ...]) -> frozenset[int]:
    """Kinds that complete a concealed hand of 13 - 3n tiles (sorted kinds); empty if not ready."""
    w = _waits_cache.get(kinds)
    if w is None:
        _trim(_waits_cache)
        # the rules ask the fan calculator's own search: a win is never decided by a faster
        # stand-in, however well it has been checked (``useful`` serves the bots)
        w = _useful_over_forms(kinds, calculator_regular_useful)[1] if shanten(kinds) == 0 else _EMPTY
        _waits_cache[kinds] = w
    return w


def fan_points(
    packs: tuple, hand: tuple[str, ...], win: str, self_drawn: bool, seat_wind: int, prevailing: int
) -> int:
    """Points before flowers of a complete hand, -1 when it is not one.

    For searches over hypothetical hands (the strong bot): one bare calculator call, no fan list
    and no RuleViolation built; no fourth-tile, kong or last-tile facts (they are not known ahead).
    """
    try:
        raw = _calc(packs, hand, win, 0, self_drawn, False, False, False, seat_wind, prevailing, True)
    except TypeError:
        return -1
    return sum([pts * cnt for pts, cnt, _zh, _en in raw])


def shanten_once(kinds: tuple[int, ...]) -> int:
    """``shanten`` without the memo, for hands met once (sampled ones would only crowd it)."""
    return _shanten((), hand_codes(kinds))


def ready_special(kinds: tuple[int, ...]) -> bool:
    """Whether 13 tiles are ready as thirteen orphans or honours and knitted tiles (MC-4.1): their
    waits can lie far from every held tile."""
    if len(kinds) != 13:
        return False
    codes = hand_codes(kinds)
    return (
        MahjongGB.ThirteenOrphansShanten(codes)[0] == 0
        or MahjongGB.HonorsAndKnittedTilesShanten(codes)[0] == 0
    )


def knitted_overlap(kinds: tuple[int, ...]) -> int:
    """The most kinds of one knitted straight (MC-4.1) the hand holds."""
    present = set(kinds)
    return max(len(present & knit) for knit in _KNITS)
