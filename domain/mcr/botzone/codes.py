"""Botzone's words: tile codes and the physical tile ids they stand for, the shape of a
request, the judge's words for our actions, and the two errors of the protocol."""

from __future__ import annotations

from typing import Any

from domain.mcr.messages import AddedKong, Claim, ConcealedKong, DeclareWin, Discard, Pass
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


class NotTranslatable(ValueError):
    """A deal the judge would not replay as it was played, or a match ``mcr/2`` would not play as
    the judge did (their walls and their rules at the wall's end differ); the message says why."""


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


def split_wall(walltiles: str) -> list[str]:
    tiles = walltiles.split(" ")
    for i, c in enumerate(tiles):
        check_code(c, f"initdata walltiles, tile {i + 1}")
    if len(tiles) % SEATS or len(tiles) < SEATS * (HAND + 2):
        raise BotzoneError("initdata walltiles", f"{len(tiles)} tiles: not four equal parts of a deal")
    return tiles


def parse_request(text: str, where: str) -> list[str]:
    """The words of one request, checked for shape (not yet for sense)."""
    if not isinstance(text, str):
        raise BotzoneError(where, f"a request is a string, not {type(text).__name__}")
    words = text.split()
    if not words or words[0] not in "0123" or len(words[0]) != 1:
        raise BotzoneError(where, f"not a Chinese Standard Mahjong request: {text[:80]!r}")
    return words


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
