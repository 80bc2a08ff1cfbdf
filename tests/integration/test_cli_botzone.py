"""``dealstream botzone`` as the Botzone judge runs it (real processes, real stdin and stdout), and
``export`` / ``import`` in the Botzone and JSON-lines formats on a real Redis (issue 25)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema_rs
import msgspec
import pytest

from domain.mcr.botzone.codes import NotTranslatable, code_of
from domain.mcr.botzone.referee import Referee
from domain.mcr.botzone.tracker import SeatTracker
from domain.mcr.botzone.translation import match_of_deal
from service.cli.play import play_one
from tests.conftest import drop_prefix

pytestmark = pytest.mark.redis
ROOT = Path(__file__).resolve().parents[2]
MOVES = ("TileDiscarded", "SetClaimed", "ConcealedKongDeclared", "AddedKongDeclared", "HandWon", "TileDrawn")


def run(*args: str, stdin: str | bytes = "", check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        cwd=str(ROOT),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        input=stdin if isinstance(stdin, bytes) else stdin.encode(),
        capture_output=True,
        timeout=120,
    )
    if check:
        assert proc.returncode == 0, proc.stderr.decode() + proc.stdout.decode()
    return proc


def _match(start: int = 1) -> tuple[list, dict]:
    i = start
    while True:
        events = play_one("mcr", ["greedy", "strong", "random", "greedy"], bytes([i]) * 32)[1]
        try:
            return events, match_of_deal(events, f"deal{i}")
        except NotTranslatable:
            i += 1


def _history(match: dict, seat: int, turn: int) -> tuple[list[str], list[str]]:
    log = match["log"]
    reqs = [log[2 * r]["output"]["content"][str(seat)] for r in range(turn + 1)]
    resps = [log[2 * r + 1][str(seat)]["response"] for r in range(turn)]
    return reqs, resps


def _legal(reqs: list[str], resps: list[str]) -> set[str]:
    tr = SeatTracker()
    for i, r in enumerate(reqs):
        tr.request(r)
        if i < len(resps):
            tr.response(resps[i])
    _view, acts = tr.view()
    return {t for _a, t in acts} or {"PASS"}


def test_one_turn_per_process_in_json_and_in_the_simple_interaction():
    _events, match = _match()
    decisions = 0
    for seat in range(4):
        content = [e["output"]["content"][str(seat)] for e in match["log"][0:-1:2]]
        draws = [t for t, r in enumerate(content) if r.startswith("2 ")][:2]
        for turn in (0, 1, *draws):
            reqs, resps = _history(match, seat, turn)
            out = run(
                "botzone", "--level", "greedy", stdin=json.dumps({"requests": reqs, "responses": resps})
            )
            (line,) = out.stdout.decode().splitlines()
            said = json.loads(line)["response"]
            legal = _legal(reqs, resps)
            words = said.split()
            assert said in legal or (words[0] in ("PENG", "CHI") and " ".join(words[:-1]) in legal), (
                said,
                legal,
            )
            decisions += len(legal) > 1
            simple = [str(len(reqs))]
            for i, r in enumerate(reqs):
                simple += [r] + ([resps[i]] if i < len(resps) else [])
            again = run("botzone", "--level", "greedy", stdin="\n".join(simple) + "\n").stdout.decode()
            assert again == said + "\n"  # the same answer, as one plain line
    assert decisions >= 8


def test_whole_games_in_the_long_running_mode_without_a_penalty():
    """Four long-running seats, refereed by our statement of the judge's reading; a fresh
    process answers each seat's first turns the same."""
    import random

    from domain.mcr.tiles import FLOWER_CODES, KIND_CODES

    for seed, with_flowers in ((1, True), (2, False)):
        tiles = [c for c in KIND_CODES for _ in range(4)] + (list(FLOWER_CODES) if with_flowers else [])
        random.Random(seed).shuffle(tiles)
        ref = Referee(" ".join(tiles), seed % 4)
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "service.cli", "botzone", "--keep-running", "--level", lv],
                cwd=str(ROOT),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for lv in ("strong", "greedy", "random", "greedy")
        ]
        reqs: list[list[str]] = [[] for _ in range(4)]
        resps: list[list[str]] = [[] for _ in range(4)]
        try:
            while (content := ref.requests()) is not None:
                answers = []
                for i, p in enumerate(procs):
                    reqs[i].append(content[i])
                    p.stdin.write(
                        (
                            json.dumps({"requests": reqs[i], "responses": []})
                            if len(reqs[i]) == 1
                            else content[i]
                        )
                        + "\n"
                    )
                    p.stdin.flush()
                    said = json.loads(p.stdout.readline())["response"]
                    assert p.stdout.readline().strip() == ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
                    if len(reqs[i]) in (3, 6) and i != 0:  # a fresh process says the same
                        fresh = run(
                            "botzone",
                            "--level",
                            ("strong", "greedy", "random", "greedy")[i],
                            stdin=json.dumps({"requests": reqs[i], "responses": resps[i]}),
                        )
                        assert json.loads(fresh.stdout)["response"] == said
                    resps[i].append(said)
                    answers.append(said)
                ref.respond(answers)  # a Penalty would fail the test
        finally:
            for p in procs:
                p.stdin.close()
                assert p.wait(timeout=30) == 0
        assert ref.outcome.kind in ("HU", "HUANG")


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ('{"requests": ["0 0 0"], "responses": ["PASS"]}', "one request more than responses"),
        ('{"requests": ["0 0 0", "1 0 0 0 0 W1"], "responses": ["PASS"]}', "request 2"),
        (
            '{"requests": ["0 0 0", "1 0 0 0 0 W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 Z9"], '
            '"responses": ["PASS"]}',
            "unknown tile code 'Z9'",
        ),
        ('{"requests": ["0 9 0"], "responses": []}', "no seat 9"),
        ('{"requests": [', "does not parse"),
        ("3\n0 0 0\nPASS\n", "line 4: the input ends"),
        ("hello\n", "line 1"),
        ('{"requests": ["0 0 0", "3 1 PLAY W1"], "responses": ["PASS"]}', "request 2"),
    ],
)
def test_a_malformed_request_is_a_clear_error(stdin, message):
    out = run("botzone", stdin=stdin, check=False)
    assert out.returncode == 2 and out.stdout == b""
    assert message in out.stderr.decode(), out.stderr.decode()


def test_megabytes_of_input_are_refused():
    out = run("botzone", stdin='{"requests": ["' + "x" * (2 << 20) + '"]}', check=False)
    assert out.returncode == 2 and out.stdout == b"" and "more than" in out.stderr.decode()


def _moves(events) -> list[dict]:
    out = []
    for e in events:
        if type(e).__name__ not in MOVES:
            continue
        d = msgspec.to_builtins(e)
        for k in ("tile", "card"):
            if isinstance(d.get(k), int):
                d[k] = code_of(d[k])
        for k in ("tiles", "hand"):
            if k in d:
                d[k] = sorted(code_of(t) for t in d[k])
        out.append(d)
    return out


async def test_export_and_import_a_botzone_match(real_redis_url, key_prefix, tmp_path):
    """An MCR deal exported as a Botzone match and imported again: a deal marked imported whose
    audit is green (no commitment to check) and whose moves are the original's; its JSON-lines
    export validates against docs/records.schema.json and travels byte for byte."""
    from service.app.games import kit
    from service.cli.botzone import imported_records
    from service.cli.stores import read_log
    from service.store.connection import connect

    events, _match_ = _match(3)
    original = imported_records(match_of_deal(events), "2026-12-04T00:00:00.000000Z", "original")
    path = tmp_path / "original.jsonl"
    path.write_bytes(b"\n".join(original) + b"\n")
    common = ["--redis", real_redis_url, "--prefix", key_prefix]
    client = connect(real_redis_url)
    try:
        exported = run("export", str(path), "--format", "botzone").stdout
        match_path = tmp_path / "match.json"
        match_path.write_bytes(exported)
        deal_id = run("import", "--format", "botzone", str(match_path), *common).stdout.decode().strip()
        audit = json.loads(run("audit", deal_id, *common, "--json").stdout)
        assert audit["ok"] and audit["chain_ok"] and audit["redecided_ok"] and audit["claim_windows_ok"]
        assert audit["commitment_ok"] is None and audit["shuffle_ok"] is None and audit["fixed_deck"]
        assert audit["imported"] == "botzone"
        text = run("audit", deal_id, *common).stdout.decode()
        assert "imported from Botzone (no seed commitment)" in text and "--dev" not in text, text
        jsonl = run("export", deal_id, *common).stdout
        _r, created, _k, again = read_log(jsonl.splitlines())
        assert created.imported == "botzone" and created.ruleset == "mcr/2"
        _r, _c, _k, first = read_log(original)
        assert _moves(again) == _moves(first)
        # an imported match replays in words and reviews like any deal of ours
        words = run("replay", deal_id, *common, "--perspective", "all", "--no-pause").stdout.decode()
        assert "The tiles are dealt" in words and ("wins" in words or "The wall is empty" in words)
        review = json.loads(run("review", deal_id, "--seat", "0", *common, "--json").stdout)
        assert review["deal_id"] == deal_id and review["ruleset"] == "mcr/2" and review["decisions"]
        verdicts = ("even", "agrees", "unclear", "inaccuracy", "mistake")
        assert all(d["verdict"] in verdicts for d in review["decisions"])
        # the JSON-lines record: every line validates against the schema
        schema = json.loads((ROOT / "docs" / "records.schema.json").read_text())
        validator = jsonschema_rs.validator_for(schema)
        for line in jsonl.splitlines():
            validator.validate(json.loads(line))
        # export -> import into another prefix -> export: the same bytes
        other = f"{key_prefix}-b"
        jpath = tmp_path / "deal.jsonl"
        jpath.write_bytes(jsonl)
        assert (
            run("import", str(jpath), "--redis", real_redis_url, "--prefix", other).stdout.decode().strip()
            == deal_id
        )
        assert (
            run("export", deal_id, "--redis", real_redis_url, "--prefix", other, "--format", "jsonl").stdout
            == jsonl
        )
        assert (
            json.loads(run("export", deal_id, *common, "--format", "botzone").stdout)["initdata"]
            == json.loads(exported)["initdata"]
        )
        assert kit("mcr").name == "mcr"
        await drop_prefix(client, other)
    finally:
        await drop_prefix(client, key_prefix)
        await client.aclose()


async def test_a_json_lines_import_whose_first_record_is_no_deal_created_is_refused(
    real_redis_url, key_prefix, tmp_path
):
    """A chained log that does not start with ``DealCreated`` (here the original without its first
    record, chained again from genesis): a clear refusal naming line 1, exit 1, nothing stored."""
    from domain.envelope import GENESIS, decode_record, encode_record, record_hash
    from service.cli.botzone import imported_records
    from service.store.connection import connect

    events, _m = _match(3)
    records = [decode_record(r) for r in imported_records(match_of_deal(events), "2026-12-04T00:00:00Z")]
    prev, raws = GENESIS, []
    for v, rec in enumerate(records[1:], start=1):
        raw = encode_record(msgspec.structs.replace(rec, version=v, prev=prev))
        raws.append(raw)
        prev = record_hash(raw)
    path = tmp_path / "headless.jsonl"
    path.write_bytes(b"\n".join(raws) + b"\n")
    client = connect(real_redis_url)
    try:
        out = run("import", str(path), "--redis", real_redis_url, "--prefix", key_prefix, check=False)
        err = out.stderr.decode()
        assert out.returncode == 1 and "line 1" in err and "DealCreated" in err, err
        assert "Traceback" not in err and out.stdout == b""
        assert [k async for k in client.scan_iter(match=f"{key_prefix}:*")] == []
    finally:
        await drop_prefix(client, key_prefix)
        await client.aclose()


async def test_a_paohuzi_log_travels_as_json_lines_and_validates(real_redis_url, key_prefix, tmp_path):
    from service.store.connection import connect
    from service.store.event_store import EventStore
    from tests.integration.archive_helpers import play_finished

    client = connect(real_redis_url)
    store = EventStore(client, key_prefix)
    try:
        (original,) = await play_finished(store, ["paohuzi"])
        jsonl = run("export", original.deal_id, "--redis", real_redis_url, "--prefix", key_prefix).stdout
        validator = jsonschema_rs.validator_for(
            json.loads((ROOT / "docs" / "records.schema.json").read_text())
        )
        for line in jsonl.splitlines():
            validator.validate(json.loads(line))
        path = tmp_path / "p.jsonl"
        path.write_bytes(jsonl)
        other = f"{key_prefix}-b"
        run("import", str(path), "--redis", real_redis_url, "--prefix", other)
        assert run("export", original.deal_id, "--redis", real_redis_url, "--prefix", other).stdout == jsonl
        refused = run(
            "export",
            original.deal_id,
            "--redis",
            real_redis_url,
            "--prefix",
            other,
            "--format",
            "botzone",
            check=False,
        )
        assert refused.returncode == 1 and "a deal of mcr" in refused.stderr.decode()
        await drop_prefix(client, other)
    finally:
        store.close()
        await drop_prefix(client, key_prefix)
        await client.aclose()


def _bad_matches(match: dict) -> list[tuple[str, bytes, str]]:
    cut = dict(match, log=match["log"][:41])
    tiles = match["initdata"]["walltiles"].split(" ")
    tiles[6] = "Q7"
    unknown = dict(match, initdata=dict(match["initdata"], walltiles=" ".join(tiles)))
    wrong = json.loads(json.dumps(match))
    k = next(
        k
        for k in range(5, len(wrong["log"]), 2)
        if any(v["response"].startswith("PLAY") for v in wrong["log"][k].values())
    )
    seat = next(s for s, v in wrong["log"][k].items() if v["response"].startswith("PLAY"))
    wrong["log"][k][seat]["response"] = "PLAY F9"
    huge = dict(
        match, log=[*match["log"][:3], {str(i): {"verdict": "OK", "response": "X" * 5000} for i in range(4)}]
    )
    return [
        ("truncated", json.dumps(cut).encode(), "log entry 41: the match is truncated"),
        ("unknown tile", json.dumps(unknown).encode(), "initdata walltiles, tile 7: unknown tile code 'Q7'"),
        ("punished", json.dumps(wrong).encode(), f"log entry {k}, seat {seat}"),
        ("not json", b'{"log": [1, 2', "line 1"),
        (
            "a writer of megabytes",
            json.dumps(huge).encode(),
            "log entry 3, seat 0: a response of 5000 characters",
        ),
    ]


async def test_bad_files_are_refused_naming_the_line_and_store_nothing(real_redis_url, key_prefix, tmp_path):
    import redis.asyncio as aioredis

    _events, match = _match(5)
    client = aioredis.from_url(real_redis_url)
    common = ["--redis", real_redis_url, "--prefix", key_prefix]
    try:
        for name, data, message in _bad_matches(match):
            path = tmp_path / "bad.json"
            path.write_bytes(data)
            out = run("import", "--format", "botzone", str(path), *common, check=False)
            assert out.returncode == 1, name
            assert message in out.stderr.decode(), (name, out.stderr.decode())
        # a truncated JSON-lines log (its last line cut in the middle)
        good = imported_lines(match)
        path = tmp_path / "cut.jsonl"
        path.write_bytes(b"\n".join(good[:-1]) + b"\n" + good[-1][:40] + b"\n")
        out = run("import", str(path), *common, check=False)
        assert out.returncode == 1 and f"version {len(good)}" in out.stderr.decode()
        assert [k async for k in client.scan_iter(match=f"{key_prefix}:*")] == []  # nothing stored
    finally:
        await drop_prefix(client, key_prefix)
        await client.aclose()


def imported_lines(match: dict) -> list[bytes]:
    from service.cli.botzone import imported_records

    return imported_records(match, "2026-12-04T00:00:00.000000Z")
