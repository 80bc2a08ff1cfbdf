"""The HTTP API (DESIGN.md section 5): deals, commands, seat views, SSE, replay, log, audit."""

from __future__ import annotations

import asyncio
import json
import time
from collections import defaultdict, deque
from pathlib import Path
from typing import Annotated, Any

import msgspec
from aiohttp import web
from aiohttp_sse import sse_response

from domain.errors import RuleViolation
from service.audit import audit_log
from service.deals import DealService
from service.openapi import openapi_document
from service.store import EventStore

MAX_BODY = 64 * 1024
WEB_ROOT = Path(__file__).with_name("web")

CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:\-]+$")]
SeatKind = Annotated[str, msgspec.Meta(max_length=32)]


class CreateDeal(msgspec.Struct, forbid_unknown_fields=True):
    """``seats``: one entry per seat, ``human`` or ``bot:<level>``."""

    game: Annotated[str, msgspec.Meta(max_length=32)]
    seats: Annotated[list[SeatKind], msgspec.Meta(max_length=8)]
    client_seed: Annotated[str, msgspec.Meta(max_length=256)] | None = None
    deck: Annotated[list[int], msgspec.Meta(max_length=256)] | None = None
    dealer: int | None = None


class CreatedDeal(msgspec.Struct):
    deal_id: str
    game: str
    ruleset: str
    seats: list[str]
    commitment: str
    tokens: dict[str, str]
    version: int


class CommandRequest(msgspec.Struct, forbid_unknown_fields=True):
    """``return_view``: also answer with the seat's view after the command (the SSE stream
    pushes it anyway, so clients that listen there leave it off and save the server the work)."""

    command_id: CommandId
    command: dict[str, Any]
    expected_version: Annotated[int, msgspec.Meta(ge=0)] | None = None
    return_view: bool = False


class CommandResult(msgspec.Struct):
    """The versions written, the events as this seat may see them, and (when the request asked
    for it with ``return_view``) the seat's view afterwards, else null."""

    version: int
    first_version: int
    duplicate: bool
    events: list[dict[str, Any]]
    view: dict[str, Any] | None = None


class DealSummary(msgspec.Struct):
    deal_id: str
    game: str
    seats: list[str]
    version: int
    over: bool
    commitment: str
    seats_to_act: list[int]


class ReplayFrame(msgspec.Struct):
    step: int
    total: int
    perspective: str
    event: dict[str, Any] | None
    view: Any


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
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[7:].strip() or None
    return request.query.get("token") or None  # EventSource cannot set headers


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
    def __init__(self, deals: DealService, create_limit: int = 120, create_window: float = 60.0) -> None:
        self.deals = deals
        self.store: EventStore = deals.store
        self.limiter = RateLimiter(create_limit, create_window)
        self.streams: set[asyncio.Task] = set()  # open SSE handlers, ended at shutdown

    # helpers -------------------------------------------------------------------
    async def _perspective(self, request: web.Request, deal_id: str) -> int | None:
        token = _bearer(request)
        return await self.deals.authenticate(deal_id, token) if token else None

    @staticmethod
    def _redact(folded: Any, events: list[Any], seat: int | None) -> list[dict[str, Any]]:
        redact = folded.kit.projections.redact_event
        return [r for r in (redact(e, seat) for e in events) if r is not None]

    # handlers ------------------------------------------------------------------
    async def health(self, request: web.Request) -> web.Response:
        return _json({"ok": True})

    async def create_deal(self, request: web.Request) -> web.Response:
        if not self.limiter.allow(request.remote or "?"):
            raise RuleViolation("DS-11", "too many deals created from this address; wait a minute")
        body = _decode(await _body(request), CreateDeal)
        created = await self.deals.create(body.game, body.seats, body.client_seed, body.deck, body.dealer)
        return _json(created, status=201)

    async def list_deals(self, request: web.Request) -> web.Response:
        try:
            offset = min(10**9, max(0, int(request.query.get("offset", 0))))
            count = min(200, max(1, int(request.query.get("count", 50))))
        except ValueError:
            raise RuleViolation("DS-5", "offset and count are whole numbers") from None
        ids = await self.store.list_deals(offset, count)
        metas = await self.store.deal_summaries(ids)
        deals = [
            {
                "deal_id": i,
                "game": m.get("game"),
                "created_ms": int(m.get("created_ms") or 0),
                "over": m.get("status") == "over",
            }
            for i, m in zip(ids, metas, strict=True)
        ]
        return _json({"deals": deals})

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
        folded = await self.deals.load(deal_id)
        self.deals.kick_bots(deal_id)
        return _json(
            DealSummary(
                deal_id=deal_id,
                game=folded.kit.name,
                seats=folded.seats,
                version=folded.version,
                over=folded.over,
                commitment=folded.events[0].commitment,
                seats_to_act=folded.kit.game.seats_to_act(folded.state),
            )
        )

    async def view(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        seat = await self.deals.authenticate(deal_id, _bearer(request))
        folded = await self.deals.load(deal_id)
        self.deals.kick_bots(deal_id)
        return _json(folded.kit.projections.view_from_state(folded.state, seat))

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
        folded = self.deals.cached(deal_id) or await self.deals.load(deal_id)
        return _json(
            CommandResult(
                version=outcome.last_version,
                first_version=outcome.first_version,
                duplicate=outcome.duplicate,
                events=self._redact(folded, outcome.events, seat),
                view=folded.kit.projections.view_from_state(folded.state, seat) if body.return_view else None,
            )
        )

    async def stream(self, request: web.Request) -> web.StreamResponse:
        deal_id = request.match_info["deal_id"]
        seat = await self._perspective(request, deal_id)
        folded = await self.deals.load(deal_id)
        try:
            after = int(request.headers.get("Last-Event-ID") or request.query.get("after", 0))
        except ValueError:
            raise RuleViolation("DS-5", "after is a version number") from None
        if not 0 <= after < 2**53:
            raise RuleViolation("DS-5", "after is a version number, 0 or more")
        kit_ = folded.kit
        redact = kit_.projections.redact_event
        task = asyncio.current_task()
        if task is not None:
            self.streams.add(task)
            task.add_done_callback(self.streams.discard)
        async with sse_response(request) as resp:
            resp.ping_interval = 10
            if folded.over and after >= folded.version:
                # a finished deal read to its end: nothing will ever follow, do not hang on
                await resp.send(json.dumps({"version": folded.version}), event="deal-over")
                return resp
            async for batch in self.store.subscribe_batches(deal_id, after, block_ms=10_000):
                over = False
                for record in batch:
                    event = kit_.decode_event(record.data)
                    shown = redact(event, seat)
                    if shown is not None:  # events hidden from this seat leave a gap in versions
                        payload = {"version": record.version, "event": shown}
                        await resp.send(
                            msgspec.json.encode(payload).decode(), id=str(record.version), event="deal-event"
                        )
                    over = over or type(event).__name__ == "SeedRevealed"
                if seat is not None:
                    # mjai-style: after each batch the seat gets its fresh view, legal actions
                    # included when it must act, so a client never has to poll
                    view = await self._current_view(deal_id, seat, batch[-1].version)
                    await resp.send(
                        msgspec.json.encode(view).decode(), id=str(batch[-1].version), event="view"
                    )
                if over:
                    await resp.send(json.dumps({"version": batch[-1].version}), event="deal-over")
                    break
        return resp

    async def _current_view(self, deal_id: str, seat: int, at_least: int) -> Any:
        folded = self.deals.cached(deal_id)
        if folded is None or folded.version < at_least:
            folded = await self.deals.load(deal_id)
        return folded.kit.projections.view_from_state(folded.state, seat)

    async def replay(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        folded = await self.deals.load(deal_id)
        total = folded.version
        try:
            step = int(request.query.get("step", total))
        except ValueError:
            raise RuleViolation("DS-5", "step is a whole number") from None
        if not 0 <= step <= total:
            raise RuleViolation("DS-5", f"step must be between 0 and {total}")
        wanted = request.query.get("perspective")
        token = _bearer(request)
        own = await self.deals.authenticate(deal_id, token) if token else None
        if not folded.over:
            if own is None:
                raise RuleViolation("DS-8", "during the deal, replay is for seats only (own perspective)")
            if wanted not in (None, str(own)):
                raise RuleViolation("DS-2", "other perspectives and 'all' open when the deal is over")
            wanted = str(own)
        wanted = wanted or "all"
        events = folded.events[:step]
        projections = folded.kit.projections
        if wanted == "all":
            view = projections.full_view(events)
            event = msgspec.to_builtins(events[-1]) if events else None
        else:
            try:
                seat = int(wanted)
            except ValueError:
                raise RuleViolation("DS-5", "perspective is a seat number or 'all'") from None
            if not 0 <= seat < len(folded.seats):
                raise RuleViolation("DS-3", f"no seat {seat}")
            view = projections.seat_view(events, seat)
            event = projections.redact_event(events[-1], seat) if events else None
        return _json(ReplayFrame(step=step, total=total, perspective=wanted, event=event, view=view))

    async def log(self, request: web.Request) -> web.StreamResponse:
        deal_id = request.match_info["deal_id"]
        folded = await self.deals.load(deal_id)
        if not folded.over:
            raise RuleViolation("DS-2", "the whole log opens when the deal is over")
        raws = await self.store.read_raw(deal_id)
        body = b"\n".join(raws) + b"\n"
        return web.Response(
            body=body,
            content_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{deal_id}.jsonl"'},
        )

    async def audit(self, request: web.Request) -> web.Response:
        deal_id = request.match_info["deal_id"]
        await self.deals.load(deal_id)  # 404 for an unknown deal
        raws = await self.store.read_raw(deal_id)
        head = await self.store.head_hash(deal_id)
        report = await asyncio.get_running_loop().run_in_executor(None, audit_log, raws, head)
        return _json(report)

    async def openapi(self, request: web.Request) -> web.Response:
        return _json(openapi_document())

    async def index(self, request: web.Request) -> web.StreamResponse:
        index = WEB_ROOT / "index.html"
        if index.exists():
            return web.FileResponse(index)
        return web.Response(text="dealstream API: see /openapi.json\n")


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


def build_app(deals: DealService, *, create_limit: int = 120) -> web.Application:
    api = Api(deals, create_limit=create_limit)
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

    async def on_shutdown(app: web.Application) -> None:
        # SSE handlers wait in XREAD BLOCK; end them now instead of after the shutdown timeout
        for task in list(api.streams):
            task.cancel()

    async def on_cleanup(app: web.Application) -> None:
        await deals.close()

    app.on_shutdown.append(on_shutdown)
    app.on_cleanup.append(on_cleanup)
    return app
