"""Requests aiohttp's own parser refuses (a bad request line, header bytes it cannot take, a
header too long) are answered as problem documents too, and logged in one line.

aiohttp answers these before any handler or middleware runs, with a plain-text body and a
traceback in the log. ``install`` replaces that one method of its request handler, so every
refusal the service sends, whoever makes it, is ``application/problem+json`` with a rule id.
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from aiohttp import web, web_protocol

log = logging.getLogger("dealstream.http")

_installed = False


def _problem_for_parse_error(
    self: Any, request: Any, status: int = 500, exc: BaseException | None = None, message: str | None = None
) -> web.StreamResponse:
    if request.writer.output_size > 0:  # some of a response left already: nothing to answer
        raise ConnectionError("the response was already started")
    if status >= 500:
        log.error("error handling a request from %s", request.remote, exc_info=exc)
        detail, rule = "unexpected error (logged on the server)", None
    else:
        reason = getattr(exc, "message", None) or message or "the request could not be parsed"
        log.warning("refused a request from %s that does not parse: %s", request.remote, str(reason)[:200])
        detail = f"the request does not parse as HTTP/1.1: {str(reason)[:200]}"
        rule = "DS-10" if status == 413 else "DS-5"
    title = "Bad request" if status < 500 else "Internal error"
    body = {"type": f"/problems/{rule or status}", "title": title, "status": status, "detail": detail}
    if rule:
        body["rule"] = rule
    resp = web.Response(
        status=status, body=msgspec.json.encode(body), content_type="application/problem+json"
    )
    resp.force_close()
    return resp


def install() -> None:
    """Answer aiohttp's parser refusals as problems (idempotent)."""
    global _installed
    if not _installed:
        web_protocol.RequestHandler.handle_error = _problem_for_parse_error  # type: ignore[method-assign]
        _installed = True
