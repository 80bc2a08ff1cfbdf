"""Commands/s through the whole HTTP service against trivial requests/s, in one run.

What is measured: the real aiohttp app (``build_app`` over ``DealService`` over ``EventStore``,
``--dev`` so decks can be fixed, no bot delay) runs in this process on a free localhost port,
backed by a real Redis. Before the clock starts, deals of every registered game
(``domain.game.GAMES``) are worked out in memory on seeded decks (``make_script``: the first seat
to act wins when it can, else takes its first legal action), in another process so that the
engines' memo tables here start cold. One ``aiohttp.ClientSession`` then drives ``--deals`` tables
at once (the games in turn, in name order, every seat human): each creates a deal on a script's
deck and POSTs the script's commands back to back, each with its seat's token and
``expected_version`` pinned. The server decides every command on its own log, so a refused step
(422/409) would show in ``errors_by_status``. A table starts the next deal when one ends
(``--once``: one deal per table), so the concurrency stays at ``--deals``. ``commands_per_s``
counts command POSTs answered 200 over the play time; each went through the token check,
``decide``, the Lua append and the seat's redacted events in the answer. The answer carries no
view (no ``return_view``), as for a player that listens to the SSE stream, which pushes each seat
its view after every change (no polling); ``--return-view`` asks for it with every command, as the
web table does.

Why a ratio: the machines are shared and noisy, and here client and server share one event loop,
so an absolute rate says little on its own. With the same client, the same concurrency and the
same server, ``GET /health`` (no Redis, no game) is measured in windows interleaved with the play
(health, play, health, …, health; the tables park while a health window runs), so load changes
hit both. ``ratio_commands_vs_trivial`` = commands/s ÷ mean health requests/s (target ≥ 0.4).

Also reported: command latency p50/p99, the latency of a replay frame at step 100 (folded on
request) over finished deals of at least 100 events, deals started and finished, and every
non-2xx status seen (a 5xx is a bug). The bench's keys live under a unique prefix and are deleted
at the end; the embedded Redis, if one was started, is stopped.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import multiprocessing
import statistics
import time
import uuid
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import msgspec
from aiohttp import web

from bench.common import by_name, emit, median, parser, run_on_redis, seat_count
from domain.game import StartDeal
from domain.shuffle import dealer_and_deck
from service import bootstrap
from service.app.games import kit
from service.gc_tuning import tune_gc
from service.store.connection import connect

MAX_COMMANDS_PER_DEAL = 400
SCRIPTS_PER_GAME = 150  # a 60 s run starts about 500 deals per game: each deck comes back about 3 times
REPLAY_STEP = 100
REPLAY_SAMPLES = 20
RATIO_TARGET = 0.4
WIN_TYPES = ("Win", "DeclareWin")
SEGMENTS = 8  # play segments, between SEGMENTS + 1 health windows (finer: load swings hit both)
HEALTH_SHARE = 0.3  # of the time budget, spent on health windows
RESERVE_S = 3.0  # of the time budget, kept for server start, replay frames and clean-up


@dataclass
class Tally:
    """Everything the play and health loops count, shared by all of them."""

    statuses: Counter[str] = field(default_factory=Counter)
    command_latencies: list[float] = field(default_factory=list)
    play_requests: int = 0
    conflicts: int = 0

    def status(self, status: int) -> None:
        if status >= 300:
            self.statuses[str(status)] += 1

    def exception(self, exc: BaseException) -> None:
        self.statuses[f"exception:{type(exc).__name__}"] += 1


@dataclass
class Deal:
    deal_id: str
    game: str
    tokens: list[str]
    script: list[tuple[int, dict[str, Any], int]] = field(default_factory=list)
    commands: int = 0
    finished: bool = False
    version: int = 0


@dataclass
class Script:
    """A whole deal worked out in memory first: the deck, the dealer, then (seat, command, version)."""

    deck: list[int]
    dealer: int
    steps: list[tuple[int, dict[str, Any], int]]


def humans(game: str) -> list[str]:
    """A person in every seat of the game."""
    return ["human"] * seat_count(game)


def make_script(game_name: str, index: int) -> Script:
    """Play one deal in memory on a seeded deck: each step the first seat to act wins if it can,
    else takes its first legal action. The server, given the same deck, dealer and commands,
    produces the same events, so the client needs no view to know what to send."""
    k = kit(game_name)
    game = k.game
    dealer, deck = dealer_and_deck(
        hashlib.sha256(f"bench:{game_name}:{index}".encode()).digest(), game.deck_size, game.seat_count
    )
    events = game.create(
        deal_id="script", seats=humans(game_name), server_seed=bytes(32), fixed_deck=deck, fixed_dealer=dealer
    )
    state = game.fold(events)
    version = len(events)
    steps: list[tuple[int, dict[str, Any], int]] = []
    command: Any = StartDeal(seat=0, client_seed="bench")
    seat = 0
    while True:
        new = game.decide(state, command)
        steps.append((seat, msgspec.to_builtins(command), version))
        for event in new:
            state = game.evolve(state, event)
        version += len(new)
        if game.is_over(state):
            return Script(deck, dealer, steps)
        seat = game.seats_to_act(state)[0]
        actions = game.legal_actions(state, seat)
        command = next((a for a in actions if type(a).__name__ in WIN_TYPES), actions[0])


def make_scripts(count: int) -> dict[str, list[Script]]:
    return {game: [make_script(game, i) for i in range(count)] for game in by_name()}


def make_scripts_elsewhere(count: int) -> dict[str, list[Script]]:
    """The scripts, worked out in another process: working them out here would leave the
    engines' memo tables holding every hand the server is about to see."""
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(make_scripts, count).result()


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Bench:
    """The scripted tables, the health loops, and the gate that alternates between them."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        base: str,
        concurrency: int,
        once: bool,
        scripts: dict[str, list[Script]],
        return_view: bool = False,
    ) -> None:
        self.session = session
        self.return_view = return_view
        self.base = base
        self.concurrency = concurrency
        self.once = once
        self.tally = Tally()
        self.deals: list[Deal] = []
        self.scripts = scripts
        self.created: Counter[str] = Counter()
        self.stopping = False
        # the play gate: tables run only while it is open and park at their next round when it closes
        self.gate = asyncio.Event()
        self.running = 0
        self.parked = 0
        self.all_parked = asyncio.Event()

    # plumbing ------------------------------------------------------------------------------
    async def request(
        self, method: str, path: str, *, token: str | None = None, body: Any = None, decode: bool = True
    ) -> tuple[int, Any]:
        """One request; (status, decoded JSON or None). Client-side failures count as errors."""
        data = msgspec.json.encode(body) if body is not None else None
        headers = auth(token) if token else {}
        if data is not None:
            headers["Content-Type"] = "application/json"
        try:
            async with self.session.request(method, self.base + path, data=data, headers=headers) as resp:
                raw = await resp.read()
                status = resp.status
        except (TimeoutError, aiohttp.ClientError) as exc:
            self.tally.exception(exc)
            return 0, None
        self.tally.status(status)
        return status, (msgspec.json.decode(raw) if decode and raw and 200 <= status < 300 else None)

    def _check_parked(self) -> None:
        if self.parked >= self.running:
            self.all_parked.set()

    async def checkpoint(self) -> None:
        """Where a table waits while the gate is closed (a health window is being measured)."""
        if self.gate.is_set():
            return
        self.parked += 1
        self._check_parked()
        await self.gate.wait()
        self.parked -= 1

    # trivial requests ----------------------------------------------------------------------
    async def health_rate(self, seconds: float) -> tuple[float, int]:
        """GET /health from ``concurrency`` loops for ``seconds``; (requests/s, requests)."""
        done = 0
        start = time.perf_counter()
        end = start + seconds

        async def loop() -> None:
            nonlocal done
            while time.perf_counter() < end:
                status, _ = await self.request("GET", "/health")
                if status == 200:
                    done += 1

        await asyncio.gather(*(loop() for _ in range(self.concurrency)))
        return done / (time.perf_counter() - start), done

    # deals ---------------------------------------------------------------------------------
    async def command(self, deal: Deal, seat: int, command: dict[str, Any], version: int | None) -> int:
        """POST one command; a 200 counts (with its latency); the answer is read, not decoded."""
        body: dict[str, Any] = {"command_id": f"b{deal.commands}", "command": command}
        if version is not None:
            body["expected_version"] = version
        if self.return_view:
            body["return_view"] = True
        start = time.perf_counter()
        status, _ = await self.request(
            "POST", f"/deals/{deal.deal_id}/commands", token=deal.tokens[seat], body=body, decode=False
        )
        elapsed = time.perf_counter() - start
        self.tally.play_requests += 1
        if status == 200:
            self.tally.command_latencies.append(elapsed)
            deal.commands += 1
            deal.version = version + 1 if version is not None else deal.version
        elif status == 409:
            self.tally.conflicts += 1
        return status

    async def create(self, game: str) -> Deal | None:
        """A --dev deal on a scripted deck; StartDeal is the script's first command."""
        script = self.scripts[game][self.created[game] % len(self.scripts[game])]
        self.created[game] += 1
        body = {"game": game, "seats": humans(game), "deck": script.deck, "dealer": script.dealer}
        status, created = await self.request("POST", "/deals", body=body)
        self.tally.play_requests += 1
        if status != 201:
            return None
        tokens = [created["tokens"][str(s)] for s in range(seat_count(game))]
        deal = Deal(created["deal_id"], game, tokens, script=script.steps)
        self.deals.append(deal)
        return deal

    async def play(self, deal: Deal) -> None:
        """POST the deal's scripted commands back to back, each seat with its own token."""
        for seat, command, version in deal.script:
            await self.checkpoint()
            if self.stopping or deal.commands >= MAX_COMMANDS_PER_DEAL:
                return
            status = await self.command(deal, seat, command, version)
            if status != 200:
                return  # counted in errors_by_status; the script no longer fits this deal
        deal.finished = True

    async def table(self, index: int) -> None:
        """One of ``concurrency`` tables: plays deals back to back (one only with ``once``)."""
        games = by_name()
        game = games[index % len(games)]
        try:
            while not self.stopping:
                await self.checkpoint()
                if self.stopping:
                    return
                deal = await self.create(game)
                if deal is not None:
                    await self.play(deal)
                if self.once:
                    return
        finally:
            self.running -= 1
            self._check_parked()

    async def alternate(
        self, segments: int, health_s: float, play_s: float
    ) -> tuple[list[float], int, float]:
        """Health window, play segment, health window, … ending on a health window.

        Returns the health rates, health requests and the play time (gate open until every table
        parked again, so commands in flight when the gate closes count inside the play time).
        """
        rates: list[float] = []
        health_requests = 0
        play_time = 0.0
        self.running = self.concurrency  # each table parks at the closed gate before its first deal
        tables = [asyncio.create_task(self.table(i)) for i in range(self.concurrency)]
        for segment in range(segments + 1):
            await self.all_parked.wait()
            rate, count = await self.health_rate(health_s)
            rates.append(rate)
            health_requests += count
            if segment == segments or self.running == 0:
                break
            self.all_parked.clear()
            start = time.perf_counter()
            self.gate.set()
            deadline = start + play_s
            while self.running and time.perf_counter() < deadline:
                await asyncio.sleep(min(0.05, max(0.0, deadline - time.perf_counter())))
            self.gate.clear()
            self._check_parked()
            await self.all_parked.wait()
            play_time += time.perf_counter() - start
        self.stopping = True
        self.gate.set()
        await asyncio.gather(*tables)
        return rates, health_requests, play_time

    async def replay_latencies(self) -> list[float]:
        """Sequential GET replay?step=100&perspective=all over finished deals of ≥ 100 events."""
        eligible = [d for d in self.deals if d.finished and d.version >= REPLAY_STEP]
        latencies: list[float] = []
        for i in range(REPLAY_SAMPLES if eligible else 0):
            deal = eligible[i % len(eligible)]
            start = time.perf_counter()
            status, _ = await self.request(
                "GET", f"/deals/{deal.deal_id}/replay?step={REPLAY_STEP}&perspective=all"
            )
            if status == 200:
                latencies.append(time.perf_counter() - start)
        return latencies


async def measure(
    url: str, deal_count: int, seconds: float, once: bool = False, return_view: bool = False
) -> dict[str, Any]:
    run_start = time.perf_counter()
    # SEGMENTS play segments between SEGMENTS + 1 health windows; health gets HEALTH_SHARE of the time
    available = max(2.0, seconds - RESERVE_S)
    health_s = available * HEALTH_SHARE / (SEGMENTS + 1)
    play_s = available * (1 - HEALTH_SHARE) / SEGMENTS
    scripts = make_scripts_elsewhere(SCRIPTS_PER_GAME)
    client = connect(url)
    prefix = f"bench-svc-{uuid.uuid4().hex[:8]}"
    settings = bootstrap.Settings(prefix=prefix, dev=True, bot_delay=0.0, create_limit=10**6)
    app = bootstrap.application(client, settings)
    service = app[bootstrap.DEALS]
    runner = web.AppRunner(app, access_log=None)
    tune_gc()  # as `dealstream serve` does
    try:
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()  # port 0: the kernel picks a free one
        port = runner.addresses[0][1]
        connector = aiohttp.TCPConnector(limit=0, limit_per_host=0)
        timeout = aiohttp.ClientTimeout(total=30)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            bench = Bench(session, f"http://127.0.0.1:{port}", deal_count, once, scripts, return_view)
            rates, health_requests, play_time = await bench.alternate(SEGMENTS, health_s, play_s)
            round_trips, appends = service.store.append_round_trips
            replay = await bench.replay_latencies()
    finally:
        await runner.cleanup()  # stops the server; the app's cleanup closes the deal service
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=1000)]
        for i in range(0, len(keys), 1000):
            await client.delete(*keys[i : i + 1000])
        await client.aclose()

    tally = bench.tally
    commands = len(tally.command_latencies)
    commands_per_s = commands / play_time if play_time else 0.0
    trivial = statistics.fmean(rates)
    play_requests_per_s = tally.play_requests / play_time if play_time else 0.0
    latencies_ms = [x * 1000 for x in tally.command_latencies]
    replay_ms = [x * 1000 for x in replay]
    finished = [d for d in bench.deals if d.finished]
    return {
        "redis": url.split("@")[-1],
        "concurrent_deals": deal_count,
        "return_view": return_view,
        "deals_started": len(bench.deals),
        "deals_finished": len(finished),
        "deals_finished_by_game": dict(Counter(d.game for d in finished)),
        "commands": commands,
        "play_seconds": round(play_time, 2),
        "commands_per_s": round(commands_per_s, 1),
        "trivial_requests_per_s": round(trivial, 1),
        "trivial_requests_per_s_windows": [round(r, 1) for r in rates],
        "trivial_requests": health_requests,
        "trivial_seconds": round(health_s * len(rates), 2),
        "ratio_commands_vs_trivial": round(commands_per_s / trivial, 4) if trivial else 0.0,
        "ratio_target": RATIO_TARGET,
        "http_requests_per_command": round(tally.play_requests / commands, 2) if commands else None,
        "play_requests_per_s": round(play_requests_per_s, 1),
        "ratio_play_requests_vs_trivial": round(play_requests_per_s / trivial, 4) if trivial else 0.0,
        "conflicts_409": tally.conflicts,
        "appends_per_redis_round_trip": round(appends / round_trips, 2) if round_trips else None,
        "command_latency_p50_ms": round(median(latencies_ms), 2) if latencies_ms else None,
        "command_latency_p99_ms": round(percentile(latencies_ms, 99), 2) if latencies_ms else None,
        "replay_frame_latency_ms_step100": round(median(replay_ms), 2) if replay_ms else None,
        "replay_frame_latency_ms_step100_p99": round(percentile(replay_ms, 99), 2) if replay_ms else None,
        "replay_samples": len(replay_ms),
        "errors_by_status": dict(sorted(tally.statuses.items())),
        "total_seconds": round(time.perf_counter() - run_start, 2),
    }


def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--redis", help="Redis URL (default: DEALSTREAM_REDIS_URL, else the embedded server)")
    p.add_argument("--deals", type=int, default=50, help="concurrent deals, also the health concurrency")
    p.add_argument("--seconds", type=float, default=60.0, help="time limit for the whole run")
    p.add_argument("--once", action="store_true", help="each table plays one deal instead of refilling")
    p.add_argument("--return-view", action="store_true", help="ask for the seat's view in every answer")
    args = p.parse_args()
    figures = run_on_redis(
        args.redis, lambda url: measure(url, args.deals, args.seconds, args.once, args.return_view)
    )
    emit(figures, args.json)


if __name__ == "__main__":
    main()
