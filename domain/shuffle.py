"""The verifiable shuffle (docs/design.md, the shuffle): commit to a server seed, mix in the client's, reveal.

Anyone can re-derive the dealer and the deck from the revealed ``server_seed`` and the
``client_seed`` with nothing but SHA-256, so the server cannot have picked a deck it liked.
"""

from __future__ import annotations

import hashlib

_U64 = 1 << 64


def commitment(server_seed: bytes) -> str:
    """Hex SHA-256 of the server seed, published before the client seed is known."""
    return hashlib.sha256(server_seed).hexdigest()


def combine_seeds(server_seed: bytes, client_seed: str) -> bytes:
    """seed = sha256(server_seed || utf8(client_seed))."""
    return hashlib.sha256(server_seed + client_seed.encode("utf-8")).digest()


class SeedStream:
    """Deterministic integers from a seed: sha256(seed || counter_be64) blocks, 8-byte words."""

    __slots__ = ("_seed", "_counter", "_words")

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._words: list[int] = []

    def next_u64(self) -> int:
        if not self._words:
            block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            # popped from the end, so store reversed to keep reading order
            self._words = [int.from_bytes(block[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._words.pop()

    def uniform(self, n: int) -> int:
        """An unbiased integer in [0, n): reject x >= floor(2^64 / n) * n, then x mod n."""
        if n <= 0:
            raise ValueError("uniform(n) needs n >= 1")
        limit = (_U64 // n) * n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n


def dealer_and_deck(seed: bytes, deck_size: int, seat_count: int) -> tuple[int, list[int]]:
    """Dealer = uniform(seats), then Fisher-Yates over [0..N-1] from the top index down."""
    stream = SeedStream(seed)
    dealer = stream.uniform(seat_count)
    deck = list(range(deck_size))
    for i in range(deck_size - 1, 0, -1):
        j = stream.uniform(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return dealer, deck
