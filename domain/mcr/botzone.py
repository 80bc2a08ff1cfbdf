"""Botzone's Chinese Standard Mahjong, our side of it: tile codes, the judge's reading
of a match (``Referee``), one seat's view rebuilt from its request history (``SeatTracker``), and
the translation of our deals into Botzone matches and back (``match_of_deal``, ``deal_of_match``).

The judge (github ``ailab-pku/Chinese-Standard-Mahjong``, ``judge/main.cpp``) is not our code and
none of it is here: ``Referee`` is our own statement of how that judge plays a match, written from
reading it, so that a match can be checked, replayed and translated without running it.

How the judge reads the rules, where it differs from ``mcr/2`` (``docs/botzone.md`` lists each with
our rule ids):

- the wall is cut into four equal parts, one per player; each player deals itself 13 tiles from
  the end of its own part and draws only from it (flowers and kong replacements too). There is no
  dealer: player 0 is East and draws first; player ``i`` sits in wind ``i`` (MC-2.3, MC-2.4);
- the deal is drawn when the player on turn has an empty part (MC-3.6), whatever is left in the
  other parts;
- a discard may be claimed for a chow, pung or kong only while the part of the player after the
  discarder still holds a tile (MC-3.7 reads the whole wall);
- a kong needs a tile in the kong player's own part and in the next player's part (MC-3.3);
- the last-tile fans (Last Tile Draw / Claim) apply when the part of the player after the one on
  turn (or after the discarder) is empty (MC-4.2 reads the whole wall);
- the Last Tile fan (the fourth copy) counts the copies it has shown: discards nobody claimed and
  claimed sets, not a concealed kong.

Everything here is pure: strings in, strings and engine records out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.errors import RuleViolation
from domain.mcr import engine, scoring
from domain.mcr.messages import (
    AddedKong,
    AddedKongDeclared,
    Claim,
    ConcealedKong,
    ConcealedKongDeclared,
    DealStarted,
    DeclareWin,
    Discard,
    FlowerReplaced,
    HandWon,
    Pass,
    SetClaimed,
    TileDiscarded,
    TileDrawn,
    TilesDealt,
    WallExhausted,
)
from domain.mcr.state import Meld, State, Window
from domain.mcr.tiles import FIRST_FLOWER, FLOWER_CODES, KIND_CODES, KIND_INDEX

SEATS = 4
HAND = 13
MAX_RESPONSE = 64  # characters: every legal answer is shorter ("CHI W2 W9" is 9)


class BotzoneError(ValueError):
    """Input the judge would not send (a request) or a match that does not read; ``where`` names
    the request, the log entry or the seat."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.detail = message


class Penalty(Exception):
    """A response the judge punishes: ``code`` is the judge's (``WA`` wrong action, ``WH`` a win
    that is not one, ``FORMAT`` not a response at all); the match ends there."""

    def __init__(self, seat: int, code: str, reason: str) -> None:
        super().__init__(f"seat {seat}: {code}: {reason}")
        self.seat = seat
        self.code = code
        self.reason = reason


# ---- tile codes ---------------------------------------------------------------------------
ALL_CODES = frozenset(KIND_CODES) | frozenset(FLOWER_CODES)


def check_code(code: str, where: str) -> str:
    """``code`` if it is a Botzone tile code (W1..W9 characters, T1..T9 bamboo, B1..B9 dots,
    F1..F4 winds, J1..J3 dragons, H1..H8 flowers: our own codes, MC-1.1), else BotzoneError."""
    if code not in ALL_CODES:
        raise BotzoneError(where, f"unknown tile code {code!r}")
    return code


def is_flower_code(code: str) -> bool:
    return code[0] == "H"


def code_of(tile: int) -> str:
    return FLOWER_CODES[tile - FIRST_FLOWER] if tile >= FIRST_FLOWER else KIND_CODES[tile >> 2]


class Ids:
    """Physical tile ids (MC-1.2) for codes, the copies of a kind handed out in order of first
    sight; a fifth copy of a kind (or a second of a flower) is an error."""

    def __init__(self) -> None:
        self.used = [0] * 34
        self.flowers: set[int] = set()

    def take(self, code: str, where: str) -> int:
        check_code(code, where)
        if code[0] == "H":
            t = FIRST_FLOWER + int(code[1:]) - 1
            if t in self.flowers:
                raise BotzoneError(where, f"flower {code} appears twice")
            self.flowers.add(t)
            return t
        k = KIND_INDEX[code]
        if self.used[k] == 4:
            raise BotzoneError(where, f"a fifth {code}: there are four of each tile")
        self.used[k] += 1
        return 4 * k + self.used[k] - 1


# ---- the judge's reading ------------------------------------------------------------------
@dataclass
class Pack:
    kind: str  # PENG | GANG | CHI
    tile: str  # PENG/GANG: the kind; CHI: the middle tile
    offer: int  # PENG/GANG: the seat it came from (its own seat: concealed); CHI: 1..3 claimed


@dataclass
class Step:
    """What happened in one judge round, for translations: ``kind`` is deal, draw, flower, play,
    peng, chi, gang, angang, bugang, hu or huang; ``seat`` who; ``tile`` the tile."""

    kind: str
    seat: int
    tile: str = ""
    mid: str = ""
    discard: str = ""


@dataclass
class Outcome:
    kind: str  # HU | HUANG | PENALTY
    scores: list[int]
    seat: int | None = None
    fan: int = 0
    code: str = ""
    reason: str = ""


def split_wall(walltiles: str) -> list[str]:
    tiles = walltiles.split(" ")
    for i, c in enumerate(tiles):
        check_code(c, f"initdata walltiles, tile {i + 1}")
    if len(tiles) % SEATS or len(tiles) < SEATS * (HAND + 2):
        raise BotzoneError("initdata walltiles", f"{len(tiles)} tiles: not four equal parts of a deal")
    return tiles


def judge_win(
    hand: Sequence[str],
    packs: Sequence[Pack],
    seat: int,
    win: str,
    flowers: int,
    self_drawn: bool,
    wall_last: bool,
    fourth: bool,
    about_kong: bool,
    quan: int,
) -> scoring.WinScore | None:
    """The score if the judge accepts this win (eight points before flowers, MC-4.3), else None.
    The calculator is the one the judge links (PyMahjongGB is its Python build)."""
    out = []
    for p in packs:
        if p.kind == "CHI":
            out.append(("CHI", p.tile, p.offer))
        else:
            out.append((p.kind, p.tile, (seat - p.offer) % SEATS))
    try:
        sc = scoring.score(
            tuple(out),
            tuple(sorted(hand, key=KIND_INDEX.__getitem__)),
            win,
            flowers,
            self_drawn,
            fourth,
            about_kong,
            wall_last,
            seat,
            quan,
        )
    except (RuleViolation, ValueError, TypeError):
        return None
    return sc if sc.meets_minimum else None


class Referee:
    """A Botzone match played by the judge's reading: ``requests()`` gives this round's request
    for each seat, ``respond(answers)`` takes the four answers (a ``Penalty`` ends the match).
    ``steps`` records what happened, ``outcome`` how it ended."""

    def __init__(self, walltiles: str | Sequence[str], quan: int) -> None:
        tiles = split_wall(walltiles) if isinstance(walltiles, str) else list(walltiles)
        if not 0 <= quan <= 3:
            raise BotzoneError("initdata quan", f"the prevailing wind is 0..3, not {quan}")
        self.quan = quan
        n = len(tiles) // SEATS
        self.parts = [tiles[i * n : (i + 1) * n] for i in range(SEATS)]
        self.initial_parts = [list(p) for p in self.parts]
        self.hands: list[list[str]] = [[] for _ in range(SEATS)]
        self.packs: list[list[Pack]] = [[] for _ in range(SEATS)]
        self.flowers: list[list[str]] = [[] for _ in range(SEATS)]
        self.shown: dict[str, int] = {}
        self.stage = -2
        self.last_stage = -2
        self.last_tile = ""
        self.last_op = ""
        self.mid = ""
        self.flags = {
            "last_bugang": False,
            "curr_bugang": False,
            "last_gang": False,
            "curr_gang": False,
            "last_angang": False,
            "curr_angang": False,
        }
        self.steps: list[Step] = []
        self.rounds: list[tuple[int, str, list[str]]] = []  # (stage, last op, answers) taken
        self.outcome: Outcome | None = None
        self._requests = self._output()

    # -- the judge's side of a round ----------------------------------------------------------
    def requests(self) -> list[str] | None:
        """This round's request for each seat; None once the match is over."""
        return None if self.outcome is not None else self._requests

    def _end(self, outcome: Outcome) -> None:
        self.outcome = outcome

    def _penalise(self, seat: int, code: str, reason: str) -> None:
        self._end(Outcome("PENALTY", [-30 if i == seat else 10 for i in range(SEATS)], seat, 0, code, reason))
        raise Penalty(seat, code, reason)

    def _output(self) -> list[str]:
        s = self.stage
        if s == -2:
            return [f"0 {i} {self.quan}" for i in range(SEATS)]
        if s == -1:
            for i in range(SEATS):
                while len(self.hands[i]) < HAND:
                    t = self.parts[i].pop()
                    (self.flowers[i] if is_flower_code(t) else self.hands[i]).append(t)
                self.steps.append(Step("deal", i))
            counts = " ".join(str(len(f)) for f in self.flowers)
            shown = " ".join(t for f in self.flowers for t in f)
            return [" ".join(x for x in ("1", counts, *self.hands[i], shown) if x) for i in range(SEATS)]
        if s < 4:
            part = self.parts[s]
            if not part:
                self._end(Outcome("HUANG", [0] * SEATS))
                self.steps.append(Step("huang", s))
                return []
            t = part.pop()
            self.last_tile = t
            if is_flower_code(t):
                self.last_op = "BUHUA"
                self.flowers[s].append(t)
                self.steps.append(Step("flower", s, t))
                return [f"3 {s} BUHUA {t}"] * SEATS
            self.last_op = "DRAW"
            self.steps.append(Step("draw", s, t))
            return [f"2 {t}" if i == s else f"3 {s} DRAW" for i in range(SEATS)]
        p = s % 4
        after = self.parts[(self.last_stage + 1) % 4]
        if s < 8:
            if not after and self.last_op in ("CHI", "PENG"):
                self._penalise_quiet(p, "a chow or pung of a discard after which the next player cannot draw")
                return []
            if self.last_op == "CHI":
                return [f"3 {p} CHI {self.mid} {self.last_tile}"] * SEATS
            return [f"3 {p} {self.last_op} {self.last_tile}"] * SEATS
        if not after and self.last_op in ("GANG", "BUGANG"):
            self._penalise_quiet(p, "a kong when the next player cannot draw")
            return []
        op = f"BUGANG {self.last_tile}" if self.last_op != "GANG" and self.flags["last_bugang"] else "GANG"
        return [f"3 {p} {op}"] * SEATS

    def _penalise_quiet(self, seat: int, reason: str) -> None:
        self._end(Outcome("PENALTY", [-30 if i == seat else 10 for i in range(SEATS)], seat, 0, "WA", reason))

    # -- the players' side ----------------------------------------------------------------------
    def respond(self, answers: Sequence[str]) -> None:
        """Take one answer per seat (index = seat). Raises ``Penalty`` if the judge would punish
        one; the match is then over (``outcome``)."""
        if self.outcome is not None:
            raise BotzoneError("respond", "the match is over")
        for i, a in enumerate(answers):
            if not isinstance(a, str) or len(a) > MAX_RESPONSE or "\n" in a:
                self._penalise(i, "FORMAT", "not a one-line response")
        self.rounds.append((self.stage, self.last_op, list(answers)))
        self.steps.append(Step("round", -1))
        self.last_stage = s = self.stage
        f = self.flags
        if s < 0:
            for i in range(SEATS):
                self._want_pass(answers, i)
            self.stage += 1
        elif s < 4:
            for i in range(SEATS):
                if self.last_op == "BUHUA" or i != s:
                    self._want_pass(answers, i)
                else:
                    self._after_draw(i, answers[i])
            if self.outcome is not None:
                return
            f["last_bugang"], f["last_gang"], f["last_angang"] = (
                f["curr_bugang"],
                f["curr_gang"],
                f["curr_angang"],
            )
            f["curr_bugang"] = f["curr_gang"] = f["curr_angang"] = False
        elif s < 8:
            d = s % 4
            self._want_pass(answers, d)
            for i in range(1, SEATS):
                p = (d + i) % 4
                if answers[p] == "HU":
                    self._win(p)
                    return
            claimed = False
            for p in range(SEATS):
                if not claimed and p != d:
                    claimed = self._peng_or_gang(p, answers[p], d)
            for p in range(SEATS):
                if not claimed and p != d:
                    claimed = self._chi(p, answers[p], d)
            if self.outcome is not None:
                return
            if not claimed:
                self.stage = (d + 1) % 4
                self.shown[self.last_tile] = self.shown.get(self.last_tile, 0) + 1
        else:
            p0 = s % 4
            for i in range(SEATS):
                p = (p0 + i) % 4
                a = answers[p]
                if a == "PASS":
                    continue
                if f["last_bugang"] and p != p0 and a == "HU":
                    self._win(p)
                    return
                self._penalise(p, "WA", f"only PASS (or HU, robbing an added kong) answers a kong, not {a!r}")
            self.stage -= 8
        if self.outcome is None:
            self._requests = self._output()

    def _want_pass(self, answers: Sequence[str], seat: int) -> None:
        if answers[seat] != "PASS":
            self._penalise(seat, "WA", f"PASS expected, got {answers[seat]!r}")

    def wall_left(self, seat: int) -> int:
        return len(self.parts[seat % 4])

    def _take(self, seat: int, tile: str, n: int) -> None:
        hand = self.hands[seat]
        for _ in range(n):
            if tile not in hand:
                self._penalise(seat, "WA", f"no {tile} in hand")
            hand.remove(tile)

    def _after_draw(self, p: int, answer: str) -> None:
        f = self.flags
        words = answer.split(" ")
        if words == ["HU"]:
            self._win(p)
            return
        if len(words) != 2 or words[1] not in ALL_CODES:
            self._penalise(p, "WA", f"not an answer to a draw: {answer!r}")
        op, tile = words
        self.hands[p].append(self.last_tile)
        drawn = self.last_tile
        self.last_tile = tile
        if op == "PLAY":
            self._take(p, tile, 1)
            self.last_op = "PLAY"
            self.stage += 4
            self.steps.append(Step("play", p, tile, discard=drawn))
            return
        if op in ("GANG", "BUGANG") and (not self.parts[p] or not self.parts[(p + 1) % 4]):
            self._penalise(p, "WA", "a kong needs a tile in the player's own part and the next player's")
        if op == "GANG":
            self._take(p, tile, 4)
            self.packs[p].append(Pack("GANG", tile, p))
            self.last_op = "GANG"
            f["curr_angang"] = True
            f["curr_gang"] = f["last_gang"] = f["curr_bugang"] = f["last_bugang"] = False
            self.stage = p + 8
            self.steps.append(Step("angang", p, tile))
            return
        if op == "BUGANG":
            for pack in self.packs[p]:
                if pack.kind == "PENG" and pack.tile == tile:
                    pack.kind = "GANG"
                    self._take(p, tile, 1)
                    self.shown[tile] = 4
                    self.last_op = "BUGANG"
                    f["curr_bugang"] = True
                    f["curr_angang"] = f["last_angang"] = f["curr_gang"] = f["last_gang"] = False
                    self.stage = p + 8
                    self.steps.append(Step("bugang", p, tile))
                    return
        self._penalise(p, "WA", f"not an answer to a draw: {answer!r}")

    def _peng_or_gang(self, p: int, answer: str, d: int) -> bool:
        words = answer.split(" ")
        if words == ["PASS"]:
            return False
        if words == ["GANG"]:
            self._take(p, self.last_tile, 3)
            self.shown[self.last_tile] = 4
            self.last_op = "GANG"
            f = self.flags
            f["curr_gang"] = True
            f["last_bugang"] = f["curr_bugang"] = f["last_angang"] = f["curr_angang"] = False
            self.packs[p].append(Pack("GANG", self.last_tile, d))
            self.steps.append(Step("gang", p, self.last_tile))
            self.stage = p + 8
            return True
        if len(words) == 2 and words[0] == "PENG":
            claimed = self.last_tile
            self._take(p, claimed, 2)
            self.shown[claimed] = self.shown.get(claimed, 0) + 3
            self.last_op = "PENG"
            self.packs[p].append(Pack("PENG", claimed, d))
            if words[1] not in ALL_CODES:
                self._penalise(p, "WA", f"unknown tile {words[1]!r}")
            self.last_tile = words[1]
            self._take(p, words[1], 1)
            self.steps.append(Step("peng", p, claimed, discard=words[1]))
            self.stage = 4 + p
            return True
        if len(words) == 3:
            return False
        self._penalise(p, "WA", f"not an answer to a discard: {answer!r}")
        return False

    def _chi(self, p: int, answer: str, d: int) -> bool:
        words = answer.split(" ")
        if len(words) != 3:
            return False
        claimed = self.last_tile
        mid = words[1]
        if words[0] != "CHI" or p != (d + 1) % 4:
            self._penalise(p, "WA", f"only the next player may chow: {answer!r}")
        if (
            mid not in KIND_INDEX
            or mid[0] not in "WTB"
            or mid[0] != claimed[0]
            or abs(int(mid[1]) - int(claimed[1])) > 1
            or mid[1] in "19"
        ):
            self._penalise(p, "WA", f"no chow around {claimed} with middle {mid!r}")
        self.hands[p].append(claimed)
        n = int(mid[1])
        for x in (n - 1, n, n + 1):
            c = f"{mid[0]}{x}"
            self.shown[c] = self.shown.get(c, 0) + 1
            self._take(p, c, 1)
        self.last_op = "CHI"
        self.mid = mid
        self.packs[p].append(Pack("CHI", mid, int(claimed[1]) - n + 2))
        if words[2] not in ALL_CODES:
            self._penalise(p, "WA", f"unknown tile {words[2]!r}")
        self.last_tile = words[2]
        self._take(p, words[2], 1)
        self.steps.append(Step("chi", p, claimed, mid=mid, discard=words[2]))
        self.stage = 4 + p
        return True

    def win_facts(self, p: int) -> dict[str, Any]:
        """The facts the judge scores a win of ``p`` on the current tile with."""
        f = self.flags
        return {
            "self_drawn": self.stage == p,
            "wall_last": not self.parts[(self.stage + 1) % 4],
            "fourth": self.shown.get(self.last_tile, 0) == 3,
            "about_kong": f["last_bugang"] or f["last_angang"] or f["curr_gang"],
        }

    def _win(self, p: int) -> None:
        facts = self.win_facts(p)
        sc = judge_win(
            self.hands[p],
            self.packs[p],
            p,
            self.last_tile,
            len(self.flowers[p]),
            facts["self_drawn"],
            facts["wall_last"],
            facts["fourth"],
            facts["about_kong"],
            self.quan,
        )
        if sc is None:
            self._penalise(p, "WH", f"no eight-point win on {self.last_tile}")
        re = sc.total
        s = self.stage
        scores = [0] * SEATS
        for i in range(SEATS):
            if s < 4:
                scores[i] = 3 * (8 + re) if i == p else -(8 + re)
            elif i == p:
                scores[i] = 3 * 8 + re
            elif s == i + 4 or (s == i + 8 and (self.flags["last_bugang"] or self.flags["last_angang"])):
                scores[i] = -(8 + re)
            else:
                scores[i] = -8
        self.steps.append(Step("hu", p, self.last_tile))
        self._end(Outcome("HU", scores, p, re))


# ---- one seat's side: the view from its request history -----------------------------------
def parse_request(text: str, where: str) -> list[str]:
    """The words of one request, checked for shape (not yet for sense)."""
    if not isinstance(text, str):
        raise BotzoneError(where, f"a request is a string, not {type(text).__name__}")
    words = text.split()
    if not words or words[0] not in "0123" or len(words[0]) != 1:
        raise BotzoneError(where, f"not a Chinese Standard Mahjong request: {text[:80]!r}")
    return words


class SeatTracker:
    """One seat's picture of the match from its requests and its own responses, kept as an
    engine ``State`` whose hidden tiles are placeholders, so that ``view()`` is the very seat view
    our tables build (``projections.mcr.view_from_state``) with the legal actions the judge
    accepts. Feed it with ``request(text)`` and ``response(text)`` in order."""

    def __init__(self) -> None:
        self.me = -1
        self.quan = 0
        self.turns = 0
        self.ids = Ids()
        self.s: State | None = None
        self.drawn = [0] * SEATS  # tiles taken from each player's part
        self.flower_seen = False
        self.shown: dict[str, int] = {}
        self.flags = {
            "last_bugang": False,
            "curr_bugang": False,
            "last_gang": False,
            "curr_gang": False,
            "last_angang": False,
            "curr_angang": False,
        }
        self.stage = -2
        self.last_words: list[str] = []
        self.last_code = ""
        self.responses: list[str] = []
        self.pending: str | None = None  # the request awaiting this seat's response

    # -- the wall -------------------------------------------------------------------------------
    def part_left(self, seat: int) -> tuple[int, int]:
        """(fewest, most) tiles left in ``seat``'s part: 34 tiles a part for the judge's 136-tile
        wall without flowers, 36 for a 144-tile wall; both while no flower was seen."""
        d = self.drawn[seat % 4]
        return (36 - d, 36 - d) if self.flower_seen else (34 - d, 36 - d)

    def wall_count(self) -> int:
        size = 36 if self.flower_seen else 34
        return max(0, sum(size - d for d in self.drawn))

    # -- feeding ----------------------------------------------------------------------------------
    def request(self, text: str, where: str | None = None) -> None:
        where = where or f"request {self.turns + 1}"
        if self.pending is not None:
            raise BotzoneError(where, "a request before the response to the previous one")
        w = parse_request(text, where)
        try:
            self._request(w, where)
        except (IndexError, ValueError) as exc:
            if isinstance(exc, BotzoneError):
                raise
            raise BotzoneError(where, f"malformed request {text[:80]!r}") from None
        self.pending = text
        self.turns += 1

    def response(self, text: str, where: str | None = None) -> None:
        where = where or f"response {len(self.responses) + 1}"
        if self.pending is None:
            raise BotzoneError(where, "a response without a request")
        words = text.split()
        if self.last_words[:1] == ["2"] and words[:1] == ["GANG"] and len(words) == 2:
            self.my_kong = check_code(words[1], where)
        self.responses.append(text)
        self.pending = None

    def _need(self, cond: bool, where: str, message: str) -> None:
        if not cond:
            raise BotzoneError(where, message)

    def _seat(self, word: str, where: str) -> int:
        p = int(word)
        self._need(0 <= p < SEATS, where, f"no seat {word}")
        return p

    def _hand(self, p: int) -> list[int]:
        return self.s.hands[p]

    def _remove_code(self, p: int, code: str, n: int, where: str) -> list[int]:
        """Take ``n`` tiles of ``code`` out of seat ``p``'s hand: ours by id, another's as
        placeholders that become the copies now seen."""
        if p == self.me:
            hand = self._hand(p)
            got = [t for t in hand if t < FIRST_FLOWER and KIND_CODES[t >> 2] == code][:n]
            self._need(len(got) == n, where, f"seat {p} shows {n} x {code}, but its hand holds {len(got)}")
            for t in got:
                hand.remove(t)
            return got
        hand = self._hand(p)
        self._need(len(hand) >= n, where, f"seat {p} has no {n} tiles to show")
        del hand[:n]
        return [self.ids.take(code, where) for _ in range(n)]

    def _request(self, w: list[str], where: str) -> None:  # noqa: C901 - one dispatch per request
        kind = w[0]
        self.last_words = w
        if kind == "0":
            self._need(self.turns == 0 and len(w) == 3, where, "the first request is '0 <seat> <wind>'")
            self.me = self._seat(w[1], where)
            self.quan = int(w[2])
            self._need(0 <= self.quan < 4, where, f"no prevailing wind {w[2]}")
            return
        self._need(self.me >= 0, where, "the first request must be '0 <seat> <wind>'")
        if kind == "1":
            self._need(self.turns == 1 and len(w) >= 5 + HAND, where, "the second request deals the hands")
            counts = [int(x) for x in w[1:5]]
            self._need(
                all(0 <= c <= 8 for c in counts) and len(w) == 5 + HAND + sum(counts),
                where,
                "the deal request is '1', four flower counts, 13 tiles and the flowers",
            )
            s = State(
                created=True,
                ruleset="mcr/2",
                phase="turn",
                dealer=0,
                prevailing_wind=self.quan,
                seat_winds=list(range(SEATS)),
            )
            s.hands = [[-1] * HAND for _ in range(SEATS)]
            s.hands[self.me] = [self.ids.take(c, where) for c in w[5 : 5 + HAND]]
            self._need(all(t < FIRST_FLOWER for t in s.hands[self.me]), where, "a flower in the dealt hand")
            s.flowers = [[] for _ in range(SEATS)]
            pos = 5 + HAND
            for p in range(SEATS):
                for c in w[pos : pos + counts[p]]:
                    t = self.ids.take(c, where)
                    self._need(t >= FIRST_FLOWER, where, f"{c} is no flower")
                    s.flowers[p].append(t)
                pos += counts[p]
                self.drawn[p] = HAND + counts[p]
            self.flower_seen = sum(counts) > 0
            s.melds = [[] for _ in range(SEATS)]
            s.discards = [[] for _ in range(SEATS)]
            s.front, s.back = 0, 0
            self.s = s
            self.stage = 0
            self._sync()
            return
        self._need(self.s is not None, where, "a play request before the deal")
        s = self.s
        f = self.flags
        s.window = None
        if kind == "2":
            self._need(len(w) == 2, where, "a draw request is '2 <tile>'")
            self._need(self._may_draw(self.me), where, f"a draw for seat {self.me} when it is not its turn")
            self._end_round()
            code = check_code(w[1], where)
            self._need(not is_flower_code(code), where, "a flower is never drawn into the hand (BUHUA)")
            t = self.ids.take(code, where)
            self.drawn[self.me] += 1
            s.hands[self.me].append(t)
            s.turn, s.last_tile, s.phase, s.must_discard = self.me, t, "turn", False
            s.after_kong = f["last_bugang"] or f["last_angang"] or f["curr_gang"]
            self.last_code = code
            self.stage = self.me
            self._sync()
            return
        self._need(len(w) >= 3, where, "a public request is '3 <seat> <action> ...'")
        p = self._seat(w[1], where)
        op = w[2]
        if op == "DRAW":
            self._need(
                len(w) == 3 and self._may_draw(p) and p != self.me, where, f"seat {p} may not draw now"
            )
            self._end_round()
            self.drawn[p] += 1
            s.hands[p].append(-1)
            s.turn, s.phase, s.last_tile = p, "between", None
            self.stage = p
        elif op == "BUHUA":
            self._need(len(w) == 4 and self._may_draw(p), where, f"seat {p} may not draw a flower now")
            self._end_round()
            t = self.ids.take(w[3], where)
            self._need(t >= FIRST_FLOWER, where, f"{w[3]} is no flower")
            self.drawn[p] += 1
            self.flower_seen = True
            s.flowers[p].append(t)
            s.turn, s.phase, s.last_tile = p, "between", None
            self.stage = p
        elif op == "PLAY":
            self._need(len(w) == 4 and self.stage == p, where, f"seat {p} may not discard now")
            self._end_round()
            self._discard(p, w[3], where)
        elif op in ("PENG", "CHI"):
            self._need(4 <= self.stage < 8 and p != self.stage % 4, where, f"seat {p} may not claim now")
            d = self.stage % 4
            self._need(s.discards[d] != [], where, "nothing to claim")
            card = s.discards[d].pop()
            code = code_of(card)
            if op == "PENG":
                self._need(len(w) == 4, where, "a pung request is '3 <seat> PENG <discard>'")
                own = self._remove_code(p, code, 2, where)
                s.melds[p].append(Meld("pung", sorted([*own, card]), card, d))
                self.shown[code] = self.shown.get(code, 0) + 3
                discard = w[3]
            else:
                self._need(
                    len(w) == 5 and p == (d + 1) % 4,
                    where,
                    "a chow request is '3 <seat> CHI <mid> <discard>'",
                )
                mid = check_code(w[3], where)
                self._need(
                    mid[0] in "WTB"
                    and mid[0] == code[0]
                    and abs(int(mid[1]) - int(code[1])) <= 1
                    and mid[1] not in "19",
                    where,
                    f"no chow of {code} around {mid}",
                )
                n = int(mid[1])
                own = []
                for x in (n - 1, n, n + 1):
                    c = f"{mid[0]}{x}"
                    self.shown[c] = self.shown.get(c, 0) + 1
                    if c != code:
                        own += self._remove_code(p, c, 1, where)
                s.melds[p].append(Meld("chow", sorted([*own, card]), card, d))
                discard = w[4]
            s.turn, s.must_discard = p, True
            self._discard(p, discard, where)
        elif op == "GANG":
            self._need(len(w) == 3, where, "a kong request is '3 <seat> GANG'")
            if 4 <= self.stage < 8:  # a discard claimed for a kong
                d = self.stage % 4
                self._need(p != d, where, "a seat cannot kong its own discard")
                card = s.discards[d].pop()
                code = code_of(card)
                own = self._remove_code(p, code, 3, where)
                s.melds[p].append(Meld("kong", sorted([*own, card]), card, d))
                self.shown[code] = 4
                f["curr_gang"] = True
                f["last_bugang"] = f["curr_bugang"] = f["last_angang"] = f["curr_angang"] = False
            else:  # a concealed kong after a draw
                self._need(self.stage == p, where, f"seat {p} may not declare a kong now")
                if p == self.me:
                    code = getattr(self, "my_kong", "")
                    self._need(bool(code), where, "our own concealed kong, but no 'GANG <tile>' response")
                    tiles = self._remove_code(p, code, 4, where)
                else:
                    self._need(len(s.hands[p]) >= 4, where, f"seat {p} has no four tiles")
                    del s.hands[p][:4]
                    tiles = [-1] * 4
                s.melds[p].append(Meld("concealed_kong", tiles))
                f["last_angang"] = True
                f["last_bugang"] = f["last_gang"] = False
                f["curr_angang"] = f["curr_bugang"] = f["curr_gang"] = False
            s.turn, s.last_tile, s.phase = p, None, "between"
            self.stage = p + 8
        elif op == "BUGANG":
            self._need(len(w) == 4 and self.stage == p, where, f"seat {p} may not add to a kong now")
            code = check_code(w[3], where)
            melds = s.melds[p]
            for i, m in enumerate(melds):
                if m.kind == "pung" and code_of(m.tiles[0]) == code:
                    (t,) = self._remove_code(p, code, 1, where)
                    melds[i] = Meld("kong", [*m.tiles, t], m.card, m.from_seat, True)
                    break
            else:
                raise BotzoneError(where, f"seat {p} has no pung of {code}")
            self.shown[code] = 4
            f["last_bugang"] = True
            f["last_angang"] = f["last_gang"] = False
            f["curr_angang"] = f["curr_bugang"] = f["curr_gang"] = False
            self.last_code = code
            s.turn, s.last_tile = p, None
            if p != self.me:
                s.window = Window(self.turns, t, p, "added_kong", [self.me], {})
                s.phase = "claim"
            else:
                s.phase = "between"
            self.stage = p + 8
        else:
            raise BotzoneError(where, f"unknown action {op!r}")
        self._sync()

    def _may_draw(self, p: int) -> bool:
        """The judge's next draw is ``p``'s: again after a flower, the next player's after a
        discard nobody claimed, the kong player's after its kong."""
        st = self.stage
        return st == p or (4 <= st < 8 and p == (st + 1) % 4) or (st >= 8 and p == st % 4)

    def _discard(self, p: int, code: str, where: str) -> None:
        s = self.s
        check_code(code, where)
        if p == self.me:
            (t,) = self._remove_code(p, code, 1, where)
        else:
            self._need(len(s.hands[p]) > 0, where, f"seat {p} has nothing to discard")
            s.hands[p].pop()
            t = self.ids.take(code, where)
        s.discards[p].append(t)
        s.turn, s.last_tile, s.must_discard, s.after_kong = p, None, False, False
        self.last_code = code
        self.stage = 4 + p
        if p != self.me:
            s.window = Window(self.turns, t, p, "discard", [self.me], {})
            s.phase = "claim"
        else:
            s.phase = "between"

    def _end_round(self) -> None:
        """What the judge does after a discard nobody claimed, or at the end of a draw round."""
        f = self.flags
        if 4 <= self.stage < 8:  # the last discard was not claimed: it is a shown copy now
            self.shown[self.last_code] = self.shown.get(self.last_code, 0) + 1
        elif 8 <= self.stage:
            return  # after a kong's round the judge keeps its flags for the replacement draw
        elif self.stage >= 0:
            f["last_bugang"], f["last_gang"], f["last_angang"] = (
                f["curr_bugang"],
                f["curr_gang"],
                f["curr_angang"],
            )
            f["curr_bugang"] = f["curr_gang"] = f["curr_angang"] = False

    def _sync(self) -> None:
        s = self.s
        s.version = self.turns + 1
        left = self.wall_count()
        s.front, s.back = 0, left

    # -- the view and the judge's legal answers ------------------------------------------------------
    def view(self) -> tuple[Any, list[tuple[Any, str]]]:
        """(seat view, [(each judge-legal action, its response)]) for the last request."""
        from projections.mcr import view_from_state  # a pure projection, kept out of import time

        s = self.s
        if s is None:
            return None, []
        v = view_from_state(s, self.me)
        acts = self._judge_actions(v.legal_actions)
        import msgspec

        legal = [a for a, _ in acts]
        return msgspec.structs.replace(v, legal_actions=legal, prompt=_prompt(legal)), acts

    def _judge_win(self, tile_code: str, self_drawn: bool) -> bool:
        s = self.s
        me = self.me
        hand = [code_of(t) for t in s.hands[me]]
        if self_drawn:
            hand.remove(tile_code)
        packs = []
        for m in s.melds[me]:
            k = code_of(m.tiles[0])
            if m.kind == "chow":
                packs.append(Pack("CHI", code_of(m.tiles[1]), (m.card >> 2) - (m.tiles[0] >> 2) + 1))
            elif m.kind == "concealed_kong":
                packs.append(Pack("GANG", k, me))
            else:
                packs.append(Pack("PENG" if m.kind == "pung" else "GANG", k, m.from_seat))
        f = self.flags
        stage = self.stage
        lo, hi = self.part_left((stage + 1) % 4)
        common = dict(
            hand=hand,
            packs=packs,
            seat=me,
            win=tile_code,
            flowers=len(s.flowers[me]),
            self_drawn=self_drawn,
            fourth=self.shown.get(tile_code, 0) == 3,
            about_kong=f["last_bugang"] or f["last_angang"] or f["curr_gang"],
            quan=self.quan,
        )
        # unsure whether the next part is empty (no flower seen): a win both ways, or none
        return all(judge_win(wall_last=last, **common) is not None for last in {lo <= 0, hi <= 0})

    def _judge_actions(self, engine_acts: list) -> list[tuple[Any, str]]:
        """[(action, the judge's words for it)] of every answer the judge accepts now."""
        s = self.s
        me = self.me
        out: list[tuple[Any, str]] = []
        if s.phase == "turn" and s.turn == me and self.last_words[:1] == ["2"]:
            kong_ok = self.part_left(me)[0] > 0 and self.part_left(me + 1)[0] > 0
            for a in engine_acts:
                t = type(a)
                if t is Discard or (t in (ConcealedKong, AddedKong) and kong_ok):
                    out.append((a, judge_text(a)))
            if self._judge_win(self.last_code, True):
                k = next((i for i, (a, _) in enumerate(out) if type(a) is not Discard), len(out))
                out.insert(k, (DeclareWin(seat=me), "HU"))
            return out
        if s.phase == "claim" and s.window is not None:
            w = s.window
            out.append((Pass(seat=me, window=w.window), "PASS"))
            if self._judge_win(code_of(w.card), False):
                out.append((Claim(seat=me, window=w.window, claim="win"), "HU"))
            if w.source == "discard" and self.part_left(w.source_seat + 1)[0] > 0:
                for a in engine_acts:
                    if type(a) is Claim and a.claim != "win":
                        out.append((a, judge_text(a, w.card)))
            return out
        return []

    def after_claim(self, claim: Claim) -> Any:
        """The view after our own pung or chow, in which we choose the discard the judge wants
        in the same response (MC-3.5: a discard, nothing else)."""
        from projections.mcr import view_from_state

        s = self.s.clone()
        w = s.window
        for t in claim.tiles:
            s.hands[self.me].remove(t)
        s.discards[w.source_seat].remove(w.card)
        s.melds[self.me].append(Meld(claim.claim, sorted([*claim.tiles, w.card]), w.card, w.source_seat))
        s.window, s.turn, s.last_tile, s.must_discard, s.after_kong, s.phase = (
            None,
            self.me,
            None,
            True,
            False,
            "turn",
        )
        s.version += 1
        return view_from_state(s, self.me)


def _prompt(acts: list) -> str | None:
    if not acts:
        return None
    if type(acts[0]) is Pass:
        return "claim"
    if any(type(a) is DeclareWin for a in acts):
        return "win_or_discard"
    if any(type(a) in (ConcealedKong, AddedKong) for a in acts):
        return "kong_or_discard"
    return "discard"


def answer(tracker: SeatTracker, bot: Any) -> str:
    """This seat's response to its last request: PASS when nothing else is legal, else what the
    bot chooses among the judge-legal actions (a pung or chow with the discard after it)."""
    view, acts = tracker.view()
    if len(acts) <= 1:
        return acts[0][1] if acts else "PASS"
    choice = bot.choose(view)
    # a bot only ever picks a listed action; should one not, the first listed is answered
    choice, text = next(((a, t) for a, t in acts if a == choice), acts[0])
    if type(choice) is Claim and choice.claim in ("pung", "chow"):
        after = tracker.after_claim(choice)
        discard = bot.choose(after)
        if type(discard) is not Discard or discard not in after.legal_actions:
            discard = after.legal_actions[0]
        text = f"{text} {code_of(discard.tile)}"
    return text


def safe_answer(tracker: SeatTracker, bot: Any) -> tuple[str, str | None]:
    """``answer``, or, should our own code fail on a request that read well, the answer the
    judge always accepts (discard the tile just drawn, else PASS) and the failure, for a log:
    a crash would be a penalty."""
    try:
        return answer(tracker, bot), None
    except Exception as exc:  # noqa: BLE001 - the judge must get an answer it accepts
        words = tracker.last_words
        return (f"PLAY {words[1]}" if words[:1] == ["2"] else "PASS"), f"{type(exc).__name__}: {exc}"


def bot_seed(requests: Iterable[str]) -> int:
    """A seed from the history (the same history, the same answer, in any process)."""
    h = hashlib.sha256("\n".join(requests).encode()).digest()
    return int.from_bytes(h[:8], "big")


# ---- our deals as Botzone matches, and back ----------------------------------------------------
class NotTranslatable(ValueError):
    """A deal the judge would not replay as it was played, or a match ``mcr/2`` would not play as
    the judge did (their walls and their rules at the wall's end differ); the message says why."""


GAME_NAME = "Chinese-Standard-Mahjong"


def _play_actions(events: Sequence[Any]) -> list[tuple]:
    out: list[tuple] = []
    for e in events:
        t = type(e)
        if t is TileDiscarded:
            out.append(("PLAY", e.seat, code_of(e.tile)))
        elif t is SetClaimed:
            mid = code_of(sorted(e.tiles)[1])
            out.append(("CLAIM", e.seat, e.meld, mid, e.from_seat))
        elif t is ConcealedKongDeclared:
            out.append(("GANG", e.seat, code_of(e.tiles[0])))
        elif t is AddedKongDeclared:
            out.append(("BUGANG", e.seat, code_of(e.tile)))
        elif t is HandWon:
            out.append(("HU", e.seat, e.self_drawn, e.robbing_kong))
    return out


def _received(events: Sequence[Any], dealer: int) -> list[list[int]]:
    """Each judge player's tiles in the order the judge hands them out: the deal (its flowers,
    then its 13 tiles, each sorted: the judge shows a hand, not an order; player 0 then the tile
    our dealer "drew", its 14th), then every draw and replacement of the play."""
    dealt: list[list[int]] = [[] for _ in range(SEATS)]
    later: list[list[int]] = [[] for _ in range(SEATS)]
    in_deal = True
    drawn = None  # the dealer's tile in hand as its turn begins (MC-2.4), as the engine tracks it
    for e in events:
        t = type(e)
        if t is TilesDealt:
            dealt[(e.seat - dealer) % SEATS] += e.tiles
            if e.seat == dealer:
                drawn = e.tiles[-1]
        elif t is FlowerReplaced:
            if e.replacement is None:
                raise NotTranslatable("a flower found no replacement at the wall's end")
            (dealt if in_deal else later)[(e.seat - dealer) % SEATS].append(e.replacement)
            if in_deal and e.seat == dealer and e.flower == drawn:
                drawn = e.replacement
        elif t is TileDrawn:
            in_deal = False
            later[(e.seat - dealer) % SEATS].append(e.tile)
        elif t in (TileDiscarded, ConcealedKongDeclared, HandWon):
            in_deal = False
    out = []
    for j in range(SEATS):
        flowers = sorted(x for x in dealt[j] if x >= FIRST_FLOWER)
        tiles = [x for x in dealt[j] if x < FIRST_FLOWER]
        first = []
        if j == 0:
            tiles.remove(drawn)
            first = [drawn]
        out.append(flowers + sorted(tiles) + first + later[j])
    return out


def match_of_deal(events: Sequence[Any], deal_id: str = "") -> dict[str, Any]:
    """A finished MCR deal as a Botzone match the judge replays: ``initdata`` (the wall, cut into
    the four players' parts, and the prevailing wind ``quan``) and ``log`` (each round: the
    judge's requests, then every player's response; last the judge's finish). Judge player ``j``
    is our seat ``(dealer + j) % 4``. Raises ``NotTranslatable`` when the judge would not play the
    deal as it was played (a player took more than its part, or the rules at the wall's end)."""
    started = next((e for e in events if type(e) is DealStarted), None)
    if started is None or not any(type(e) in (HandWon, WallExhausted) for e in events):
        raise NotTranslatable("only a finished deal becomes a match")
    dealer = started.dealer
    seqs = _received(events, dealer)
    size = 36
    for j, seq in enumerate(seqs):
        if len(seq) > size:
            raise NotTranslatable(
                f"judge player {j} (our seat {(dealer + j) % SEATS}) took {len(seq)} tiles;"
                f" the judge's part of a 144-tile wall holds {size}"
            )
    used = {t for seq in seqs for t in seq}
    rest = [t for t in range(FIRST_FLOWER + 8) if t not in used]  # by kind: a match exports the same
    wall: list[str] = []
    for seq in seqs:  # the judge takes from the end of each part
        fill = [rest.pop(0) for _ in range(size - len(seq))]
        wall += [code_of(t) for t in [*fill, *reversed(seq)]]
    quan = started.prevailing_wind
    ref = Referee(wall, quan)
    acts = _play_actions(events)
    seat_of = lambda j: (dealer + j) % SEATS  # noqa: E731
    player = lambda seat: (seat - dealer) % SEATS  # noqa: E731
    log: list[Any] = []
    i = 0
    while ref.outcome is None:
        reqs = ref.requests()
        log.append({"output": {"command": "request", "content": {str(j): r for j, r in enumerate(reqs)}}})
        ans = ["PASS"] * SEATS
        st = ref.stage
        nxt = acts[i] if i < len(acts) else None
        if 0 <= st < 4 and ref.last_op == "DRAW":
            if nxt is None or player(nxt[1]) != st or nxt[0] not in ("PLAY", "GANG", "BUGANG", "HU"):
                raise NotTranslatable(
                    f"round {len(ref.rounds)}: the judge has player {st} draw"
                    f" (our seat {seat_of(st)}), the deal does not"
                )
            ans[st] = "HU" if nxt[0] == "HU" else f"{nxt[0]} {nxt[2]}"
            i += 1
        elif 4 <= st < 8 and nxt is not None:
            if nxt[0] == "CLAIM" and player(nxt[4]) == st % 4:
                q = player(nxt[1])
                if nxt[2] == "kong":
                    ans[q] = "GANG"
                    i += 1
                else:
                    after = acts[i + 1] if i + 1 < len(acts) else None
                    if after is None or after[0] != "PLAY" or after[1] != nxt[1]:
                        raise NotTranslatable(f"our seat {nxt[1]} claimed a {nxt[2]} and did not discard")
                    ans[q] = f"PENG {after[2]}" if nxt[2] == "pung" else f"CHI {nxt[3]} {after[2]}"
                    i += 2
            elif nxt[0] == "HU" and not nxt[2] and not nxt[3]:
                ans[player(nxt[1])] = "HU"
                i += 1
        elif st >= 8 and nxt is not None and nxt[0] == "HU" and nxt[3]:
            ans[player(nxt[1])] = "HU"
            i += 1
        log.append({str(j): {"verdict": "OK", "response": a} for j, a in enumerate(ans)})
        try:
            ref.respond(ans)
        except Penalty as p:
            raise NotTranslatable(
                f"the judge would punish our seat {seat_of(p.seat)} ({p.code}): {p.reason}"
            ) from None
    out = ref.outcome
    won = next((e for e in events if type(e) is HandWon), None)
    if out.kind == "PENALTY":
        raise NotTranslatable(
            f"the judge would punish our seat {seat_of(out.seat)} ({out.code}): {out.reason}"
        )
    if (
        (out.kind == "HU") != (won is not None)
        or (won is not None and seat_of(out.seat) != won.seat)
        or i != len(acts)
    ):
        ending = "a win" if won is not None else "an exhausted wall"
        raise NotTranslatable(f"the judge ends the deal differently ({out.kind}) from ours ({ending})")
    log.append(
        {
            "output": {
                "command": "finish",
                "content": {str(j): out.scores[j] for j in range(SEATS)},
                "display": {"action": out.kind, "player": out.seat, "fanCnt": out.fan},
            }
        }
    )
    return {
        "game": GAME_NAME,
        "initdata": {"srand": 0, "quan": quan, "walltiles": " ".join(wall)},
        "log": log,
        "dealstream": {"deal_id": deal_id, "dealer": dealer, "ruleset": "mcr/2"},
    }


@dataclass
class ImportedDeal:
    """What an imported match gives our engine: the deck and dealer our ``mcr/2`` deal is dealt
    from, its prevailing wind, and the judge rounds to translate into commands."""

    deck: list[int]
    dealer: int
    quan: int
    rounds: list[tuple[int, str, list[str]]]
    outcome: Outcome
    steps: list[Step] = field(default_factory=list)


def _answers_of(entry: Any, where: str) -> list[str]:
    if not isinstance(entry, dict):
        raise BotzoneError(where, "a responses entry is an object of the four players' answers")
    out = []
    for j in range(SEATS):
        r = entry.get(str(j))
        if isinstance(r, dict):
            if r.get("verdict", "OK") != "OK":
                raise BotzoneError(f"{where}, seat {j}", f"the judge recorded verdict {r.get('verdict')!r}")
            r = r.get("response")
        if not isinstance(r, str):
            raise BotzoneError(f"{where}, seat {j}", "no response string")
        if len(r) > MAX_RESPONSE:
            raise BotzoneError(f"{where}, seat {j}", f"a response of {len(r)} characters")
        out.append(r)
    return out


def read_match(match: Any) -> ImportedDeal:
    """Check a Botzone match by the judge's reading and work out the deal it is for ``mcr/2``:
    the deck our single wall must hold so that every seat is dealt and draws what the judge gave
    it (draws from the front, flower and kong replacements from the back), and the dealer
    (``dealstream.dealer`` if the match came from us, else seat 0). ``BotzoneError`` names the
    log entry or the seat of anything wrong."""
    if not isinstance(match, dict):
        raise BotzoneError("match", "a match is a JSON object with 'initdata' and 'log'")
    log = match.get("log")
    if not isinstance(log, list) or not log:
        raise BotzoneError("match", "no 'log' list")
    init = match.get("initdata")
    if not isinstance(init, dict) and isinstance(log[0], dict):
        init = (log[0].get("output") or {}).get("initdata")
    if not isinstance(init, dict) or not isinstance(init.get("walltiles"), str) or not init["walltiles"]:
        raise BotzoneError("initdata", "no 'walltiles': the wall the judge dealt is not in the match")
    quan = init.get("quan", 0)
    if not isinstance(quan, int):
        raise BotzoneError("initdata quan", "the prevailing wind is an integer 0..3")
    extra = match.get("dealstream") or {}
    dealer = extra.get("dealer", 0) if isinstance(extra, dict) else 0
    if not isinstance(dealer, int) or not 0 <= dealer < SEATS:
        raise BotzoneError("dealstream dealer", "the dealer is a seat 0..3")
    ref = Referee(init["walltiles"], quan)
    n = 0
    for k in range(1, len(log), 2):
        where = f"log entry {k}"
        answers = _answers_of(log[k], where)
        if ref.outcome is not None:
            raise BotzoneError(where, "responses after the end of the match")
        try:
            ref.respond(answers)
        except Penalty as p:
            raise BotzoneError(
                f"{where}, seat {p.seat}", f"the judge punishes this response ({p.code}): {p.reason}"
            ) from None
        n = k
    if ref.outcome is None:
        raise BotzoneError(
            f"log entry {n + 2}", "the match is truncated: the judge still waits for responses"
        )
    if ref.outcome.kind == "PENALTY":
        raise BotzoneError(f"seat {ref.outcome.seat}", f"the match ended in a penalty ({ref.outcome.reason})")
    return ImportedDeal(_deck_for(ref, dealer), dealer, quan, ref.rounds, ref.outcome, ref.steps)


def _deck_for(ref: Referee, dealer: int) -> list[int]:
    """Our deck: front = the deal in our order (dealer 14, then 13 each) and every turn's draw;
    back (read from the end) = the deal's flower replacements, then kong and flower replacements."""
    ids = Ids()
    deal: list[list[str]] = [[] for _ in range(SEATS)]
    flowers: list[list[str]] = [[] for _ in range(SEATS)]
    steps = ref.steps
    # the hands dealt: re-deal the wall parts as the judge does
    parts = [list(p) for p in ref.initial_parts]
    for j in range(SEATS):
        while len(deal[j]) < HAND:
            t = parts[j].pop()
            (flowers[j] if is_flower_code(t) else deal[j]).append(t)
    front: list[str] = []
    back: list[str] = []
    draws = [
        s for s in steps if s.kind in ("draw", "flower", "angang", "bugang", "gang", "play", "peng", "chi")
    ]
    # player 0's first draw (and any flowers before it) belongs to our dealer's 14 tiles
    k = 0
    while k < len(draws) and draws[k].kind == "flower" and draws[k].seat == 0:
        flowers[0].append(draws[k].tile)
        k += 1
    if k < len(draws) and draws[k].kind == "draw" and draws[k].seat == 0:
        deal[0].append(draws[k].tile)
        k += 1
    dealt_front: list[list[str]] = []
    deal_back: list[str] = []
    for j in range(SEATS):  # the dealer's 14th tile stays last: it is the tile it "drew"
        first = deal[j][HAND:]
        keep = HAND - len(flowers[j])
        dealt_front.append(flowers[j] + deal[j][:keep] + first)
        deal_back += deal[j][keep:HAND]
    front = [t for hand in dealt_front for t in hand]
    back = list(deal_back)
    from_back = [False] * SEATS
    for s in draws[k:]:
        if s.kind in ("draw", "flower"):
            (back if from_back[s.seat] else front).append(s.tile)
            from_back[s.seat] = s.kind == "flower" or (from_back[s.seat] and s.kind == "flower")
        else:
            from_back[s.seat] = s.kind in ("angang", "bugang", "gang")
    # flowers are replaced from the back within a draw; a flower drawn after a kong stays at the back
    if len(front) + len(back) > FIRST_FLOWER + 8:
        raise BotzoneError("initdata walltiles", "more tiles drawn than a deck holds")
    front_ids = [ids.take(c, "initdata walltiles") for c in front]
    back_ids = [ids.take(c, "initdata walltiles") for c in back]
    taken = set(front_ids) | set(back_ids)
    middle = [t for t in range(FIRST_FLOWER + 8) if t not in taken]
    return front_ids + middle + list(reversed(back_ids))


def judge_text(action: Any, card: int | None = None) -> str:
    """The judge's words for an engine action (a chow names its middle tile; ``card``: the
    claimed tile); a pung or chow still lacks the discard the judge wants after it."""
    t = type(action)
    if t is Discard:
        return f"PLAY {code_of(action.tile)}"
    if t is ConcealedKong:
        return f"GANG {code_of(action.tiles[0])}"
    if t is AddedKong:
        return f"BUGANG {code_of(action.tile)}"
    if t is DeclareWin:
        return "HU"
    if t is Pass:
        return "PASS"
    if t is Claim:
        if action.claim == "chow":
            return f"CHI {code_of(sorted([*action.tiles, card])[1])}"
        return {"win": "HU", "kong": "GANG", "pung": "PENG"}[action.claim]
    raise ValueError(f"no judge words for {action!r}")


def _command_for(s: State, seat: int, text: str, where: str) -> Any:
    """The engine command among ``seat``'s legal ones meaning the judge response ``text``."""
    card = s.window.card if s.window is not None else None
    legal = engine.legal_actions(s, seat)
    found = [a for a in legal if judge_text(a, card) == text]
    if s.phase == "turn" and s.last_tile is not None:
        found.sort(key=lambda a: 0 if type(a) is Discard and a.tile == s.last_tile else 1)
    if not found:
        raise NotTranslatable(f"{where}: mcr/2 has no legal move for seat {seat}'s {text!r} now")
    return found[0]


def play_match(
    imp: ImportedDeal, state: State, execute: Any, on_command: Any = None
) -> list[tuple[Any, list[Any]]]:
    """The commands of an imported match, decided one by one by our engine (``execute(state,
    command) -> (events, state)``, which refuses an illegal one with ``RuleViolation``) from the
    state its ``DealCreated`` gives: [(command, events)], the ``StartDeal`` first. Where ``mcr/2``
    would not play as the judge did, ``NotTranslatable`` names the log entry and the seat."""
    from domain.game import StartDeal

    batches: list[tuple[Any, list[Any]]] = []
    d = imp.dealer

    def run(cmd: Any, where: str) -> None:
        nonlocal state
        if on_command is not None:
            on_command(r, cmd, state)
        try:
            events, state = execute(state, cmd)
        except RuleViolation as exc:
            who = getattr(cmd, "seat", "?")
            raise NotTranslatable(
                f"{where}: mcr/2 refuses seat {who}'s move ({exc.rule_id}: {exc.message})"
            ) from None
        batches.append((cmd, events))

    r = 1
    run(StartDeal(seat=d, client_seed=""), "the deal")
    for r, (stage, last_op, answers) in enumerate(imp.rounds[2:], start=2):
        where = f"log entry {2 * r + 1}"
        by_seat = {(d + j) % SEATS: a for j, a in enumerate(answers)}
        if state.phase == "over":
            raise NotTranslatable(f"{where}: the judge plays on after mcr/2 ended the deal")
        if 0 <= stage < 4 and last_op == "BUHUA":
            continue
        if 0 <= stage < 4:
            seat = (d + stage) % SEATS
            if state.phase != "turn" or state.turn != seat:
                raise NotTranslatable(
                    f"{where}: the judge has seat {seat} play, mcr/2 waits for another move"
                )
            run(_command_for(state, seat, by_seat[seat], where), where)
            continue
        source = (d + stage % 4) % SEATS
        claims = {p: a for p, a in by_seat.items() if p != source and a != "PASS"}
        if state.phase != "claim":
            if claims:
                p, a = next(iter(claims.items()))
                raise NotTranslatable(
                    f"{where}: seat {p} answers {a!r}, but mcr/2 offers it nothing (MC-3.2, MC-3.7)"
                )
            continue
        window = state.window.window
        for p in [(source + i) % SEATS for i in range(1, SEATS)]:
            if state.phase != "claim" or state.window is None or state.window.window != window:
                break
            if p not in state.window.eligible or p in state.window.answers:
                if p in claims and stage < 8:
                    raise NotTranslatable(
                        f"{where}: seat {p} answers {claims[p]!r}, but mcr/2 offers it nothing"
                    )
                continue
            words = by_seat[p].split()
            text = (
                words[0]
                if words[:1] == ["PENG"]
                else " ".join(words[:2])
                if words[:1] == ["CHI"]
                else by_seat[p]
            )
            run(_command_for(state, p, text, f"{where}, seat {p}"), f"{where}, seat {p}")
        mover = next((p for p, a in claims.items() if a.split()[0] in ("PENG", "CHI")), None)
        if mover is not None and state.phase == "turn" and state.turn == mover:
            words = by_seat[mover].split()
            run(_command_for(state, mover, f"PLAY {words[-1]}", where), where)
    if state.phase != "over":
        raise NotTranslatable(
            "the match ends where mcr/2 plays on (the judge's walls run out per player, MC-3.6)"
        )
    won = state.result
    out = imp.outcome
    if (out.kind == "HU") != (won is not None) or (won is not None and won.seat != (d + out.seat) % SEATS):
        raise NotTranslatable(f"the judge ends the match with {out.kind}, mcr/2 otherwise")
    return batches
