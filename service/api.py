"""The HTTP API (DESIGN.md section 5): deals, commands, seat views, SSE, replay, log, audit.

Handlers decode the request, call one function of the command side (``DealService``) or of the
read side (``service.queries``, the one visibility gate) and encode the answer.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import defaultdict, deque
from pathlib import Path
from typing import Any

import msgspec
from aiohttp import web
from aiohttp_sse import EventSourceResponse, sse_response

from domain.errors import RuleViolation
from service import queries
from service.deals import DealService
from service.openapi import openapi_document
from service.queries import SPECTATOR, ReadSide, Viewer
from service.schemas import CommandRequest, CommandResult, CreateDeal, Health
from service.store import EventStore
from service.streams import CLOSE, Batch, StreamHub, Subscription

MAX_BODY = 64 * 1024
WEB_ROOT = Path(__file__).with_name("web")
KEEPALIVE_S = 15.0  # a comment on every live stream this often: a dead client fails a write
_VERSION = re.compile(r"[0-9]{1,16}")
HUB = web.AppKey("hub", StreamHub)


def _decode(body: bytes, type_: Any) -> Any:
    try:
        return msgspec.json.decode(body, type=type_)
    except msgspec.ValidationError as exc:
        raise RuleViolation("DS-5", f"invalid request: {exc}") from None
    except msgspec.DecodeError as exc:
        raise RuleViolation("DS-5", f"malformed JSON: {exc}") from None
    except RecursionError:  # msgspec decodes `Any` fields recursively: 64 KiB of `[` nests deep enough
        raise RuleViolation("DS-5", "malformed JSON: nested too deeply") from None


async def _body(request: web.Request) -> bytes:
    """The request body. A small one has usually arrived whole with the headers: then it is
    taken from the buffer at once, instead of through two awaited reads."""
    content = request.content
    if content.is_eof():
        body = content.read_nowait()
        if len(body) > MAX_BODY:
            raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=len(body))
        return body
    return await request.read()  # enforces client_max_size (MAX_BODY) as it reads


def _json(obj: Any, status: int = 200) -> web.Response:
    return web.Response(body=msgspec.json.encode(obj), status=status, content_type="application/json")


def _bearer(request: web.Request) -> str | None:
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


def _version_param(request: web.Request, name: str, header: str | None = None) -> int | None:
    """A version from a query parameter (or a header such as ``Last-Event-ID``): ASCII digits."""
    raw = request.headers.get(header) if header else None
    if raw is None:
        raw = request.query.get(name)
    if raw is None:
        return None
    if not _VERSION.fullmatch(raw) or int(raw) >= 2**53:
        raise RuleViolation("DS-5", f"{header or name} is a version number, 0 or more")
    return int(raw)


def _aborter(request: web.Request) -> Any:
    def abort() -> None:
        if request.transport is not None:
            request.transport.abort()

    return abort


def _whole(request: web.Request, name: str, default: int | None, low: int, high: int) -> int | None:
    """A whole-number query parameter in ``low..high`` (ASCII digits), or ``default``."""
    raw = request.query.get(name)
    if raw is None:
        return default
    if not re.fullmatch(r"-?[0-9]{1,16}", raw) or not low <= int(raw) <= high:
        raise RuleViolation("DS-5", f"{name} is a whole number from {low} to {high}")
    return int(raw)


def _transport_alive(request: web.Request) -> Any:
    def alive() -> bool:
        transport = request.transport
        return transport is not None and not transport.is_closing()

    return alive


class RateLimiter:
    """At most ``limit`` deal creations per client address per ``window`` seconds."""

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


class Api:
    def __init__(
        self,
        deals: DealService,
        hub: StreamHub,
        create_limit: int = 120,
        create_window: float = 60.0,
        keepalive: float = KEEPALIVE_S,
    ) -> None:
        self.deals = deals
        self.reads = ReadSide(deals)
        self.hub = hub
        self.store: EventStore = deals.store
        self.limiter = RateLimiter(create_limit, create_window)
        self.keepalive = keepalive

    async def _viewer(self, request: web.Request, deal_id: str, anonymous: Viewer = queries.NOBODY) -> Viewer:
        return await self.reads.viewer(deal_id, _bearer(request), anonymous=anonymous)

    # handlers ------------------------------------------------------------------
    async def health(self, request: web.Request) -> web.Response:
        """200 while the event store answers the stream hub's pings; 503 (DS-12) while not."""
        from service.problems import problem

        if not self.hub.healthy:
            return problem(503, "the event store is unreachable; the service retries by itself", "DS-12")
        return _json(Health(ok=True, store="ok", streams=self.hub.subscribers))

    async def create_deal(self, request: web.Request) -> web.Response:
        if not self.limiter.allow(request.remote or "?"):
            raise RuleViolation("DS-11", "too many deals created from this address; wait a minute")
        body = _decode(await _body(request), CreateDeal)
        created = await self.deals.create(
            body.game, body.seats, body.client_seed, body.deck, body.dealer, spectators=body.spectators
        )
        return _json(created, status=201)

    async def list_deals(self, request: web.Request) -> web.Response:
        offset = _whole(request, "offset", 0, 0, 10**9)
        count = _whole(request, "count", 50, 1, 200)
        return _json(await self.reads.deals_list(queries.NOBODY, offset, count))

    async def games(self, request: web.Request) -> web.Response:
        """The games this server plays: seat count and bot levels (what the lobby offers)."""
        from domain.game import GAMES
        from service.games import kit

        return _json(
            {
                "games": [
                    {
                        "game": k.name,
                        "ruleset": k.game.ruleset,
                        "seats": k.game.seat_count,
                        "bots": k.bot_levels,
                    }
                    for k in (kit(name) for name in GAMES)
                ]
            }
        )

    async def summary(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        return _json(await self.reads.summary(deal_id, await self._viewer(request, deal_id)))

    async def view(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        token = _bearer(request)
        if token is None:
            raise RuleViolation("DS-8", "this needs a seat token (Authorization: Bearer …)")
        return _json(await self.reads.view(deal_id, await self.reads.viewer(deal_id, token)))

    async def command(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        seat = await self.deals.authenticate(deal_id, _bearer(request))
        body = _decode(await _body(request), CommandRequest)
        outcome = await self.deals.execute(
            deal_id,
            seat,
            body.command,
            command_id=f"seat{seat}:{body.command_id}",
            expected_version=body.expected_version,
        )
        folded = outcome.folded
        viewer = Viewer.of_seat(seat)
        return _json(
            CommandResult(
                version=outcome.last_version,
                first_version=outcome.first_version,
                duplicate=outcome.duplicate,
                events=queries.command_events(folded, outcome.events, viewer),
                view=queries.view(folded, viewer) if body.return_view else None,
            )
        )

    async def stream(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events for the token's seat, or a spectator without one (see
        ``service.streams``): the backlog after ``Last-Event-ID`` / ``?after=``, then live."""
        deal_id = request.match_info["deal_id"]
        viewer = await self._viewer(request, deal_id, anonymous=SPECTATOR)
        after = _version_param(request, "after", header="Last-Event-ID") or 0
        folded = await self.deals.load(deal_id)
        ended = None  # a stream that has nothing to follow: one message, then the end
        if after >= folded.version and folded.over:
            ended = "deal-over"  # a finished deal read to its end
        elif after > folded.version:
            ended = "reset"  # the store holds less than the client saw: start again
        sub = None
        if not ended:
            sub = self.hub.open(folded, deal_id, viewer, after, _transport_alive(request), _aborter(request))
        try:
            async with sse_response(request, ping_interval=self.keepalive, send_timeout=30) as resp:
                if sub is None:
                    await resp.send(json.dumps({"version": folded.version}), event=ended)
                else:
                    await self._relay(sub, resp, folded.version)
        finally:
            if sub is not None:
                self.hub.leave(sub)
        return resp

    async def _relay(self, sub: Subscription, resp: Any, head: int) -> None:
        """Send the backlog up to ``head``, then every batch the hub hands over, filling any gap
        from the store, until the deal ends or the hub closes the subscription."""
        while sub.position < head:
            raws = [
                r for r in await self.hub.read_after(sub.deal_id, sub.position) if _record_version(r) <= head
            ]
            if not raws:
                break
            if await self._send(sub, resp, self._batch(sub, raws)):
                return
        while True:
            item = await sub.queue.get()
            if item is CLOSE:
                if sub.reason == "reset":
                    await resp.send(json.dumps({"version": sub.position}), event="reset")
                return
            batch: Batch = item
            if batch.last <= sub.position:
                continue
            while batch.first > sub.position + 1:  # a gap: the hub read on before we joined
                raws = await self.hub.read_after(sub.deal_id, sub.position)
                raws = [r for r in raws if _record_version(r) < batch.first]
                if not raws:
                    break
                if await self._send(sub, resp, self._batch(sub, raws)):
                    return
            if await self._send(sub, resp, batch):
                return

    def _batch(self, sub: Subscription, raws: list[bytes]) -> Batch:
        from domain.envelope import decode_record

        records = [decode_record(r) for r in raws]
        feed = self.hub.feeds.get(sub.deal_id)
        kit_ = feed.kit if feed is not None else self.deals.cached(sub.deal_id).kit
        return Batch(sub.deal_id, records, [kit_.decode_event(r.data) for r in records], raws)

    async def _send(self, sub: Subscription, resp: Any, batch: Batch) -> bool:
        """Write the part of ``batch`` after the subscription's position, in one write; True at
        the deal's end. The frames are built once per viewer and batch, shared by subscribers."""
        frames = batch.memo.get(sub.viewer)
        if frames is None:
            frames = batch.memo[sub.viewer] = asyncio.ensure_future(self._frames(batch, sub.viewer))
        events, tail, over = await frames
        if events and events[0][0] <= sub.position:  # a subscriber that had part of it already
            events = [(v, f) for v, f in events if v > sub.position]
        sub.position = batch.last
        await resp.write(b"".join(f for _v, f in events) + tail)
        return over

    async def _frames(self, batch: Batch, viewer: Viewer) -> tuple[list[tuple[int, bytes]], bytes, bool]:
        """The SSE frames of a batch for one viewer, through the gate: one ``deal-event`` per
        event the viewer may see, then its ``view`` at the batch's version, then ``deal-over``
        if the deal ended (framed by aiohttp-sse, captured as bytes)."""
        folded = self.deals.cached(batch.deal_id)
        if folded is None or folded.version < batch.last:
            folded = await self.deals.load(batch.deal_id)
        pairs = list(zip((r.version for r in batch.records), batch.events, strict=True))
        events = [
            (
                version,
                await _frame(
                    msgspec.json.encode({"version": version, "event": event}).decode(),
                    str(version),
                    "deal-event",
                ),
            )  # fmt: skip
            for version, event in queries.stream_events(folded.kit, pairs, viewer)
        ]
        over = any(type(e).__name__ == "SeedRevealed" for e in batch.events)
        # mjai-style: after each batch the viewer gets its view at that batch's version (a seat's
        # legal actions when it must act), so a client never has to poll
        state = batch.memo.get("state")
        if state is None:
            if folded.version == batch.last:
                state = folded.state
            else:  # the fold has moved on (a backlog, or commands since): the state back then
                state = folded.kit.game.fold(folded.events[: batch.last])
            batch.memo["state"] = state
        view = msgspec.json.encode(queries.view_of_state(folded, state, viewer)).decode()
        tail = await _frame(view, str(batch.last), "view")
        if over:
            tail += await _frame(json.dumps({"version": batch.last}), None, "deal-over")
        return events, tail, over

    async def replay(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        step = _whole(request, "step", None, 0, 2**53)
        viewer = await self._viewer(request, deal_id)
        frame = await self.reads.replay(deal_id, viewer, step, request.query.get("perspective"))
        return _json(frame)

    async def log(self, request: web.Request) -> web.StreamResponse:
        deal_id = request.match_info["deal_id"]
        body = await self.reads.log(deal_id, await self._viewer(request, deal_id))
        return web.Response(
            body=body,
            content_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{deal_id}.jsonl"'},
        )

    async def audit(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        return _json(await self.reads.audit(deal_id, await self._viewer(request, deal_id)))

    async def openapi(self, request: web.Request) -> web.Response:
        return _json(openapi_document())

    async def index(self, request: web.Request) -> web.StreamResponse:
        index = WEB_ROOT / "index.html"
        if index.exists():
            return web.FileResponse(index)
        return web.Response(text="dealstream API: see /openapi.json\n")


class _FrameCapture(EventSourceResponse):
    """aiohttp-sse's own ``send`` framing, captured as bytes instead of written: a batch is
    framed once per viewer and the same bytes go to every subscriber in one write."""

    def __init__(self) -> None:
        super().__init__(send_timeout=None)
        self.buffer = bytearray()

    async def write(self, data: bytes) -> None:  # type: ignore[override]
        self.buffer += data


async def _frame(data: str, ident: str | None, event: str) -> bytes:
    capture = _FrameCapture()
    await capture.send(data, id=ident, event=event)
    return bytes(capture.buffer)


def _record_version(raw: bytes) -> int:
    from domain.envelope import decode_record

    return decode_record(raw).version


# The web client talks to this server only; the header says so even where the meta tag is not read.
_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
)


async def _page_headers(request: web.Request, response: web.StreamResponse) -> None:
    if request.path == "/" or request.path.startswith("/web/"):
        response.headers["Content-Security-Policy"] = _CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        # static files change only with a new release; revalidate instead of trusting a stale copy
        response.headers["Cache-Control"] = "no-cache"


def build_app(
    deals: DealService,
    *,
    create_limit: int = 120,
    hub: StreamHub | None = None,
    keepalive: float = KEEPALIVE_S,
    bot_supervisor_s: float = 2.0,
) -> web.Application:
    """The application. ``hub``: the live-stream reader (default: one on the store's client)."""
    from service import parse_errors

    parse_errors.install()
    hub = hub if hub is not None else StreamHub(deals)
    api = Api(deals, hub, create_limit=create_limit, keepalive=keepalive)
    from service.problems import problem_middleware

    app = web.Application(client_max_size=MAX_BODY, middlewares=[problem_middleware])
    app.on_response_prepare.append(_page_headers)
    r = app.router
    # aiohttp tries the routes under one prefix in the order they were added: the ones a
    # table calls all the time go first, ahead of the `/deals` index and the deal summary
    r.add_post("/deals/{deal_id}/commands", api.command)
    r.add_get("/deals/{deal_id}/view", api.view)
    r.add_get("/", api.index)
    r.add_get("/health", api.health)
    r.add_get("/openapi.json", api.openapi)
    r.add_post("/deals", api.create_deal)
    r.add_get("/deals", api.list_deals)
    r.add_get("/games", api.games)
    r.add_get("/deals/{deal_id}", api.summary)
    r.add_get("/deals/{deal_id}/events/stream", api.stream)
    r.add_get("/deals/{deal_id}/replay", api.replay)
    r.add_get("/deals/{deal_id}/log", api.log)
    r.add_get("/deals/{deal_id}/audit", api.audit)
    if WEB_ROOT.is_dir():
        r.add_static("/web/", WEB_ROOT)
    background: list[asyncio.Task] = []

    async def on_startup(app: web.Application) -> None:
        await hub.wait_connected()
        background.append(asyncio.create_task(deals.supervise_bots(bot_supervisor_s)))

    async def on_shutdown(app: web.Application) -> None:
        # live streams wait on their queues; end them now instead of after the shutdown timeout
        await hub.close()

    async def on_cleanup(app: web.Application) -> None:
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        await deals.close()

    app[HUB] = hub
    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.on_cleanup.append(on_cleanup)
    return app
