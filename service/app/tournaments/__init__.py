"""Tournaments (docs/rules/tournament.md): creation, entries, the arbiter, and the runner that
plays each round's tables as matches.

Every step the runner takes is derived from the tournament's log (``domain.tournament.plan``)
and appended with a command id naming the step, under a per-tournament lease: two processes, or
one restarted in the middle of a round, take each step once. A table's match id is claimed in
the tournament's meta before the match is made, so a step cut short between the two makes the
same match, never a second one.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import math
import os
import secrets
from typing import Any

import msgspec

from domain.errors import RuleViolation
from domain.match import MAX_DEALS
from domain.table.clock import parse_clock
from domain.tournament import plan, seeds
from domain.tournament.events import (
    DealResult,
    RoundSeedRevealed,
    Ruling,
    TableResult,
    TableStarted,
    TournamentCreated,
    TournamentEnded,
)
from domain.tournament.scores import standings
from domain.tournament.state import HOUSE_TABLE, Round, Table, TournamentState
from service.app.commands.matches import MatchService
from service.app.commands.terms import PACES
from service.app.games import kit
from service.app.state.match_log import MatchNotFound
from service.app.sweeps import look_at_each, sweep_forever
from service.store.event_store import VersionConflict, now_ms
from service.store.tournaments import TournamentNotFound, TournamentStore, token_digest

log = logging.getLogger("dealstream.tournaments")

LEASE_MS = 10_000
SWEEP_S = 0.1
IDLE_S = 2.0  # the runner's longest pause: how soon it finds a look another process left undone
LOOK_AGAIN_MS = 250  # a round in play is looked at this often (its tables' matches end on their own)
MAX_STEPS = 64
HOUSE_LEVELS = ("greedy", "strong", "random")  # the house bots a tournament may list
MAX_NAME = 80


def start_wait_s(clock: dict[str, Any] | None) -> int:
    """TN-1.4 (decided): how long a table's deal waits for its people to start it: a turn's time
    and the bank of the tournament's clock (TB-2.1's by default), whole seconds."""
    settings = parse_clock(clock)
    return max(2, math.ceil(settings.move_s + settings.bank_s))


def not_found(tournament_id: str) -> RuleViolation:
    return RuleViolation("DS-55", f"no tournament {tournament_id!r}")


def _int(body: dict[str, Any], field: str, low: int, high: int, default: int | None = None) -> int:
    value = body.get(field, default)
    if type(value) is not int or not low <= value <= high:
        raise RuleViolation("TN-1.1", f"{field} is a whole number from {low} to {high}")
    return value


def _table_result(fmt: str, rnd: Round, table: Table) -> dict[str, Any]:
    """A table's match scores and each deal's payments (seat order), once its result is in; in
    duplicate only once the round is over (its seed revealed): until then another table may be
    playing the same board, and a board's outcome is a hint about its wall."""
    result = table.result
    if result is None or (fmt == "duplicate" and rnd.seed is None):
        return {"scores": None, "payments": None}
    return {"scores": list(result.scores), "payments": [list(d.payments) for d in result.deals]}


class TournamentService:
    def __init__(self, matches: MatchService, accounts: Any = None, sweep_s: float = SWEEP_S) -> None:
        self.matches = matches
        self.deals = matches.deals
        self.store = TournamentStore(matches.deals.store)
        self.accounts = accounts  # ``service.app.accounts.Accounts``: names to accounts
        self.sweep_s = sweep_s
        self.stopped = False  # set by ``stop``: the runner's loop ends
        self.holder = secrets.token_hex(8)  # this process's name on a lease
        self._locks: dict[str, asyncio.Lock] = {}
        self._mixed: dict[tuple[str, int], tuple[bytes, int, int]] = {}  # a round's mixed seed, wall, seats
        matches.board_for = self.board_for
        matches.deals.plays_for_absent = self.is_table

    # creation and entries ------------------------------------------------------------------
    async def create(self, body: Any) -> dict[str, Any]:
        """TN-1.1: a tournament from the request body; its id and the arbiter's token (given
        once, kept only as its digest). Refused requests store nothing."""
        if not isinstance(body, dict):
            raise RuleViolation("DS-5", "a tournament is a JSON object")
        kit_ = kit(body.get("game"))  # DS-1 for an unknown game
        fmt = body.get("format", "swiss")
        if fmt not in plan.FORMATS:
            raise RuleViolation("TN-1.1", f"format is one of {', '.join(plan.FORMATS)}")
        rounds = _int(body, "rounds", 1, plan.MAX_ROUNDS)
        deals = _int(body, "deals_per_round", 1, MAX_DEALS, 1)
        pace = body.get("pace", "normal")
        if pace not in PACES:
            raise RuleViolation("TN-1.1", f"pace is one of {', '.join(PACES)}")
        clock = body.get("clock")
        clock_settings = msgspec.to_builtins(parse_clock(clock)) if clock is not None else None
        name = body.get("name", "")
        if not isinstance(name, str) or len(name) > MAX_NAME:
            raise RuleViolation("DS-5", f"name is text of at most {MAX_NAME} characters")
        fill = body.get("fill_with_bots", False)
        if not isinstance(fill, bool):
            raise RuleViolation("DS-5", "fill_with_bots is true or false")
        players = body.get("players") or []
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RuleViolation("DS-5", "players is a list of account names and house bots")
        entries = await self._entries(players)
        tournament_id = secrets.token_hex(8)
        created = TournamentCreated(
            tournament_id, kit_.name, kit_.game.seat_count, fmt, rounds, deals, pace, clock_settings,
            fill, open_entries=not players, name=name,
        )  # fmt: skip
        round_seeds = [os.urandom(32) for _ in range(rounds)]
        events = plan.opening(created, [seeds.commitment(s) for s in round_seeds], entries)
        if players:
            from domain.tournament.state import fold

            events += plan.start(fold(events), self._filler_hashes(kit_.game.seat_count))
        arbiter = secrets.token_urlsafe(32)
        # the secrets first: a runner that finds the log finds its seeds
        await self.store.put_secrets(
            tournament_id,
            {
                "arbiter": token_digest(arbiter),
                **{f"seed:{r}": s.hex() for r, s in enumerate(round_seeds, 1)},
            },
        )
        await self.store.append(tournament_id, 0, events, command_id="create")
        await self.store.look_at(tournament_id, now_ms())
        return {"tournament_id": tournament_id, "arbiter_token": arbiter}

    @staticmethod
    def _filler_hashes(count: int) -> list[str]:
        return [seeds.seed_hash(secrets.token_hex(16)) for _ in range(count)]

    async def _entries(self, players: list[str]) -> list[tuple[str, str, str]]:
        out = []
        for name, kind in plan.bot_names(players):
            if kind == "person":
                name = await self._account_name(name)
            elif kind[4:] not in HOUSE_LEVELS:
                raise RuleViolation(
                    "TN-1.2", f"a house bot is one of {', '.join('bot:' + x for x in HOUSE_LEVELS)}"
                )
            out.append((name, kind, seeds.seed_hash(secrets.token_hex(16))))
        return out

    async def _account_name(self, raw: str) -> str:
        """The account's name as stored (TN-1.2: players are accounts or house bots)."""
        from service.app.accounts.names import skeleton

        account_id = await self.accounts.store.by_name(skeleton(raw)) if self.accounts is not None else None
        if account_id is None:
            raise RuleViolation("TN-1.2", f"no account {raw!r}")
        fields = await self.accounts.store.get(account_id)
        return str(fields.get("name", raw))

    async def _state(self, tournament_id: str) -> tuple[TournamentState, int]:
        try:
            return await self.store.state(tournament_id)
        except TournamentNotFound:
            raise not_found(tournament_id) from None

    async def enter(self, tournament_id: str, account_name: str, client_seed: Any = None) -> dict[str, Any]:
        """An open tournament's entry by a signed-in account (twice: the same entry)."""
        if client_seed is not None and (not isinstance(client_seed, str) or not 1 <= len(client_seed) <= 256):
            raise RuleViolation("DS-5", "client_seed is text of 1 to 256 characters")
        for _ in range(MAX_STEPS):
            state, version = await self._state(tournament_id)
            if account_name in state.entrants:
                return {"player": account_name, "entrants": len(state.entrants)}
            if state.created is None or not state.created.open_entries or state.started:
                raise RuleViolation(
                    "DS-57", "this tournament takes no entries (it lists its players, or has started)"
                )
            if len(state.entrants) >= plan.MAX_ENTRANTS:
                raise RuleViolation("TN-1.2", f"at most {plan.MAX_ENTRANTS} players")
            digest = seeds.seed_hash(client_seed or secrets.token_hex(16))
            event = plan.PlayerEntered(account_name, "person", digest)
            try:
                await self.store.append(tournament_id, version, [event], command_id=f"enter:{account_name}")
            except VersionConflict:
                continue
        return {"player": account_name, "entrants": len(state.entrants) + 1}

    async def check_arbiter(self, tournament_id: str, token: str | None) -> TournamentState:
        state, _ = await self._state(tournament_id)
        held = await self.store.secret(tournament_id, "arbiter")
        if token is None or held is None or not hmac.compare_digest(held, token_digest(token)):
            raise RuleViolation("DS-56", "this needs the tournament's arbiter token (Authorization: Bearer)")
        return state

    async def start(self, tournament_id: str, token: str | None) -> dict[str, Any]:
        """The arbiter closes the entries of an open tournament; round 1 follows."""
        await self.check_arbiter(tournament_id, token)
        for _ in range(MAX_STEPS):
            state, version = await self._state(tournament_id)
            if state.started:
                break
            events = plan.start(state, self._filler_hashes(state.created.seats if state.created else 0))
            try:
                await self.store.append(tournament_id, version, events, command_id="start")
            except VersionConflict:
                continue
        await self.store.look_at(tournament_id, now_ms())
        await self.advance(tournament_id)
        return await self.view(tournament_id)

    async def ruling(self, tournament_id: str, token: str | None, body: Any) -> dict[str, Any]:
        """TN-4.1: a ruling into the log (never deleted; a later ruling undoes it)."""
        await self.check_arbiter(tournament_id, token)
        if not isinstance(body, dict):
            raise RuleViolation("DS-5", "a ruling is a JSON object")
        player, points = body.get("player"), body.get("points")
        reason, rule, deal_id = body.get("reason"), body.get("rule"), body.get("deal_id", "")
        texts = (reason, rule, deal_id)
        if type(points) is not int or not all(isinstance(t, str) and len(t) <= 500 for t in texts):
            raise RuleViolation(
                "DS-5", "a ruling names player, points (a whole number), reason, rule and deal_id"
            )
        if not reason or not rule:
            raise RuleViolation("TN-4.1", "a ruling gives its reason and the rule it applies")
        for _ in range(MAX_STEPS):
            state, version = await self._state(tournament_id)
            if player not in state.entrants or state.entrants[player].filler:
                raise RuleViolation("TN-4.1", f"{player!r} is not a ranked player of this tournament")
            try:
                result = await self.store.append(
                    tournament_id, version, [Ruling(player, points, reason, rule, deal_id)],
                    command_id=f"ruling:{secrets.token_hex(8)}",
                )  # fmt: skip
                return {"version": result.last_version}
            except VersionConflict:
                continue
        raise RuleViolation("DS-57", "the tournament is too busy to record the ruling now; try again")

    async def withdraw(
        self, tournament_id: str, player: str, token: str | None, account: str | None
    ) -> dict[str, Any]:
        """TN-1.4: the arbiter withdraws anyone, a signed-in account itself."""
        if account != player:
            await self.check_arbiter(tournament_id, token)
        for _ in range(MAX_STEPS):
            state, version = await self._state(tournament_id)
            if player in state.entrants and state.entrants[player].withdrawn:
                return {"player": player, "withdrawn": True}
            events = plan.withdraw(state, player, seeds.seed_hash(secrets.token_hex(16)))
            try:
                await self.store.append(tournament_id, version, events, command_id=f"withdraw:{player}")
                return {"player": player, "withdrawn": True}
            except VersionConflict:
                continue
        raise RuleViolation("DS-57", "the tournament is too busy now; try again")

    # reads --------------------------------------------------------------------------------------
    async def _match_deals(self, match_id: str | None) -> tuple[list[str], bool, list[str]]:
        """The match's deal ids, whether it is over, and the deals that ended."""
        if match_id is None:
            return [], False, []
        try:
            mstate, _ = await self.matches.log.state(match_id)
        except MatchNotFound:
            return [], False, []
        return (
            [d.deal_id for d in mstate.deals],
            mstate.over,
            [d.deal_id for d in mstate.deals if d.result is not None],
        )

    async def view(self, tournament_id: str) -> dict[str, Any]:
        """``GET /tournaments/{id}``: rounds, tables, standings, rulings; nothing secret."""
        state, version = await self._state(tournament_id)
        created = state.created
        assert created is not None
        rounds: list[dict[str, Any]] = []
        benchmark: list[dict[str, Any]] = []
        for r in sorted(state.rounds):
            rnd = state.rounds[r]
            tables: list[dict[str, Any]] = []
            for t in sorted(rnd.tables):
                table = rnd.tables[t]
                deal_ids, over, _ = await self._match_deals(table.match_id)
                row = {"table": t, "players": table.players, "match_id": table.match_id, "deals": deal_ids,
                       "over": table.result is not None or over,
                       **_table_result(created.format, rnd, table)}  # fmt: skip
                (benchmark if t == HOUSE_TABLE else tables).append(
                    {"round": r, **row} if t == HOUSE_TABLE else row
                )
            rounds.append({"round": r, "seed_commitment": rnd.commitment, "seed": rnd.seed, "tables": tables})
        return {
            "tournament_id": tournament_id,
            "name": created.name,
            "game": created.game,
            "format": created.format,
            "deals_per_round": created.deals_per_round,
            "pace": created.pace,
            "clock": created.clock,
            "open_entries": created.open_entries and not state.started,
            "started": state.started,
            "entrants": [
                {"player": e.player, "kind": e.kind, "filler": e.filler, "withdrawn": e.withdrawn}
                for e in state.entrants.values()
            ],
            "rounds": rounds,
            "standings": msgspec.to_builtins(standings(state)),
            "rulings": [
                {
                    "player": r.player,
                    "points": r.points,
                    "reason": r.reason,
                    "rule": r.rule,
                    "deal_id": r.deal_id,
                }
                for r in state.rulings
            ],
            "benchmark": benchmark if created.format == "duplicate" else None,
            "over": state.ended,
            "version": version,
        }

    async def arbiter_deals(self, tournament_id: str, token: str | None) -> dict[str, Any]:
        """TN-4.1: every finished deal of every table with its claim-window report; a live deal,
        or a duplicate board still played at another table (TN-3.6), is not listed (nothing
        hidden of it reaches the arbiter)."""
        from service.app.reads.audit import audit_log
        from service.app.visibility import sealed

        state = await self.check_arbiter(tournament_id, token)
        duplicate = state.created is not None and state.created.format == "duplicate"
        rows = []
        for r in sorted(state.rounds):
            # TN-3.6: a duplicate round's boards stay sealed, from the arbiter too, until it ends
            round_over = state.rounds[r].seed is not None if duplicate else None
            for t, table in sorted(state.rounds[r].tables.items()):
                _, _, ended = await self._match_deals(table.match_id)
                for index, deal_id in enumerate(ended):
                    if sealed((await self.deals.load(deal_id)).over, round_over):
                        continue
                    raws = await self.deals.store.read_raw(deal_id)
                    report = audit_log(raws)
                    if not report.finished:
                        continue
                    rows.append({
                        "round": r, "table": t, "players": table.players, "match_id": table.match_id,
                        "index": index, "deal_id": deal_id, "audit_ok": report.ok,
                        "claim_windows": report.claim_windows,
                    })  # fmt: skip
        return {"tournament_id": tournament_id, "deals": rows}

    async def seat_of(self, tournament_id: str, account: str) -> dict[str, Any]:
        """Where the account sits in the round in play (the deal it opens with my-seat)."""
        state, _ = await self._state(tournament_id)
        rnd = state.current
        if rnd is not None:
            for t, table in sorted(rnd.tables.items()):
                if account in table.players:
                    deal_ids, over, _ = await self._match_deals(table.match_id)
                    return {
                        "round": rnd.round, "table": t, "seat": table.players.index(account),
                        "match_id": table.match_id, "deal_id": deal_ids[-1] if deal_ids else None,
                        "over": over,
                    }  # fmt: skip
        return {
            "round": None,
            "table": None,
            "seat": None,
            "match_id": None,
            "deal_id": None,
            "over": state.ended,
        }

    # the runner ---------------------------------------------------------------------------------
    async def advance(self, tournament_id: str) -> TournamentState | None:
        """Take every step the log allows now, under the tournament's lease."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            if not await self.store.take_lease(tournament_id, self.holder, LEASE_MS):
                return None
            return await self._advance(tournament_id)

    async def _advance(self, tournament_id: str) -> TournamentState | None:
        for _ in range(MAX_STEPS):
            state, version = await self._state(tournament_id)
            step = plan.next_step(state)
            try:
                if step is None:
                    if state.ended:
                        await self.store.done(tournament_id)
                        await self.store.release_lease(tournament_id, self.holder)
                    return state
                if isinstance(step, plan.Pair):
                    seed = await self._round_seed(tournament_id, step.round)
                    events = plan.pairing(state, step.round, seed)
                    await self.store.append(tournament_id, version, events, command_id=f"pair:{step.round}")
                elif isinstance(step, plan.StartTables):
                    # the tables' matches are made at once (each claims its id first), then
                    # recorded in one append: the round's deals start together
                    match_ids = await asyncio.gather(
                        *(self._start_table(tournament_id, state, step.round, t) for t in step.tables)
                    )
                    tables = ",".join(map(str, step.tables))
                    await self.store.append(
                        tournament_id, version,
                        [TableStarted(step.round, t, m) for t, m in zip(step.tables, match_ids, strict=True)],
                        command_id=f"tables:{step.round}:{hashlib.sha256(tables.encode()).hexdigest()[:16]}",
                    )  # fmt: skip
                elif isinstance(step, plan.Await):
                    results = await self._results(state, step.round, step.tables)
                    if not results:
                        await self.store.look_at(tournament_id, now_ms() + LOOK_AGAIN_MS)
                        return state
                    for result in results:
                        appended = await self.store.append(
                            tournament_id,
                            version,
                            [result],
                            command_id=f"result:{result.round}:{result.table}",
                        )
                        version = appended.last_version
                elif isinstance(step, plan.Reveal):
                    seed = await self._round_seed(tournament_id, step.round)
                    await self.store.append(
                        tournament_id, version, [RoundSeedRevealed(step.round, seed.hex())],
                        command_id=f"reveal:{step.round}",
                    )  # fmt: skip
                elif isinstance(step, plan.End):
                    await self.store.append(tournament_id, version, [TournamentEnded()], command_id="end")
            except VersionConflict:
                continue
        await self.store.look_at(tournament_id, now_ms() + LOOK_AGAIN_MS)
        return None

    async def _round_seed(self, tournament_id: str, round_no: int) -> bytes:
        held = await self.store.secret(tournament_id, f"seed:{round_no}")
        if held is None:
            raise RuntimeError(f"tournament {tournament_id}: round {round_no}'s seed is missing")
        return bytes.fromhex(held)

    async def _start_table(
        self, tournament_id: str, state: TournamentState, round_no: int, table_no: int
    ) -> str:
        """The table's match, made once: its id is claimed first, then made if it is not."""
        created = state.created
        assert created is not None
        match_id = await self.store.claim(tournament_id, f"match:{round_no}:{table_no}", secrets.token_hex(8))
        try:
            await self.matches.log.state(match_id)
            return match_id  # made before a restart
        except MatchNotFound:
            pass
        table = state.rounds[round_no].tables[table_no]
        seats = [plan.seat_kind(state, p) for p in table.players]
        if created.format == "duplicate":  # every deal of the match is dealt the round's board
            await self.store.map_board(match_id, tournament_id, round_no)
        # a table with people is clocked (TB-2: an absent person is played for), by default TB-2.1's;
        # its deals wait for a person to start them a turn's time and bank, then start for them
        clock = created.clock if created.clock is not None or "human" not in seats else {}
        # a duplicate round's tables play one board: watched live, a table ahead would show a
        # person at another what their wall holds (TN-3.6), so only Swiss tables are watched
        watchable = created.format != "duplicate"
        await self.store.map_table(match_id, tournament_id)
        made = await self.matches.create(
            created.game, created.deals_per_round, None, match_id=match_id, seats=seats, pace=created.pace,
            clock=clock, spectators=watchable, start_s=start_wait_s(clock) if "human" in seats else None,
        )  # fmt: skip
        await self._seat_people(state, table.players, made, match_id)
        return match_id

    async def is_table(self, match_id: str) -> bool:
        """Whether the match is a tournament table's (TN-1.4: its deals start for an absent
        person instead of ending abandoned)."""
        return await self.store.table_of(match_id) is not None

    async def board_for(self, match_id: str, index: int) -> tuple[int, list[int]] | None:
        """TN-3.4: the dealer and wall of deal ``index`` of a duplicate round's match (None for
        any other match)."""
        where = await self.store.board_of(match_id)
        if where is None:
            return None
        known = self._mixed.get(where)
        if known is None:
            state, _ = await self._state(where[0])
            assert state.created is not None
            seed = await self._round_seed(*where)
            mixed = seeds.mixed_seed(seed, state.field_hashes())
            known = (mixed, kit(state.created.game).game.deck_size, state.created.seats)
            if len(self._mixed) > 256:
                self._mixed.clear()
            self._mixed[where] = known
        mixed, deck_size, seats = known
        return seeds.board(mixed, index, deck_size, seats)

    async def _seat_people(
        self, state: TournamentState, players: list[str], made: dict[str, Any], match_id: str
    ) -> None:
        """Each person's seat listed under their account, so ``my-seat`` hands them a token."""
        if self.accounts is None:
            return
        from service.app.accounts.names import skeleton
        from service.store.accounts import games_digest

        for seat, player in enumerate(players):
            entrant = state.entrants.get(player)
            if entrant is None or entrant.kind != "person":
                continue
            account_id = await self.accounts.store.by_name(skeleton(player))
            if account_id is None:
                continue
            digest = games_digest(account_id)
            await self.deals.players.seated(digest, "deal", made["deal_id"], [seat], now_ms())
            await self.deals.players.seated(digest, "match", match_id, [seat], now_ms())

    async def _results(self, state: TournamentState, round_no: int, tables: list[int]) -> list[TableResult]:
        out = []
        for t in tables:
            match_id = state.rounds[round_no].tables[t].match_id
            assert match_id is not None
            try:
                mstate, _ = await self.matches.log.state(match_id)
            except MatchNotFound:
                continue
            if not mstate.over:
                continue
            deals = [
                DealResult(d.deal_id, list(d.result.payments)) for d in mstate.deals if d.result is not None
            ]
            out.append(TableResult(round_no, t, deals, list(mstate.scores)))
        return out

    async def sweep(self) -> int:
        async def look_again(tournament_id: str) -> None:
            await self.store.look_at(tournament_id, now_ms() + LEASE_MS)

        return await look_at_each(await self.store.due(now_ms()), look_again, self.advance, "tournament", log)

    async def run(self) -> None:
        await sweep_forever(
            self.sweep, self.sweep_s, "tournament", log, lambda: self.stopped, self.store.alarm, IDLE_S
        )

    def stop(self) -> None:
        """End the runner's loop at its next turn (the service is shutting down)."""
        self.stopped = True

    def close(self) -> None:
        self.store.close()
