"""Reading an HTTP request: its JSON body, the seat token, whole-number and version
parameters, the state of its transport; and the per-address limit on deal creation.

Bad input becomes a ``RuleViolation`` (``DS-5``, ``DS-8``) that the problem middleware answers
as problem+json, so the handlers in ``routes`` only call these.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict, deque
from typing import Any

import msgspec
from aiohttp import web

from domain.errors import RuleViolation

MAX_BODY = 64 * 1024
_WHOLE = re.compile(r"-?[0-9]{1,16}")


def parse(body: bytes, type_: Any) -> Any:
    try:
        return msgspec.json.decode(body, type=type_)
    except msgspec.ValidationError as exc:
        raise RuleViolation("DS-5", f"invalid request: {exc}") from None
    except msgspec.DecodeError as exc:
        raise RuleViolation("DS-5", f"malformed JSON: {exc}") from None
    except RecursionError:  # msgspec decodes `Any` fields recursively: 64 KiB of `[` nests deep enough
        raise RuleViolation("DS-5", "malformed JSON: nested too deeply") from None


async def read_body(request: web.Request) -> bytes:
    """The request body. A small one has usually arrived whole with the headers: then it is
    taken from the buffer at once, instead of through two awaited reads."""
    content = request.content
    if content.is_eof():
        body = content.read_nowait()
        if len(body) > MAX_BODY:
            raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=len(body))
        return body
    return await request.read()  # enforces client_max_size (MAX_BODY) as it reads


def json_response(obj: Any, status: int = 200) -> web.Response:
    return web.Response(body=msgspec.json.encode(obj), status=status, content_type="application/json")


def bearer(request: web.Request) -> str | None:
    """The seat token: ``Authorization: Bearer …``, or ``?token=`` (EventSource cannot set
    headers). Header bytes outside printable ASCII are refused here, never passed on."""
    header = request.headers.get("Authorization")
    if header is not None:
        if not header.isascii() or not header.isprintable():
            raise RuleViolation("DS-8", "the Authorization header must be printable ASCII")
        scheme, _, credentials = header.partition(" ")
        if scheme.lower() == "bearer":  # auth schemes are case-insensitive (RFC 9110 section 11.1)
            return credentials.strip() or None
    token = request.query.get("token") or None
    if token is not None and (not token.isascii() or not token.isprintable()):
        raise RuleViolation("DS-8", "a seat token is printable ASCII")
    return token


PLAYER_KEY_HEADER = "X-Player-Key"


def player_key(request: web.Request) -> str:
    """The player key of ``X-Player-Key``: none is 401 DS-27; its form is checked
    where it is digested (DS-26), and never repeated in an answer or a log."""
    key = request.headers.get(PLAYER_KEY_HEADER)
    if key is None:
        raise RuleViolation("DS-27", f"this needs a player key ({PLAYER_KEY_HEADER} header)")
    return key


_RESUME = re.compile(r"([0-9]{1,16})(?:\.([0-9a-f]{8}))?")


def resume_param(request: web.Request) -> tuple[int, str | None]:
    """Where a stream resumes: ``Last-Event-ID`` (else ``?after=``) as a stream's message id gave
    it, ``<version>.<tag>`` (8 hex digits naming that version's record, ``service.app.live.
    streams.record_tag``), or a bare version; (0, None) when neither is given. Each one given
    must read, the one not used too."""
    given = [
        (name, raw)
        for name, raw in (
            ("Last-Event-ID", request.headers.get("Last-Event-ID")),
            ("after", request.query.get("after")),
        )
        if raw is not None
    ]
    read = []
    for name, raw in given:
        match = _RESUME.fullmatch(raw)
        if match is None or int(match[1]) >= 2**53:
            raise RuleViolation(
                "DS-5", f"{name} is a version number, 0 or more, or a stream message's id (version.tag)"
            )
        read.append((int(match[1]), match[2]))
    return read[0] if read else (0, None)


def aborter(request: web.Request) -> Any:
    def abort() -> None:
        if request.transport is not None:
            request.transport.abort()

    return abort


def whole(
    request: web.Request, name: str, default: int | None, low: int, high: int, source: Any = None
) -> int | None:
    """A whole-number query (or, with ``source``, path) parameter in ``low..high`` (ASCII
    digits), or ``default``."""
    raw = (request.query if source is None else source).get(name)
    if raw is None:
        return default
    if not _WHOLE.fullmatch(raw) or not low <= int(raw) <= high:
        raise RuleViolation("DS-5", f"{name} is a whole number from {low} to {high}")
    return int(raw)


def transport_alive(request: web.Request) -> Any:
    def alive() -> bool:
        transport = request.transport
        return transport is not None and not transport.is_closing()

    return alive


class RateLimiter:
    """At most ``limit`` requests per client (an address, or a deal's seat) per ``window`` seconds."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._hits: dict[str, deque[float]] = defaultdict(deque)
        self._swept = time.monotonic()

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        if now - self._swept > self.window:  # forget idle addresses, at most once a window
            for idle in [c for c, h in self._hits.items() if not h or now - h[-1] > self.window]:
                del self._hits[idle]
            self._swept = now
        hits = self._hits[client]
        while hits and now - hits[0] > self.window:
            hits.popleft()
        if len(hits) >= self.limit:
            return False
        hits.append(now)
        return True

    def retry_after(self, client: str) -> int:
        """Whole seconds until ``client`` may send again (at least 1)."""
        hits = self._hits.get(client)
        if not hits:
            return 1
        return max(1, int(hits[0] + self.window - time.monotonic()) + 1)
