"""The verifiable shuffle reproduces docs/design.md, the shuffle exactly."""

from __future__ import annotations

import hashlib

import pytest

from domain.shuffle import SeedStream, combine_seeds, commitment, dealer_and_deck

VECTOR_SEED = bytes(range(32))


def test_paohuzi_vector():
    dealer, deck = dealer_and_deck(VECTOR_SEED, 80, 3)
    assert dealer == 1
    assert deck[:12] == [55, 48, 53, 42, 65, 73, 78, 19, 71, 6, 57, 77]
    assert deck[-3:] == [10, 79, 63]
    assert sorted(deck) == list(range(80))


def test_mcr_vector():
    dealer, deck = dealer_and_deck(VECTOR_SEED, 144, 4)
    assert dealer == 1
    assert deck[:12] == [128, 41, 40, 110, 29, 34, 99, 63, 38, 48, 51, 43]
    assert deck[-3:] == [96, 4, 31]
    assert sorted(deck) == list(range(144))


def test_byte_stream_is_sha256_blocks_read_as_big_endian_words():
    stream = SeedStream(VECTOR_SEED)
    block0 = hashlib.sha256(VECTOR_SEED + (0).to_bytes(8, "big")).digest()
    block1 = hashlib.sha256(VECTOR_SEED + (1).to_bytes(8, "big")).digest()
    expected = [int.from_bytes(b[i : i + 8], "big") for b in (block0, block1) for i in range(0, 32, 8)]
    assert [stream.next_u64() for _ in range(8)] == expected


def test_uniform_rejects_the_biased_tail():
    class Fixed(SeedStream):
        def __init__(self, values):
            super().__init__(b"")
            self.values = list(values)

        def next_u64(self):
            return self.values.pop(0)

    n = 3
    limit = (2**64 // n) * n
    # the first value is in the rejected tail, the second is accepted
    assert Fixed([limit, 7]).uniform(n) == 7 % n
    assert Fixed([limit - 1]).uniform(n) == (limit - 1) % n
    with pytest.raises(ValueError):
        SeedStream(b"").uniform(0)


def test_seed_combination_and_commitment():
    server = b"\x01" * 32
    assert commitment(server) == hashlib.sha256(server).hexdigest()
    assert combine_seeds(server, "héllo") == hashlib.sha256(server + "héllo".encode()).digest()
    assert combine_seeds(server, "") == hashlib.sha256(server).digest()
    assert combine_seeds(server, "a") != combine_seeds(server, "b")
