"""A Botzone program at our MCR tables: the judge's requests for one seat, made from our
deal's events, and the program's response as our command (``docs/bots.md``, ``docs/botzone.md``).

The runner (``service/app/bots/programs.py``) holds one ``SeatTranslation`` per program seat and
deal. Our deal is ``mcr/2``: one wall and a dealer. The program hears it as the judge would tell it:
judge player ``j`` is our seat ``(dealer + j) % 4`` (so our dealer is player 0, East, and its
fourteenth tile is its first draw, ``2 <tile>``), the prevailing wind is ``quan``, and each of our
events becomes the request the judge sends for it (``3 <p> DRAW``, ``3 <p> BUHUA <flower>``,
``3 <p> PLAY <tile>``, a pung or chow with the discard after it as one ``PENG``/``CHI`` request,
``3 <p> GANG``, ``3 <p> BUGANG <tile>``). The tile codes, the judge's words for our actions and the
matching of a response to a legal action are the other modules' of ``domain.mcr.botzone`` (one
implementation each).

Our table asks a seat only at its decisions; the requests between them (another player's draw,
the seat's own discard, a discard it cannot claim under ``mcr/2``) are in the history with the
answer the judge wants there, ``PASS``. So every decision's input is the whole history: for a new
process the simple interaction (the turn count, then request, response, ..., request), for a
process that kept running one JSON line ``{"requests": [...], "responses": [...]}``.

A response is read by ``mcr/2``: one the judge would accept but our rules do not (a win our
scoring refuses, a claim or kong past the point ``mcr/2`` allows, a discard of a tile the seat does
not hold) raises ``ValueError`` naming the request and the answer, and the runner plays the seat's
default move (TB-2.5) with that reason. Pure: events in, text and commands out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from domain.mcr.botzone.codes import HAND, SEATS, code_of, judge_text
from domain.mcr.botzone.translation import command_for
from domain.mcr.messages import (
    AddedKongDeclared,
    Claim,
    ClaimAnswered,
    ClaimWindowOpened,
    ConcealedKongDeclared,
    DealStarted,
    Discard,
    FlowerReplaced,
    HandWon,
    SetClaimed,
    TileDiscarded,
    TileDrawn,
    TilesDealt,
    WallExhausted,
)
from domain.mcr.queries import legal_actions
from domain.mcr.tiles import FIRST_FLOWER

KEEP_RUNNING = b">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
_PLAY = (TileDrawn, TileDiscarded, ClaimWindowOpened, ConcealedKongDeclared, AddedKongDeclared, HandWon)


def _flower(t: int) -> bool:
    return t >= FIRST_FLOWER


def seat_history(
    events: Sequence[Any], seat: int, said: dict[int, str] | None = None
) -> tuple[list[str], list[str]]:
    """(requests, responses) of our ``seat`` as the judge would have sent and recorded them for
    the deal's ``events`` so far. ``responses[i]`` is the seat's answer to ``requests[i]``: what
    it did (from the events), ``PASS`` where it had nothing to decide, and for a claim that lost to
    another the words in ``said`` (the program's own, by request index). There is one response
    fewer than requests when the last request waits on the seat."""
    said = said or {}
    reqs: list[str] = []
    resps: list[str | None] = []
    dealer = quan = -1
    dealt: list[list[int]] = [[] for _ in range(SEATS)]
    drawn = None  # the dealer's fourteenth tile, its first "draw"
    in_deal = True
    claim: tuple[int, str, str] | None = None  # (seat, meld, middle) awaiting the discard after it
    my_draw = -1  # the request index of our seat's last draw
    my_claim = -1  # the request index of the discard our seat claimed with a pung or chow
    window_req = -1

    def j(s: int) -> int:
        return (s - dealer) % SEATS

    def emit(text: str, answer: str | None = "PASS") -> int:
        reqs.append(text)
        resps.append(answer)
        return len(reqs) - 1

    def draw(s: int, t: int) -> None:
        nonlocal my_draw
        if _flower(t):
            emit(f"3 {j(s)} BUHUA {code_of(t)}")
        elif s == seat:
            my_draw = emit(f"2 {code_of(t)}", None)
        else:
            emit(f"3 {j(s)} DRAW")

    def answer(i: int, text: str) -> None:
        if 0 <= i < len(resps):
            resps[i] = text

    def close_deal() -> None:
        nonlocal in_deal, my_draw
        in_deal = False
        counts, shown = [], []
        for k in range(SEATS):
            flowers = sorted(t for t in dealt[(dealer + k) % SEATS] if _flower(t))
            counts.append(str(len(flowers)))
            shown += [code_of(t) for t in flowers]
        mine = [t for t in dealt[seat] if not _flower(t)]
        if seat == dealer:
            mine.remove(drawn)
        if len(mine) != HAND:
            raise ValueError(f"seat {seat} was dealt {len(mine)} tiles, not {HAND}")
        emit(f"0 {j(seat)} {quan}")
        emit(" ".join(["1", *counts, *(code_of(t) for t in sorted(mine)), *shown]))
        if seat == dealer:
            my_draw = emit(f"2 {code_of(drawn)}", None)
        else:
            emit("3 0 DRAW")

    for e in events:
        t = type(e)
        if t is DealStarted:
            dealer, quan = e.dealer, e.prevailing_wind
            continue
        if dealer < 0:
            continue
        if in_deal:
            if t is TilesDealt:
                dealt[e.seat] += e.tiles
                if e.seat == dealer:
                    drawn = e.tiles[-1]
                continue
            if t is FlowerReplaced:
                if e.replacement is None:
                    raise ValueError("a flower found no replacement in the deal")
                dealt[e.seat].append(e.replacement)
                if e.seat == dealer and e.flower == drawn:
                    drawn = e.replacement
                continue
            if t not in _PLAY:
                continue
            close_deal()
        if t is TileDrawn:
            draw(e.seat, e.tile)
        elif t is FlowerReplaced:
            if e.replacement is not None:
                draw(e.seat, e.replacement)
        elif t is TileDiscarded:
            c = code_of(e.tile)
            if claim is not None and claim[0] == e.seat:
                words = f"PENG {c}" if claim[1] == "pung" else f"CHI {claim[2]} {c}"
                emit(f"3 {j(e.seat)} {words}")
                if e.seat == seat:
                    answer(my_claim, words)
                claim = None
            else:
                emit(f"3 {j(e.seat)} PLAY {c}")
                if e.seat == seat:
                    answer(my_draw, f"PLAY {c}")
        elif t is ClaimWindowOpened:
            window_req = len(reqs) - 1
            if seat in e.eligible:
                answer(window_req, None)  # waits on our seat until it answers
        elif t is ClaimAnswered:
            if e.seat == seat:
                word = {"pass": "PASS", "win": "HU", "kong": "GANG"}.get(e.answer)
                # a pung or chow names its discard: the one played after it, else the program's
                answer(window_req, word or said.get(window_req, "PASS"))
        elif t is SetClaimed:
            if e.meld == "kong":
                emit(f"3 {j(e.seat)} GANG")
            else:
                claim = (e.seat, e.meld, code_of(e.tiles[1]))
                if e.seat == seat:
                    my_claim = window_req
        elif t is ConcealedKongDeclared:
            emit(f"3 {j(e.seat)} GANG")
            if e.seat == seat:
                answer(my_draw, f"GANG {code_of(e.tiles[0])}")
        elif t is AddedKongDeclared:
            emit(f"3 {j(e.seat)} BUGANG {code_of(e.tile)}")
            if e.seat == seat:
                answer(my_draw, f"BUGANG {code_of(e.tile)}")
        elif t is HandWon:
            if e.seat == seat and e.self_drawn:
                answer(my_draw, "HU")
            break
        elif t is WallExhausted:
            break
    if in_deal and dealer >= 0 and all(len(d) >= HAND for d in dealt) and drawn is not None:
        close_deal()  # the dealer's first decision: nothing played yet
    if resps and resps[-1] is None:
        resps.pop()
    if any(r is None for r in resps):
        raise ValueError(f"request {resps.index(None) + 1} still waits for seat {seat}'s answer")
    return reqs, [r for r in resps if r is not None]


def simple_input(requests: Sequence[str], responses: Sequence[str], data: str = "") -> str:
    """Botzone's simple interaction: the turn count, then request, response, ..., request, then
    the line of data the program saved last and a globaldata line (we keep none: it is empty).
    A program that reads those lines would wait for them forever without them."""
    lines = [str(len(requests))]
    for i, r in enumerate(requests):
        lines.append(r)
        if i < len(responses):
            lines.append(responses[i])
    lines += [data, ""]
    return "\n".join(lines) + "\n"


def read_response(text: str) -> str:
    """The response of an answer line: the line itself, or the ``response`` of a JSON answer."""
    s = text.strip()
    if s.startswith("{"):
        try:
            data = json.loads(s)
        except ValueError:
            raise ValueError(f"{s[:60]!r} is no response") from None
        if not isinstance(data, dict) or not isinstance(data.get("response"), str):
            raise ValueError(f"{s[:60]!r} has no 'response' string")
        s = data["response"].strip()
    return " ".join(s.split())


class SeatTranslation:
    """One program seat of one deal, for ``service.app.bots.programs``: ``text`` is a decision's
    input, ``command`` the legal action the response names (``ValueError`` when ``mcr/2`` has
    none), ``known`` the discard a ``PENG``/``CHI`` response already named."""

    KEEP_RUNNING = KEEP_RUNNING
    # after its response a Botzone program may print the data it keeps and a globaldata line
    EXTRA_LINES = 2

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.asked = -1  # the index of the request the program answers now
        self.sent = 0  # how many requests a long-running process has read
        self.said: dict[int, str] = {}  # the program's responses, by request index
        self.discard: tuple[int, str] | None = None  # (window, tile code) a PENG/CHI named
        self.data = ""  # the data line the program printed after its last response

    def known(self, state: Any) -> Any:
        """After our pung or chow, the discard its response named (MC-3.5: the seat must discard
        now), without asking again; None otherwise."""
        pending, self.discard = self.discard, None
        if pending is None or state.phase != "turn" or state.turn != self.seat or not state.must_discard:
            return None
        found = [
            a for a in legal_actions(state, self.seat) if type(a) is Discard and code_of(a.tile) == pending[1]
        ]
        if not found:  # command() checked the tile was in hand after the claim: never
            raise ValueError(f"the discard {pending[1]} named after the claim is not in hand")
        return found[0]

    def inputs(self, events: Sequence[Any], fresh: bool) -> list[tuple[int, str, str | None]]:
        """What the program reads before this decision, as (request index, text, the answer
        the table expects or None for the decision itself). A new process gets the whole history
        in the simple interaction, in one text. A long-running one gets, as under the judge, each
        request it has not seen on a line of its own: those between its decisions asked nothing
        of the seat, so ``PASS`` is their only answer; the last is the decision."""
        reqs, resps = seat_history(events, self.seat, self.said)
        if len(reqs) != len(resps) + 1:
            raise ValueError(f"no request waits on seat {self.seat}")
        start = 0 if fresh else self.sent
        self.asked, self.sent = len(reqs) - 1, len(reqs)
        if fresh:
            return [(self.asked, simple_input(reqs, resps, self.data), None)]
        return [(i, reqs[i] + "\n", resps[i] if i < len(resps) else None) for i in range(start, len(reqs))]

    def kept(self, lines: list[str]) -> None:
        """The lines a program printed after a response (``EXTRA_LINES`` at most): the first is
        the data it keeps, which its next fresh input brings back (Botzone's ``data``)."""
        self.data = " ".join(lines[0].split()) if lines else ""

    def response(self, answer: str) -> str:
        """The response an answer line names (its text when it does not read as one)."""
        try:
            return read_response(answer)
        except ValueError:
            return answer.strip()

    def command(self, response: str, state: Any) -> Any:
        """The ``mcr/2`` command a response names: ``PLAY``/``GANG``/``BUGANG``/``HU`` on the
        seat's turn, ``PASS``/``HU``/``GANG``/``PENG <discard>``/``CHI <middle> <discard>`` in a
        claim window. ``ValueError`` says why when none is legal."""
        text = read_response(response)
        where = f"request {self.asked + 1}"
        self.said[self.asked] = text
        words = text.split()
        if not words or len(text) > 64:
            raise ValueError(f"{where}: {text[:64]!r} is no Botzone response")
        if state.phase == "claim" and state.window is not None:
            w = state.window
            if words[0] in ("PENG", "CHI"):
                if w.source != "discard":
                    raise ValueError(f"{where}: {text!r}: only a discard is claimed for a set")
                size = 2 if words[0] == "PENG" else 3
                if len(words) != size:
                    raise ValueError(f"{where}: {text!r}: a {words[0]} names the discard after it")
                claim = command_for(state, self.seat, " ".join(words[:-1]), where)
                self._check_discard(claim, state, words[-1], where)
                return claim
            if len(words) != 1 or words[0] not in ("PASS", "HU", "GANG"):
                raise ValueError(f"{where}: {text!r} does not answer a {w.source.replace('_', ' ')}")
            try:
                return command_for(state, self.seat, text, where)
            except ValueError:
                if words[0] == "HU":
                    raise ValueError(
                        f"{where}: HU on {code_of(w.card)}: not a win mcr/2 accepts here (MC-4.3)"
                    ) from None
                raise
        if state.phase == "turn" and state.turn == self.seat and words[0] in ("PLAY", "GANG", "BUGANG", "HU"):
            try:
                return command_for(state, self.seat, text, where)
            except ValueError:
                if words[0] == "HU":
                    raise ValueError(
                        f"{where}: HU: not a self-drawn win mcr/2 accepts here (MC-4.3)"
                    ) from None
                raise
        raise ValueError(f"{where}: {text!r} does not answer this request")

    def _check_discard(self, claim: Claim, state: Any, code: str, where: str) -> None:
        hand = list(state.hands[self.seat])
        for t in claim.tiles:
            hand.remove(t)
        if not any(code_of(t) == code for t in hand):
            raise ValueError(
                f"{where}: {judge_text(claim, state.window.card)} {code}: no {code} in hand after the claim"
            )
        self.discard = (state.window.window, code)
