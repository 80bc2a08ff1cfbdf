"""Tiles (MC-1): ids 0..135 = 34 kinds x 4 copies (kind = id // 4), 136..143 flowers H1..H8."""

from __future__ import annotations

KIND_CODES: tuple[str, ...] = tuple(
    [f"W{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"F{i}" for i in range(1, 5)]
    + [f"J{i}" for i in range(1, 4)]
)
FLOWER_CODES: tuple[str, ...] = tuple(f"H{i}" for i in range(1, 9))
KIND_INDEX: dict[str, int] = {code: k for k, code in enumerate(KIND_CODES)}

KINDS = 34
FIRST_FLOWER = 136
DECK_SIZE = 144


def kind(tile: int) -> int:
    """Kind index 0..33 of a suited/honour id; flowers have no kind (34 + flower number)."""
    return tile >> 2 if tile < FIRST_FLOWER else KINDS + tile - FIRST_FLOWER


def is_flower(tile: int) -> bool:
    return tile >= FIRST_FLOWER


def code(tile: int) -> str:
    """'W1'..'J3' for ids 0..135, 'H1'..'H8' for flowers."""
    if tile >= FIRST_FLOWER:
        return FLOWER_CODES[tile - FIRST_FLOWER]
    return KIND_CODES[tile >> 2]


def is_suited(k: int) -> bool:
    return k < 27


def ids_of(code_: str) -> list[int]:
    """All physical ids of a tile code ('B5' -> 4 ids, 'H3' -> [138])."""
    if code_[0] == "H":
        return [FIRST_FLOWER + int(code_[1:]) - 1]
    k = KIND_INDEX[code_]
    return [4 * k + c for c in range(4)]
