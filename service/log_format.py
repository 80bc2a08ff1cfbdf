"""How ``dealstream serve`` logs: plain text (the default), or ``--log-format json``,
one JSON object per line.

A JSON line holds ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``,
``message``, and while a request is served (``service.app.request_context``) its
``request_id``, ``method``, ``route`` (the template, never the path: a query string may hold a
``token=``), ``deal_id`` and ``seat``; the access line of each request adds ``status`` and
``duration_ms``; an exception adds ``exc`` (its traceback). Nothing here reads a header, a query
string or a body; as a last guard, whatever looks like ``token=…`` or ``Bearer …`` in a message
is masked before it is written.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from typing import Any

from service.app.request_context import current

FORMATS = ("plain", "json")
PLAIN_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"
ACCESS_LOGGER = "dealstream.access"
# a secret that slipped into a message: a token in a query string, a bearer credential
_SECRET = re.compile(r"(?i)((?:token|invite|key)=)[^&\s\"']+|(bearer\s+)[^\s\"']+")


def _mask(text: str) -> str:
    return _SECRET.sub(lambda m: (m.group(1) or m.group(2)) + "…", text)


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        at = time.gmtime(record.created)
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", at) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": _mask(record.getMessage()),
        }
        context = current.get()
        if context is not None:
            line["request_id"] = context.request_id
            line["method"] = context.method
            line["route"] = context.route
            if context.deal_id is not None:
                line["deal_id"] = context.deal_id
            if context.seat is not None:
                line["seat"] = context.seat
        for field in ("status", "duration_ms"):
            value = getattr(record, field, None)
            if value is not None:
                line[field] = value
        if record.exc_info:
            line["exc"] = _mask(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


def configure(fmt: str = "plain", level: int = logging.INFO) -> None:
    """Log to stderr in ``fmt``: ``plain`` as before (no access lines), or ``json`` (with one
    access line per request at INFO)."""
    if fmt not in FORMATS:
        raise ValueError(f"log format is one of {', '.join(FORMATS)}")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(PLAIN_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # the access lines: one per request in JSON; plain text keeps its terminal as it was
    logging.getLogger(ACCESS_LOGGER).setLevel(logging.INFO if fmt == "json" else logging.WARNING)
