"""What a concealed hand is worth to its owner: expected points of winning before the wall ends.

The search counts outs the way a player does: from a hand of 13 - 3n tiles, every kind that
lowers the shanten (PyMahjongGB, through ``scoring``) is a draw with probability live copies /
unseen tiles, after which the best discard that keeps the progress is kept; a ready hand wins on
each of its waits that reaches 8 points (MC-4.3), self-drawn or on another seat's discard, scored
by the fan calculator with this seat's sets, winds and flowers. Values are arrays over the number
of own draws left, so the best discard may differ with the time left.

Depth is fixed, so that every option of a decision is valued the same way: an option is always
expanded one step, hands one step from ready (and the ready hands they lead to) are valued
exactly, and farther hands get the value such hands have in greedy self-play (``_CURVES``), which
is also the floor of an expanded hand (a hand without a direct route still has detours). The
count of expanded hands per decision is bounded (``budget``); past it, hands get the table's
value. The counted routes miss later claims and changes of wait: ready values are scaled to
match what self-play hands are worth (a quarter more for a concealed hand). What does not
depend on the table (the useful kinds, the discards that keep the progress, the fans of each
wait) is memoised for the process.
"""

from __future__ import annotations

from domain.mcr import scoring
from domain.mcr.tiles import KIND_CODES, KIND_INDEX

# Process-wide memos of what does not depend on the table, each cleared when full (about 60 MB
# together at most); they only save time, never change a value.
# (packs, kinds, seat wind, prevailing) -> ((kind, points on a discard, points self-drawn), ...)
_WAITS: dict[tuple, tuple[tuple[int, int, int], ...]] = {}
_WAITS_LIMIT = 80_000
# kinds -> ((useful kind, (discards that keep the progress, ...)), ...)
_STEPS: dict[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]] = {}
_STEPS_LIMIT = 40_000

# Points a hand is worth on average in greedy self-play (wins' payments plus the loss a win saves),
# by its distance from ready (0: ready without an 8-point wait, 1..4: shanten), concealed or not,
# and own draws left in fours (0-3, 4-7, ... 20+): the value of hands the search does not expand,
# and the floor of those it does (a hand without a direct route still has detours).
_CURVES = {
    (0, False): (3.9, 10.0, 10.7, 14.5, 18.3, 20.0),
    (0, True): (3.3, 4.5, 5.7, 7.4, 9.5, 11.0),
    (1, False): (1.1, 6.4, 11.1, 14.4, 17.4, 20.8),
    (1, True): (0.6, 2.0, 3.7, 6.4, 9.3, 11.6),
    (2, False): (0.0, 2.5, 6.0, 9.2, 12.1, 14.6),
    (2, True): (0.0, 1.0, 2.5, 5.3, 7.4, 9.7),
    (3, False): (0.0, 1.0, 3.0, 5.6, 8.9, 11.8),
    (3, True): (0.0, 0.5, 2.0, 4.0, 6.3, 7.5),
    (4, False): (0.0, 0.5, 2.0, 4.0, 6.9, 9.5),
    (4, True): (0.0, 0.3, 1.5, 3.0, 5.0, 6.0),
}


def curve(level: int, melded: bool, horizon: int) -> list[float]:
    """``_CURVES`` as an array over own draws left 0..horizon (linear between bucket centres)."""
    pts = _CURVES[(min(level, 4), melded)]
    out = [0.0] * (horizon + 1)
    for t in range(1, horizon + 1):
        x = (t - 1.5) / 4
        if x <= 0:
            out[t] = pts[0] * t / 1.5
        elif x >= len(pts) - 1:
            out[t] = pts[-1]
        else:
            i = int(x)
            f = x - i
            out[t] = pts[i] * (1 - f) + pts[i + 1] * f
    return out


def _candidates(kinds: tuple[int, ...]) -> list[int]:
    """Kinds that can complete a regular ready hand: a held honour, or a suited kind within two
    ranks of a held one (three when the hand holds most of a knitted straight)."""
    present = set(kinds)
    reach = 3 if scoring.knitted_overlap(kinds) >= 6 else 2
    out = set()
    for k in present:
        if k >= 27:
            out.add(k)
            continue
        lo = k - k % 9
        for j in range(max(lo, k - reach), min(lo + 8, k + reach) + 1):
            out.add(j)
    return sorted(out)


def pack_counts(packs: tuple) -> list[int]:
    """Copies of each kind in PyMahjongGB packs (a chow's middle tile is its code)."""
    n = [0] * 34
    for kind, code, _offer in packs:
        k = KIND_INDEX[code]
        if kind == "CHI":
            n[k - 1] += 1
            n[k] += 1
            n[k + 1] += 1
        else:
            n[k] += 4 if kind == "GANG" else 3
    return n


def wait_values(
    packs: tuple, kinds: tuple[int, ...], seat_wind: int, prevailing: int
) -> tuple[tuple[int, int, int], ...]:
    """((kind, points on a discard, points self-drawn), ...) of a ready hand's complete waits."""
    key = (packs, kinds, seat_wind, prevailing)
    r = _WAITS.get(key)
    if r is None:
        if len(_WAITS) > _WAITS_LIMIT:
            _WAITS.clear()
        r = waits_of(packs, kinds, seat_wind, prevailing)
        _WAITS[key] = r
    return r


def waits_of(
    packs: tuple, kinds: tuple[int, ...], seat_wind: int, prevailing: int, self_drawn: bool = True
) -> tuple[tuple[int, int, int], ...]:
    """``wait_values`` without the memo (for hands met once, like sampled ones); with
    ``self_drawn`` False the self-drawn points are not worked out (reported as -1)."""
    codes = scoring.hand_codes(kinds)
    if scoring.ready_special(kinds):
        cands = sorted(scoring.waits(kinds))
    else:
        cands = _candidates(kinds)
    out = []
    shown = pack_counts(packs)
    for k in cands:
        if kinds.count(k) + shown[k] >= 4:  # no fifth copy (the calculator would score it)
            continue
        win = KIND_CODES[k]
        d = scoring.fan_points(packs, codes, win, False, seat_wind, prevailing)
        if d < 0:
            continue
        s = scoring.fan_points(packs, codes, win, True, seat_wind, prevailing) if self_drawn else -1
        out.append((k, d, s))
    return tuple(out)


def _drop(kinds: tuple[int, ...], d: int) -> tuple[int, ...]:
    i = kinds.index(d)
    return kinds[:i] + kinds[i + 1 :]


def add_kind(kinds: tuple[int, ...], k: int) -> tuple[int, ...]:
    """``kinds`` (sorted) with one more ``k``, still sorted."""
    i = 0
    n = len(kinds)
    while i < n and kinds[i] < k:
        i += 1
    return kinds[:i] + (k,) + kinds[i:]


def steps(kinds: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For a hand that is not ready: each useful kind, and the discards after drawing it that
    keep the progress (the hands kept are ``add_kind(kinds, k)`` without one of them)."""
    r = _STEPS.get(kinds)
    if r is None:
        if len(_STEPS) > _STEPS_LIMIT:
            _STEPS.clear()
        s, use = scoring.useful(kinds)
        out = []
        for k in sorted(use):
            if kinds.count(k) == 4:
                continue
            k14 = add_kind(kinds, k)
            kept = []
            prev = -1
            for i, d in enumerate(k14):
                if d == prev or d == k:
                    prev = d
                    continue
                prev = d
                if scoring.shanten(k14[:i] + k14[i + 1 :]) == s - 1:
                    kept.append(d)
            if kept:
                out.append((k, tuple(kept)))
        r = tuple(out)
        _STEPS[kinds] = r
    return r


def _ceil(a: list[float], b: list[float]) -> list[float]:
    """Elementwise maximum."""
    return [x if x > y else y for x, y in zip(a, b, strict=True)]


class Model:
    """The facts one decision's search shares: live copies, horizon, payments, opponents' pace.

    - ``base[k]``: copies of kind k not visible to this seat outside its own concealed hand (the
      copies a hypothetical hand holds are taken off per hand); ``bases[packs]`` the same for an
      option that moves tiles of the hand into a new set (a claim, a kong).
    - ``unseen``: tiles this seat cannot see (wall and other hands), the denominator of a draw.
    - ``horizon``: the longest number of own draws any option needs.
    - ``survive[t]``: chance that no other seat wins during the go-around before the own draw
      made with t draws left (the wall is then about 4t tiles long).
    - ``feed``: chance that one other seat discards a given live copy during a go-around, per
      copy over ``unseen`` (others keep what they need, so below one).
    - ``avoided[t]``: the loss this seat would still expect, t draws from the end, if it did not
      win (a win saves it).
    """

    __slots__ = (
        "base",
        "bases",
        "unseen",
        "horizon",
        "survive",
        "feed",
        "avoided",
        "flowers",
        "seat_wind",
        "prevailing",
        "memo",
        "expanded",
        "budget",
    )

    def __init__(
        self,
        base: list[int],
        unseen: int,
        horizon: int,
        *,
        survive: list[float],
        feed: float,
        avoided: list[float],
        flowers: int,
        seat_wind: int,
        prevailing: int,
        budget: int,
    ) -> None:
        self.base = base
        self.bases: dict[tuple, list[int]] = {}
        self.unseen = max(1, unseen)
        self.horizon = horizon
        self.survive = survive
        self.feed = feed
        self.avoided = avoided
        self.flowers = flowers
        self.seat_wind = seat_wind
        self.prevailing = prevailing
        self.memo: dict[tuple, list[float]] = {}
        self.expanded = 0
        self.budget = budget

    # -- payments (MC-4.4), as the net gain of this seat (the loss a win saves comes on top) ----
    def pay_discard(self, points: int) -> float:
        return 24 + points + self.flowers

    def pay_self(self, points: int) -> float:
        return 24 + 3 * (points + self.flowers)

    def live(self, packs: tuple, kinds: tuple[int, ...], k: int) -> int:
        n = self.bases.get(packs, self.base)[k] - kinds.count(k)
        return n if n > 0 else 0

    def value(self, packs: tuple, kinds: tuple[int, ...], root: bool = True, s: int = -1) -> list[float]:
        """Expected points, index t = own draws left, of holding ``kinds`` after a discard.
        ``root``: the hand is an option itself (searched one level deeper); ``s``: its shanten
        when the caller knows it."""
        key = (packs, kinds, root)
        v = self.memo.get(key)
        if v is not None:
            return v
        if s < 0:
            s = scoring.shanten(kinds)
        if s == 0:
            v = _ceil(self._ready(packs, kinds), self.curve(0, packs))
        elif (root or s == 1) and self.expanded < self.budget:
            self.expanded += 1
            v = _ceil(self._expand(packs, kinds, s), self.curve(s + 1, packs))
        else:
            v = self.curve(s, packs)
        self.memo[key] = v
        return v

    def curve(self, level: int, packs: tuple) -> list[float]:
        melded = any(p[2] for p in packs)
        key = ("curve", level, melded)
        v = self.memo.get(key)
        if v is None:
            v = curve(level, melded, self.horizon)
            self.memo[key] = v
        return v

    def ready_rates(self, packs: tuple, kinds: tuple[int, ...]) -> tuple[float, float, float, float]:
        """(value on discards, chance on discards, value self-drawn, chance self-drawn) per
        go-around of a ready hand."""
        n = self.unseen
        a_d = p_d = a_s = p_s = 0.0
        for k, d, s in wait_values(packs, kinds, self.seat_wind, self.prevailing):
            c = self.live(packs, kinds, k)
            if not c:
                continue
            if s >= scoring.MIN_POINTS:
                p = c / n
                p_s += p
                a_s += p * self.pay_self(s)
            if d >= scoring.MIN_POINTS:
                p = min(1.0, 3 * self.feed * c / n)
                p_d += p
                a_d += p * self.pay_discard(d)
        if p_d > 0.9:
            a_d *= 0.9 / p_d
            p_d = 0.9
        return a_d, p_d, a_s, p_s

    def _ready(self, packs: tuple, kinds: tuple[int, ...]) -> list[float]:
        a_d, p_d, a_s, p_s = self.ready_rates(packs, kinds)
        # the counted routes miss claims and later changes of wait; self-play says they add about
        # a quarter to a concealed hand (which can still claim), little to a melded one
        k = 1.05 if any(p[2] for p in packs) else 1.25
        a_d *= k
        a_s *= k
        q = self.survive
        save = self.avoided
        v = [0.0] * (self.horizon + 1)
        v[0] = 0.5 * (a_d + p_d * save[0])  # the last go-around's discards
        for t in range(1, self.horizon + 1):
            s = save[t]
            v[t] = q[t] * (a_d + p_d * s + (1 - p_d) * (a_s + p_s * s + (1 - p_s) * v[t - 1]))
        return v

    def _expand(self, packs: tuple, kinds: tuple[int, ...], s: int) -> list[float]:
        n = self.unseen
        h = self.horizon
        gain = [0.0] * (h + 1)  # sum over useful draws of chance x best value after it
        p_move = 0.0
        value = self.value
        base = self.bases.get(packs, self.base)
        for k, kept in steps(kinds):
            c = base[k] - kinds.count(k)
            if c <= 0:
                continue
            k14 = add_kind(kinds, k)
            vals = [value(packs, _drop(k14, d), False, s - 1) for d in kept]
            best = vals[0] if len(vals) == 1 else [max(col) for col in zip(*vals, strict=True)]
            p = c / n
            p_move += p
            gain = [g + p * b for g, b in zip(gain, best, strict=True)]
        v = [0.0] * (h + 1)
        if p_move == 0:
            return v
        q = self.survive
        stay = 1 - p_move
        for t in range(1, h + 1):
            v[t] = q[t] * (stay * v[t - 1] + gain[t - 1])
        return v
