"""TB-3.1: one shuffle seed from the server's seed and every person's client seed."""

from __future__ import annotations

import hashlib

from domain.shuffle import combine_seeds


def combine_people_seeds(server_seed: bytes, client_seeds: list[str]) -> bytes:
    """One person: ``sha256(server_seed || utf8(seed))``, exactly as before (old logs derive
    unchanged). Several: ``sha256(server_seed || d_1 || d_2 || ...)`` with
    ``d_i = sha256(utf8(seed_i))`` in seat order; each seed is hashed first, so no seed can run
    into the next one."""
    if not client_seeds:
        raise ValueError("a shuffle needs at least one client seed")
    if len(client_seeds) == 1:
        return combine_seeds(server_seed, client_seeds[0])
    digests = b"".join(hashlib.sha256(seed.encode("utf-8")).digest() for seed in client_seeds)
    return hashlib.sha256(server_seed + digests).digest()


def deal_seed(server_seed_hex: str, client_seed: str, client_seeds: list[str] | None) -> bytes:
    """The shuffle seed of a deal as its ``DealStarted`` names it: several people's seeds when
    it lists them (TB-3.1), else its one client seed."""
    return combine_people_seeds(bytes.fromhex(server_seed_hex), client_seeds or [client_seed])
