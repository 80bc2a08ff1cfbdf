"""The metrics' labels stay bounded and the JSON log masks secrets (issue 26), without a server."""

from __future__ import annotations

import json
import logging

from prometheus_client.parser import text_string_to_metric_families
from redis import exceptions as rx

from service.app.games import kit
from service.app.request_context import RequestContext, current
from service.log_format import JsonFormatter
from service.metrics import Metrics, command_outcome, command_type
from service.store.outages import outage_kind


def test_a_command_type_is_a_label_only_when_it_names_a_command_of_the_game():
    mcr = kit("mcr")
    assert command_type(mcr, {"type": "Discard", "tile": 3}) == "Discard"
    assert command_type(mcr, {"type": "Chi"}) == "invalid"  # Paohuzi's, not MCR's
    assert command_type(mcr, {"type": "x" * 500}) == "invalid"
    assert command_type(None, {"type": "Discard"}) == "invalid"
    assert command_type(mcr, ["not", "an", "object"]) == "invalid"


def test_outcomes_and_outage_kinds_come_from_short_lists():
    from domain.errors import RuleViolation

    assert command_outcome(RuleViolation("DS-5", "no")) == "refused"
    assert command_outcome(rx.ConnectionError("gone")) == "unavailable"
    assert command_outcome(ValueError("?")) == "error"
    assert outage_kind(rx.BusyLoadingError("LOADING")) == "loading"
    assert outage_kind(rx.TimeoutError()) == "timeout"
    assert outage_kind(ConnectionResetError()) == "connection"
    assert outage_kind(KeyError()) == "other"


async def test_two_metrics_have_registries_of_their_own():
    one, two = Metrics(), Metrics()
    one.commands.labels("mcr", "Discard", "accepted").inc()
    families = {f.name: f for f in text_string_to_metric_families((await two.exposition()).decode())}
    assert not [s for s in families["dealstream_commands"].samples if s.name.endswith("_total")]


def test_a_json_line_holds_the_request_and_masks_a_secret():
    message = "GET /x?token=%s Authorization: Bearer %s"
    record = logging.LogRecord(
        "dealstream.http", logging.WARNING, __file__, 1, message, ("s3cr3t", "t0k3n"), None
    )
    reset = current.set(RequestContext("abc-123", "GET", "/deals/{deal_id}/view", "0123456789abcdef", 2))
    try:
        line = json.loads(JsonFormatter().format(record))
    finally:
        current.reset(reset)
    assert line["request_id"] == "abc-123" and line["seat"] == 2 and line["deal_id"] == "0123456789abcdef"
    assert line["level"] == "warning" and line["route"] == "/deals/{deal_id}/view"
    assert "s3cr3t" not in line["message"] and "t0k3n" not in line["message"]
