"""What the HTTP layer tells the operators: the request id, the access line, the HTTP
metrics, and ``GET /metrics`` on a port of its own.

``install(app, metrics)`` (called by ``bootstrap``) puts two middlewares around the API's own:

* ``observe``, outermost: takes the request id from ``X-Request-Id`` when it is a sane token
  (1 to 64 of ``[A-Za-z0-9._-]``), else makes one, and echoes it on the answer; sets the request
  context the JSON logs read (``service.app.request_context``); counts the request by method,
  route template and status with its duration; logs one access line (``dealstream.access``).
  The route is the template the router matched (``/deals/{deal_id}/view``), ``unmatched`` for a
  path no route matched: never the concrete path or its query string (``?token=`` on streams).
* ``outage_tap``, innermost (inside the problem middleware, which answers an outage 503): counts
  a store outage by its kind before it becomes that answer.

``metrics_app(metrics)`` is the small app that serves ``GET /metrics`` (the Prometheus text
format, from the app's own registry); ``serve`` runs it on ``--metrics-port``, bound to
127.0.0.1, so the public port never answers it (404 there).
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from typing import Any

from aiohttp import web

from service.app.request_context import RequestContext, current
from service.log_format import ACCESS_LOGGER
from service.metrics import CONTENT_TYPE_LATEST, UNMATCHED, Metrics
from service.store.outages import is_outage

REQUEST_ID = "X-Request-Id"
STREAM_ROUTE = "/deals/{deal_id}/events/stream"
_SANE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_KEY: Any = getattr(web, "RequestKey", None)  # aiohttp 3.12 on; a plain name before it
_ID_KEY: Any = _KEY("request_id", str) if _KEY else "dealstream.request_id"
_ROUTE_KEY: Any = _KEY("route", str) if _KEY else "dealstream.route"
CLIENT_GONE = 499  # the status counted for a request whose client hung up before its answer

access_log = logging.getLogger(ACCESS_LOGGER)


def route_template(request: web.Request) -> str:
    """The template of the route that matched ``request`` (bounded), or ``unmatched``."""
    resource = request.match_info.route.resource
    if resource is None:
        return UNMATCHED
    return resource.canonical or UNMATCHED


def request_id(request: web.Request) -> str:
    """The client's ``X-Request-Id`` when it is a sane token, else a fresh one."""
    given = request.headers.get(REQUEST_ID)
    if given is not None and _SANE_ID.fullmatch(given):
        return given
    return secrets.token_hex(8)


def _deal_id(request: web.Request) -> str | None:
    deal_id = request.match_info.get("deal_id")
    return deal_id if deal_id is not None and _SANE_ID.fullmatch(deal_id) else None


def observe_middleware(metrics: Metrics) -> Any:
    @web.middleware
    async def observe(request: web.Request, handler: Any) -> web.StreamResponse:
        route = route_template(request)
        method = request.method if request.method in _METHODS else "other"
        rid = request_id(request)
        request[_ID_KEY] = rid
        request[_ROUTE_KEY] = route
        context = RequestContext(rid, method, route, _deal_id(request))
        reset = current.set(context)
        started = time.perf_counter()
        status = 500
        try:
            response = await handler(request)
            status = response.status
            return response
        except web.HTTPException as exc:
            status = exc.status
            raise
        except (asyncio.CancelledError, ConnectionResetError):
            status = CLIENT_GONE
            raise
        finally:
            elapsed = time.perf_counter() - started
            metrics.child(metrics.http_requests, method, route, str(status)).inc()
            metrics.child(metrics.http_duration, method, route).observe(elapsed)
            access_log.info(
                "%s %s %d %.1f ms", method, route, status, elapsed * 1000,
                extra={"status": status, "duration_ms": round(elapsed * 1000, 2)},
            )  # fmt: skip
            current.reset(reset)

    return observe


def outage_tap(metrics: Metrics) -> Any:
    @web.middleware
    async def tap(request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            return await handler(request)
        except Exception as exc:
            if is_outage(exc):
                metrics.outage("http", exc)
            raise

    return tap


def install(app: web.Application, metrics: Metrics) -> None:
    """The request id, access line and HTTP metrics around every request of ``app`` (before it
    starts: its middleware list is frozen then)."""
    app.middlewares.insert(0, observe_middleware(metrics))
    app.middlewares.append(outage_tap(metrics))

    async def headers(request: web.Request, response: web.StreamResponse) -> None:
        rid = request.get(_ID_KEY)
        if rid is not None:
            response.headers[REQUEST_ID] = rid
        if request.get(_ROUTE_KEY) == STREAM_ROUTE and response.status == 200:
            metrics.streams_opened.inc()
            if "Last-Event-ID" in request.headers:
                metrics.stream_reconnects.inc()

    app.on_response_prepare.append(headers)


def metrics_app(metrics: Metrics) -> web.Application:
    """The app of the metrics port: ``GET /metrics`` only."""

    async def scrape(_request: web.Request) -> web.Response:
        body = await metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/metrics", scrape)
    return app
