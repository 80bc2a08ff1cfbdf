"""TN-2.1: round seeds, committed first, mixed with every entrant's seed digest, then revealed.

The mix is TB-3.1's for a table's people: ``sha256(round_seed || d_1 || ... || d_n)`` with
``d_i`` the entrants' seed digests in entry order, so the organiser, who chose the round seed
before anyone entered, cannot choose a draw or a wall. Every draw of a round (the seating, each
table's seat order, each duplicate board) reads its own stream from the mixed seed and a label.
"""

from __future__ import annotations

import hashlib

from domain.shuffle import SeedStream, commitment, dealer_and_deck

__all__ = ["commitment", "seed_hash", "mixed_seed", "stream", "board", "shuffled"]


def seed_hash(client_seed: str) -> str:
    """What an entry records of its client seed (the seed itself stays with the entrant)."""
    return hashlib.sha256(client_seed.encode("utf-8")).hexdigest()


def mixed_seed(round_seed: bytes, digests: list[str]) -> bytes:
    return hashlib.sha256(round_seed + b"".join(bytes.fromhex(d) for d in digests)).digest()


def stream(mixed: bytes, label: str, *numbers: int) -> SeedStream:
    """The integers of one draw of the round (``label`` and numbers keep draws apart)."""
    tail = b"".join(n.to_bytes(4, "big") for n in numbers)
    return SeedStream(hashlib.sha256(mixed + label.encode("ascii") + tail).digest())


def shuffled(items: list[str], source: SeedStream) -> list[str]:
    """Fisher-Yates from the top index down, as a deal's deck is shuffled."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = source.uniform(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def board_seed(mixed: bytes, deal_index: int) -> bytes:
    return hashlib.sha256(mixed + b"board" + deal_index.to_bytes(4, "big")).digest()


def board(mixed: bytes, deal_index: int, deck_size: int, seats: int) -> tuple[int, list[int]]:
    """TN-3.4: the dealer and the wall of deal ``deal_index`` at every table of a duplicate round."""
    return dealer_and_deck(board_seed(mixed, deal_index), deck_size, seats)
