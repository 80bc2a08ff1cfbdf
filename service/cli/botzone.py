"""``dealstream botzone``: our MCR bots as Botzone programs, and the Botzone and JSON-lines forms
of ``export`` / ``import`` (docs/botzone.md, docs/records.md).

The bot program reads what the Botzone judge of Chinese Standard Mahjong sends a player:

- the JSON interaction: ``{"requests": [...], "responses": [...]}`` (one more request than
  responses), answered with one line ``{"response": "..."}``;
- the simple interaction: a line with the turn number ``n``, then the ``2n - 1`` lines of the
  history (request, response, ..., request), answered with the response line;
- with ``--keep-running``, after each answer the line ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``; the
  next turn is then one line with only the new request (plain text, a JSON string, or
  ``{"request": ...}``) or a whole history again.

Input that is no such thing gets a message on stderr naming the request or the line, and exit
code 2, with nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, Any

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
MAX_INPUT = 1 << 20  # bytes of one turn's input: a whole match's history is under 40 KiB


class BadInput(Exception):
    pass


# ---- the bot program ----------------------------------------------------------------------
def _history(text: str) -> tuple[list[str], list[str], bool]:
    """(requests, responses, JSON?) of one turn's whole input."""
    stripped = text.strip()
    if not stripped:
        raise BadInput("empty input: a Botzone turn is a JSON object or a turn count line")
    if stripped[0] == "{":
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise BadInput(
                f"the JSON input does not parse (line {exc.lineno}, column {exc.colno}): {exc.msg}"
            ) from None
        if not isinstance(data, dict) or not isinstance(data.get("requests"), list):
            raise BadInput("the JSON input has no 'requests' list")
        reqs, resps = data["requests"], data.get("responses", [])
        if not isinstance(resps, list) or len(reqs) != len(resps) + 1:
            raise BadInput(
                f"{len(reqs)} requests and {len(resps) if isinstance(resps, list) else 'no'}"
                " responses: a turn has one request more than responses"
            )
        for i, r in enumerate(reqs):
            if not isinstance(r, str):
                raise BadInput(f"request {i + 1} is not a string")
        for i, r in enumerate(resps):
            if not isinstance(r, str):
                raise BadInput(f"response {i + 1} is not a string")
        return reqs, resps, True
    lines = stripped.split("\n")
    head = lines[0].strip()
    if not head.isdigit() or int(head) < 1:
        raise BadInput(f"line 1: {head[:40]!r} is neither a JSON object nor a turn count")
    n = int(head)
    body = [x.rstrip("\r") for x in lines[1:]]
    if len(body) < 2 * n - 1:
        raise BadInput(
            f"line {len(body) + 2}: the input ends after {len(body)} of the {2 * n - 1} history lines"
        )
    return body[0 : 2 * n - 1 : 2], body[1 : 2 * n - 2 : 2], False


def _one_request(line: str) -> str | tuple[list[str], list[str]]:
    """A keep-running turn's input: the new request, or a whole history."""
    s = line.strip()
    if s.startswith("{"):
        try:
            data = json.loads(s)
        except json.JSONDecodeError as exc:
            raise BadInput(f"the JSON input does not parse: {exc.msg}") from None
        if isinstance(data, dict) and isinstance(data.get("request"), str):
            return data["request"]
        reqs, resps, _ = _history(s)
        return reqs, resps
    if s.startswith('"'):
        try:
            data = json.loads(s)
        except json.JSONDecodeError as exc:
            raise BadInput(f"the JSON input does not parse: {exc.msg}") from None
        if not isinstance(data, str):
            raise BadInput("a request is a string")
        return data
    return s


def _one_turn(stdin: IO[str]) -> str:
    """A fresh process's whole input, read without waiting for the end of the input when it is
    complete: a turn count and its ``2n - 1`` lines, or a JSON object on one line (a host that
    keeps our stdin open, as our own tables do, gets its answer all the same)."""
    first = stdin.readline(MAX_INPUT + 1)
    head = first.strip()
    if head.isdigit():
        lines = [first]
        for _ in range(2 * int(head) - 1):
            line = stdin.readline(MAX_INPUT + 1)
            if not line:
                break
            lines.append(line)
        text = "".join(lines)
    else:
        text = first
        if not head.startswith("{") or not _parses(head):
            text += stdin.read(MAX_INPUT + 1 - len(first))
    if len(text) > MAX_INPUT:
        raise BadInput(f"more than {MAX_INPUT} bytes of input")
    return text


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _game() -> Any:
    """(kit, Botzone modules) of the game that speaks the judge's protocol, imported when first
    needed so a turn's fresh process starts fast."""
    from service.app.games import botzone_game

    return botzone_game()


def _botzone() -> Any:
    return _game()[1]


class Player:
    """One seat under the judge: the tracker of its history and the bot that answers."""

    def __init__(self, level: str) -> None:
        SeatTracker = _botzone().tracker.SeatTracker

        self.level = level
        self.tracker = SeatTracker()
        self.bot: Any = None
        self.requests: list[str] = []

    def replay(self, requests: list[str], responses: list[str]) -> None:
        SeatTracker = _botzone().tracker.SeatTracker

        self.tracker = SeatTracker()
        self.requests = []
        for i, req in enumerate(requests):
            self.request(req)
            if i < len(responses):
                self.tracker.response(responses[i], f"response {i + 1}")

    def request(self, text: str) -> None:
        self.requests.append(text)
        self.tracker.request(text, f"request {len(self.requests)}")

    def answer(self) -> str:
        make_bot = _game()[0].bots.make_bot
        bz = _botzone()
        bot_seed, safe_answer = bz.tracker.bot_seed, bz.tracker.safe_answer

        if self.bot is None:  # seeded by the seat's first requests: the same game, the same bot
            self.bot = make_bot(self.level, bot_seed(self.requests[:2]))
        text, failure = safe_answer(self.tracker, self.bot)
        if failure is not None:
            print(
                f"dealstream botzone: request {len(self.requests)}: answered {text!r} after {failure}",
                file=sys.stderr,
            )
        self.tracker.response(text)
        return text


def serve(stdin: IO[str], stdout: IO[str], level: str, keep_running: bool) -> int:
    BotzoneError = _botzone().codes.BotzoneError

    player = Player(level)
    try:
        if not keep_running:
            reqs, resps, as_json = _history(_one_turn(stdin))
        else:
            first = stdin.readline(MAX_INPUT + 1)
            if len(first) > MAX_INPUT:
                raise BadInput(f"line 1: more than {MAX_INPUT} bytes")
            if first.strip().startswith("{"):
                reqs, resps, as_json = _history(first)
            else:
                rest = [first]
                if first.strip().isdigit():
                    for _ in range(2 * int(first.strip()) - 1):
                        line = stdin.readline(MAX_INPUT + 1)
                        if not line:
                            break
                        rest.append(line)
                reqs, resps, as_json = _history("".join(rest))
        player.replay(reqs, resps)
        while True:
            text = player.answer()
            stdout.write((json.dumps({"response": text}) if as_json else text) + "\n")
            if not keep_running:
                stdout.flush()
                return 0
            stdout.write(MARKER + "\n")
            stdout.flush()
            while True:
                line = stdin.readline(MAX_INPUT + 1)
                if not line:
                    return 0  # the judge closed our input: the game is over
                if len(line) > MAX_INPUT:
                    raise BadInput(f"request {len(player.requests) + 1}: more than {MAX_INPUT} bytes")
                if line.strip() and not line.strip().isdigit():
                    break  # a bare number is a turn count some hosts send first
            got = _one_request(line)
            if isinstance(got, tuple):
                player.replay(*got)
            else:
                player.request(got)
    except (BadInput, BotzoneError) as exc:
        print(f"dealstream botzone: {exc}", file=sys.stderr)
        return 2


def cmd_botzone(args: argparse.Namespace) -> int:
    return serve(sys.stdin, sys.stdout, args.level, args.keep_running)


def add_parser(sub: Any) -> None:
    s = sub.add_parser(
        "botzone", help="play one MCR seat under the Botzone judge (stdin/stdout, docs/botzone.md)"
    )
    s.add_argument("--level", choices=("strong", "greedy", "random"), default="strong")
    s.add_argument(
        "--keep-running",
        action="store_true",
        help="stay up between turns (Botzone's long-running mode) instead of one turn per process",
    )
    s.set_defaults(func=cmd_botzone)


# ---- export and import ---------------------------------------------------------------------
def export_botzone(args: argparse.Namespace, raws: list[bytes]) -> int:
    bz = _botzone()
    NotTranslatable, match_of_deal = bz.codes.NotTranslatable, bz.translation.match_of_deal
    from service.cli.stores import NotADealLog, read_log

    try:
        _records, created, k, events = read_log(raws)
    except NotADealLog as exc:
        print(f"export: {args.deal} is not a deal log this build reads: {exc}", file=sys.stderr)
        return 1
    if k.name != _game()[0].name:
        print(
            f"export: a Botzone match is a deal of {_game()[0].name}; {args.deal} is {k.name}",
            file=sys.stderr,
        )
        return 1
    try:
        match = match_of_deal(events, created.deal_id)
    except NotTranslatable as exc:
        print(f"export: the judge cannot replay deal {created.deal_id}: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(json.dumps(match, separators=(",", ":")) + "\n")
    return 0


def imported_records(match: Any, now: str, deal_id: str | None = None) -> list[bytes]:
    """The stored records of a Botzone match played again by our engine (``mcr/2``): the chain
    from genesis, each command's batch carrying the command. Raises ``BotzoneError`` (a bad
    match) or ``NotTranslatable`` (a match mcr/2 would not play as the judge did)."""
    import hashlib

    import msgspec

    from domain.envelope import GENESIS, NO_COMMAND, StoredEvent, encode_record, record_hash
    from domain.game import MatchPlace

    bz = _botzone()
    play_match, read_match = bz.translation.play_match, bz.translation.read_match

    imp = read_match(match)
    k = _game()[0]
    digest = hashlib.sha256(json.dumps(match, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    deal_id = deal_id or f"bz{digest[:14]}"
    place = MatchPlace(match_id=f"botzone:{digest[:16]}", index=0, round=imp.quan) if imp.quan else None
    created = k.game.create(
        deal_id=deal_id,
        seats=["botzone"] * 4,
        server_seed=bytes(32),
        fixed_deck=imp.deck,
        fixed_dealer=imp.dealer,
        match=place,
    )[0]
    created = msgspec.structs.replace(created, imported="botzone")
    batches = play_match(imp, k.game.fold([created]), k.game.execute)
    raws: list[bytes] = []
    prev = GENESIS

    def put(event: Any, command: Any, command_id: str | None) -> None:
        nonlocal prev
        raw = encode_record(
            StoredEvent(
                version=len(raws) + 1,
                type=type(event).__name__,
                data=msgspec.Raw(msgspec.json.encode(event)),
                prev=prev,
                recorded_at=now,
                command_id=command_id,
                command=msgspec.Raw(msgspec.json.encode(command)) if command is not None else NO_COMMAND,
            )
        )
        raws.append(raw)
        prev = record_hash(raw)

    put(created, None, "create")
    for n, (command, events) in enumerate(batches, start=1):
        for i, event in enumerate(events):
            put(event, command if i == 0 else None, f"botzone:{n}")
    return raws


def import_botzone(args: argparse.Namespace) -> int:
    bz = _botzone()
    BotzoneError, NotTranslatable = bz.codes.BotzoneError, bz.codes.NotTranslatable
    from service.store.redis_log import now_text

    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as exc:
        print(f"refused: {exc}", file=sys.stderr)
        return 1
    if len(data) > 16 * MAX_INPUT:
        print(f"refused: {args.file}: {len(data)} bytes, more than a match holds", file=sys.stderr)
        return 1
    try:
        match = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else "bytes"
        print(f"refused: {args.file} is no JSON match ({where}): {exc}", file=sys.stderr)
        return 1
    try:
        raws = imported_records(match, now_text(None))
    except (BotzoneError, NotTranslatable) as exc:
        print(f"refused: {args.file}: {exc}", file=sys.stderr)
        return 1
    return _store(args, raws)


def _store(args: argparse.Namespace, raws: list[bytes]) -> int:
    """Store an imported deal's records as ``dealstream import`` stores an exported log."""
    import msgspec

    from domain.envelope import decode_record
    from domain.game import DealCreated
    from service.cli.stores import with_store
    from service.store.event_store import now_ms

    created = msgspec.json.decode(decode_record(raws[0]).data, type=DealCreated)

    async def work(store: Any) -> int:
        if await store.version(created.deal_id):
            print(f"deal {created.deal_id} exists already", file=sys.stderr)
            return 1
        await store.indexes.put_meta(
            created.deal_id, {"game": _game()[0].name, "seats": json.dumps(created.seats)}
        )
        await store.log.append_records(created.deal_id, raws)
        meta = {"status": "over", "imported": "1", "source": "botzone"}
        await store.indexes.put_meta(created.deal_id, meta, created_ms=now_ms(), public=True)
        print(created.deal_id)
        return 0

    return with_store(args, work)
