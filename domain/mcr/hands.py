"""Small counts over a hand of tile ids, shared by claims, kongs and wins."""

from __future__ import annotations


def kinds_of(hand: list[int]) -> tuple[int, ...]:
    """The hand's tile kinds, sorted: the key the shape searches of ``scoring`` take."""
    return tuple(sorted([t >> 2 for t in hand]))


def tiles_of_kind(hand: list[int], k: int) -> list[int]:
    """The hand's tiles of kind ``k``, lowest id first (the ones a claim or kong uses)."""
    return sorted([t for t in hand if t >> 2 == k])
