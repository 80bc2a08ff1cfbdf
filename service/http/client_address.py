"""Which address a request comes from, for the per-address limits (DS-11, DS-28, DS-29).

By default the connection's own address: ``X-Forwarded-For`` is a header any client can write, so
it is believed only from a proxy the operator names (``serve --trusted-proxy CIDR``, repeatable).
From such a proxy the header is read right to left, the way the proxies appended it: every hop
inside a trusted network is another proxy of ours, and the first one outside them is the client.
Whatever lies left of that hop was written by the client and is never looked at. A hop that is not
an address (a proxy that wrote garbage, or nothing to the right of the client's own text) ends
the walk at the last proxy we know: the request counts against that proxy, never against an
address it cannot vouch for.

An IPv6 client counts by its /64 network: one subscriber is given a /64 (2^64 addresses), so
counted by the full address each of them would be a fresh budget. An IPv4 client (an
IPv4-mapped IPv6 one too) counts by its address.
"""

from __future__ import annotations

import argparse
import ipaddress
from collections.abc import Iterable
from typing import Any

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

MAX_HOPS = 32  # a longer chain is read no further than its last 32 hops
IPV6_PREFIX = 64  # an IPv6 client is counted by this network (one subscriber's share)


def trusted_network(text: str) -> IPNetwork:
    """A ``--trusted-proxy`` value: an address or a network (``10.0.0.0/8``, ``::1``); an
    ``argparse.ArgumentTypeError`` naming what is wrong otherwise."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not an address or network: {exc}") from None


def trusted_proxy(text: str) -> str:
    """``--trusted-proxy``'s type: the network as text, written the one way (``10.0.0.0/8``)."""
    return str(trusted_network(text))


def _address(text: str) -> IPAddress | None:
    """One hop of ``X-Forwarded-For``: an address, as proxies write it (IPv6 may come in brackets,
    either may carry a port); None when it is none."""
    hop = text.strip()
    if hop.startswith("["):  # [2001:db8::1] or [2001:db8::1]:443
        hop = hop[1 : hop.find("]")] if "]" in hop else ""
    elif hop.count(":") == 1:  # 203.0.113.7:51234
        hop = hop.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(hop)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def counted(address: IPAddress) -> str:
    """The text a client's limits count under: an IPv4 address, or an IPv6 address's /64."""
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


class ClientAddress:
    """``of(request)``: the address a request's limits count against (see the module's doc)."""

    def __init__(self, trusted: Iterable[str | IPNetwork] = ()) -> None:
        self.networks: tuple[IPNetwork, ...] = tuple(
            n if isinstance(n, (ipaddress.IPv4Network, ipaddress.IPv6Network)) else trusted_network(n)
            for n in trusted
        )

    def trusts(self, address: IPAddress) -> bool:
        return any(address.version == n.version and address in n for n in self.networks)

    def of(self, request: Any) -> str:
        peer = request.remote or "?"
        nearest = _address(peer)
        if nearest is None:
            return peer
        if not self.networks or not self.trusts(nearest):
            return counted(nearest)  # not from a proxy of ours: its header is the client's own words
        hops = [h for value in request.headers.getall("X-Forwarded-For", ()) for h in value.split(",")]
        for hop in reversed(hops[-MAX_HOPS:]):
            address = _address(hop)
            if address is None:
                break  # the proxy at ``nearest`` is the last one that can vouch for anything
            nearest = address
            if not self.trusts(address):
                return counted(address)
        return str(nearest)
