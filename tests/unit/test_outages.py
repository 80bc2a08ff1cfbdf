"""Which store errors are outages (503 DS-12, waited out by bots and streams) and which are bugs
(500): error replies of our own RESP connection get redis-py's classes, so a failover's
CLUSTERDOWN or a restarted node's LOADING is an outage wherever it comes from."""

from __future__ import annotations

import pytest
from redis import exceptions as rx

from service.store.outages import is_outage, is_outage_reply, reply_error


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        ("CLUSTERDOWN The cluster is down", rx.ClusterDownError),
        (
            "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
            rx.MasterDownError,
        ),
        ("TRYAGAIN Multiple keys request during rehashing of slot", rx.TryAgainError),
        ("LOADING Redis is loading the dataset in memory", rx.BusyLoadingError),
        ("READONLY You can't write against a read only replica.", rx.ReadOnlyError),
    ],
)
def test_a_failovers_replies_are_outages(reply, kind):
    error = reply_error(reply)
    assert type(error) is kind
    assert is_outage(error) and is_outage_reply(error)


@pytest.mark.parametrize(
    "reply",
    ["ERR unknown command 'FOO'", "WRONGTYPE Operation against a key holding the wrong kind of value",
     "MOVED 3999 127.0.0.1:6381", "ASK 3999 127.0.0.1:6381", "NOSCRIPT No matching script"],
)  # fmt: skip
def test_other_replies_are_not_outages_and_keep_their_text(reply):
    error = reply_error(reply)
    assert isinstance(error, rx.ResponseError) and str(error) == reply  # MOVED/ASK are parsed from it
    assert not is_outage(error) and not is_outage_reply(error)
    assert isinstance(reply_error("NOSCRIPT No matching script"), rx.NoScriptError)


def test_connection_errors_are_outages_and_programming_errors_are_not():
    assert is_outage(rx.ConnectionError("refused")) and is_outage(rx.TimeoutError("slow"))
    assert is_outage(ConnectionResetError()) and is_outage(rx.SlotNotCoveredError("no node"))
    assert is_outage(rx.RedisClusterException("Redis Cluster cannot be connected. Please provide ..."))
    assert not is_outage(rx.RedisClusterException("No way to dispatch this command to Redis Cluster."))
    assert not is_outage(FileNotFoundError("web/index.html")) and not is_outage(ValueError("bad"))
