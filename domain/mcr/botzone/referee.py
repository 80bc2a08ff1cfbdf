"""The judge's reading of a match (``Referee``): the rounds, what each player may answer, and
how it ends; a win is scored from its ``WinFacts`` by the calculator the judge links."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.errors import RuleViolation
from domain.mcr import scoring
from domain.mcr.botzone.codes import (
    ALL_CODES,
    HAND,
    MAX_RESPONSE,
    SEATS,
    BotzoneError,
    is_flower_code,
    split_wall,
)
from domain.mcr.tiles import KIND_INDEX


class Penalty(Exception):
    """A response the judge punishes: ``code`` is the judge's (``WA`` wrong action, ``WH`` a win
    that is not one, ``FORMAT`` not a response at all); the match ends there."""

    def __init__(self, seat: int, code: str, reason: str) -> None:
        super().__init__(f"seat {seat}: {code}: {reason}")
        self.seat = seat
        self.code = code
        self.reason = reason


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


def win_facts_of(
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
) -> scoring.WinFacts:
    """The calculator's facts of a win as the judge states them: its packs with the offer the
    calculator reads (a chow's claimed position; a set's distance from the seat it came from)."""
    out = []
    for p in packs:
        if p.kind == "CHI":
            out.append(("CHI", p.tile, p.offer))
        else:
            out.append((p.kind, p.tile, (seat - p.offer) % SEATS))
    return scoring.WinFacts(
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


def judge_win(facts: scoring.WinFacts) -> scoring.WinScore | None:
    """The score if the judge accepts this win (eight points before flowers, MC-4.3), else None.
    The calculator is the one the judge links (PyMahjongGB is its Python build)."""
    try:
        sc = scoring.score_facts(facts)
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

    def win_facts(self, p: int) -> scoring.WinFacts:
        """The facts the judge scores a win of ``p`` on the current tile with."""
        f = self.flags
        return win_facts_of(
            self.hands[p],
            self.packs[p],
            p,
            self.last_tile,
            len(self.flowers[p]),
            self_drawn=self.stage == p,
            wall_last=not self.parts[(self.stage + 1) % 4],
            fourth=self.shown.get(self.last_tile, 0) == 3,
            about_kong=f["last_bugang"] or f["last_angang"] or f["curr_gang"],
            quan=self.quan,
        )

    def _win(self, p: int) -> None:
        sc = judge_win(self.win_facts(p))
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
