"""Whose address a request's limits count (``service.http.client_address``): the connection's,
unless it comes from a proxy the operator trusts; then the first hop of ``X-Forwarded-For``,
read from the right, that is not one of the trusted proxies. What a client writes into the header
itself never chooses the address."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import pytest
from multidict import CIMultiDict

from service.http.client_address import ClientAddress, trusted_proxy


@dataclass
class Seen:
    """What ``ClientAddress.of`` reads of a request: the peer and the headers (repeatable)."""

    remote: str | None
    forwarded: list[str] = field(default_factory=list)

    @property
    def headers(self) -> CIMultiDict:
        return CIMultiDict([("X-Forwarded-For", v) for v in self.forwarded])


PROXIES = ClientAddress(["10.0.0.0/8", "fd00::/8"])


def test_without_trusted_proxies_the_header_is_ignored():
    assert ClientAddress().of(Seen("198.51.100.9", ["203.0.113.5"])) == "198.51.100.9"


def test_a_header_from_a_peer_that_is_no_trusted_proxy_is_ignored():
    assert PROXIES.of(Seen("198.51.100.9", ["203.0.113.5"])) == "198.51.100.9"


def test_the_trusted_proxy_names_the_client():
    assert PROXIES.of(Seen("10.0.0.2", ["203.0.113.5"])) == "203.0.113.5"


def test_what_the_client_wrote_left_of_its_own_address_is_never_read():
    # the client sent "X-Forwarded-For: 192.0.2.1"; our proxy appended the address it saw
    assert PROXIES.of(Seen("10.0.0.2", ["192.0.2.1, 203.0.113.5"])) == "203.0.113.5"
    # the same chain over two headers, and through two proxies of ours
    assert PROXIES.of(Seen("10.0.0.2", ["192.0.2.1", "203.0.113.5, 10.0.0.3"])) == "203.0.113.5"


def test_a_hop_that_is_no_address_counts_against_the_last_proxy_that_vouches():
    assert PROXIES.of(Seen("10.0.0.2", ["203.0.113.5, not-an-address"])) == "10.0.0.2"
    assert PROXIES.of(Seen("10.0.0.2", ["203.0.113.5, 10.0.0.3, unknown"])) == "10.0.0.2"
    assert PROXIES.of(Seen("10.0.0.2", ["garbage, 10.0.0.3"])) == "10.0.0.3"
    assert PROXIES.of(Seen("10.0.0.2", [""])) == "10.0.0.2"
    assert PROXIES.of(Seen("10.0.0.2", [])) == "10.0.0.2"


def test_ports_brackets_and_mapped_addresses_are_read_as_proxies_write_them():
    assert PROXIES.of(Seen("10.0.0.2", ["203.0.113.5:51234"])) == "203.0.113.5"
    assert PROXIES.of(Seen("10.0.0.2", ["[2001:db8::7]:443"])) == "2001:db8::/64"
    assert PROXIES.of(Seen("10.0.0.2", ["2001:db8::7"])) == "2001:db8::/64"
    assert PROXIES.of(Seen("fd00::1", ["::ffff:203.0.113.5"])) == "203.0.113.5"
    assert PROXIES.of(Seen("::ffff:10.0.0.2", ["203.0.113.5"])) == "203.0.113.5"  # a mapped peer


def test_an_ipv6_client_counts_by_its_64_network():
    """One IPv6 subscriber gets a /64 (2^64 addresses): counted by the full address, each of them
    would be a fresh budget. Behind a proxy and connected directly alike."""
    seen = {PROXIES.of(Seen("10.0.0.2", [f"2001:db8:1:2:{i:x}::{i:x}"])) for i in range(1, 200)}
    assert seen == {"2001:db8:1:2::/64"}
    assert PROXIES.of(Seen("10.0.0.2", ["2001:db8:1:3::1"])) == "2001:db8:1:3::/64"  # the next /64
    assert ClientAddress().of(Seen("2001:db8:1:2:aaaa::1")) == "2001:db8:1:2::/64"
    assert ClientAddress().of(Seen("2001:db8:1:2:bbbb::1")) == "2001:db8:1:2::/64"
    assert ClientAddress().of(Seen("::ffff:203.0.113.5")) == "203.0.113.5"  # IPv4, as it is
    assert ClientAddress().of(Seen("203.0.113.5")) == "203.0.113.5"


def test_a_client_inside_the_trusted_networks_is_its_own_address():
    assert PROXIES.of(Seen("10.0.0.2", ["10.9.9.9"])) == "10.9.9.9"


def test_an_unknown_peer_is_kept_as_it_is():
    assert PROXIES.of(Seen(None, ["203.0.113.5"])) == "?"


def test_the_flag_takes_addresses_and_networks_and_says_what_is_wrong():
    assert trusted_proxy("10.1.2.3/8") == "10.0.0.0/8"
    assert trusted_proxy(" ::1 ") == "::1/128"
    with pytest.raises(argparse.ArgumentTypeError, match="not an address or network"):
        trusted_proxy("proxy.example")
