"""The ``dealstream`` command line: simulate, export, audit, import, replay, on a real Redis."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from service.app.commands.deals import DealService
from service.store.event_store import EventStore
from tests.conftest import drop_prefix
from tests.e2e.conftest import wait_for

pytestmark = pytest.mark.redis
ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        cwd=str(ROOT),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    if check:
        assert proc.returncode == 0, proc.stderr + proc.stdout
    return proc


def test_simulate_prints_a_summary_for_each_game():
    for game, bots, seats in (
        ("paohuzi", "greedy,random,random", 3),
        ("mcr", "greedy,greedy,greedy,random", 4),
    ):
        out = json.loads(cli("simulate", "--game", game, "--deals", "12", "--bots", bots, "--json").stdout)
        assert out["deals"] == 12 and len(out["wins_per_seat"]) == seats
        assert sum(out["wins_per_seat"]) + out["draws"] == 12
        assert sum(out["net_payments_per_seat"]) == 0
    table = cli("simulate", "--game", "paohuzi", "--deals", "3").stdout
    assert "wins" in table and "deals/s" in table
    assert cli("simulate", "--game", "mcr", "--bots", "greedy", check=False).returncode == 2


async def test_export_audit_import_replay_round_trip(real_redis_url, key_prefix, tmp_path):
    from service.store.connection import connect

    client = connect(real_redis_url)
    store = EventStore(client, key_prefix)
    deals = DealService(store)
    try:
        created = await deals.create("mcr", ["bot:greedy"] * 4, "cli")
        deal_id = created.deal_id

        async def over():
            return (await deals.load(deal_id)).over

        await wait_for(over, timeout=60)
        common = ["--redis", real_redis_url, "--prefix", key_prefix]
        audit = cli("audit", deal_id, *common)
        assert "AUDIT OK" in audit.stdout
        exported = cli("export", deal_id, *common).stdout
        path = tmp_path / "deal.jsonl"
        path.write_text(exported)
        assert len(exported.splitlines()) == (await deals.load(deal_id)).version
        assert "AUDIT OK" in cli("audit", str(path)).stdout

        # an import into another prefix keeps every byte
        other = key_prefix + "-imp"
        assert (
            cli("import", str(path), "--redis", real_redis_url, "--prefix", other).stdout.strip() == deal_id
        )
        imported = ["--redis", real_redis_url, "--prefix", other]
        again = cli("export", deal_id, *imported).stdout
        assert again == exported
        # a finished log, imported, is as public as any finished deal
        assert await EventStore(client, other).indexes.list_deals(public=True) == [deal_id]
        refused = cli("import", str(path), "--redis", real_redis_url, "--prefix", other, check=False)
        assert refused.returncode == 1 and "exists" in refused.stderr
        await drop_prefix(client, other)

        # --json keeps the raw events for scripts; without it the replay is in words (issue 13)
        replay = cli("replay", str(path), "--no-pause", "--json").stdout.splitlines()
        assert replay[0].lstrip().startswith("1 ")
        seat_replay = cli("replay", str(path), "--perspective", "2", "--no-pause", "--json").stdout
        assert '"type": "TilesDealt"' in seat_replay
        words = cli("replay", str(path), "--no-pause").stdout
        assert "TilesDealt" not in words and words.startswith(f"deal {deal_id} (mcr/")

        # one changed byte in the file: the audit fails and names the version
        lines = exported.splitlines()
        lines[9] = lines[9].replace('"recorded_at":"', '"recorded_at":"x', 1)
        path.write_text("\n".join(lines) + "\n")
        failed = cli("audit", str(path), check=False)
        assert failed.returncode == 1
        assert "problem at version 11" in failed.stdout and "AUDIT FAILED" in failed.stdout
        refused = cli("import", str(path), "--redis", real_redis_url, "--prefix", other, check=False)
        assert refused.returncode == 1 and "version 11" in refused.stderr
    finally:
        await deals.close()
        await drop_prefix(client, key_prefix)
        await client.aclose()


async def test_log_commands_find_a_deal_that_moved_to_the_archive(real_redis_url, key_prefix, tmp_path):
    """export, audit, replay and review by id answer from the archive once the deal left Redis (as
    the serving process does), and import refuses a log the archive already holds."""
    from service.app.archive.archiver import Archiver
    from service.store.archive.sqlite import SqliteArchive
    from service.store.connection import connect
    from tests.integration.archive_helpers import in_redis, play_finished

    client = connect(real_redis_url)
    store = EventStore(client, key_prefix)
    from service.store.archive import archive_file

    archive_path = tmp_path / archive_file(key_prefix)  # the prefix's own archive in the data dir
    archive = SqliteArchive(archive_path)
    try:
        (original,) = await play_finished(store, ["paohuzi"])
        counts = await Archiver(store, archive, older_than=0).archive_once()
        assert counts.archived == 1 and not await in_redis(store, original.deal_id)
        await archive.close()
        common = ["--redis", real_redis_url, "--prefix", key_prefix, "--archive", f"sqlite:///{archive_path}"]
        exported = cli("export", original.deal_id, *common).stdout.encode()
        assert exported.splitlines() == original.records
        audit = json.loads(cli("audit", original.deal_id, *common, "--json").stdout)
        assert audit["ok"] and audit["finished"]
        assert "SeedRevealed" in cli("replay", original.deal_id, *common, "--json", "--no-pause").stdout
        review = json.loads(cli("review", original.deal_id, "--seat", "0", *common, "--json").stdout)
        assert review["seat"] == 0 and review["decisions"]
        # the data directory's default archive is found too, without --archive
        data_dir = tmp_path
        base = ["--redis", real_redis_url, "--prefix", key_prefix, "--data-dir", str(data_dir)]
        assert cli("export", original.deal_id, *base).stdout.encode().splitlines() == original.records
        # another prefix on the same data directory has an archive of its own: not this deal
        other = ["--redis", real_redis_url, "--prefix", key_prefix + "-other", "--data-dir", str(data_dir)]
        elsewhere = cli("export", original.deal_id, *other, check=False)
        assert elsewhere.returncode == 1 and "no deal" in elsewhere.stderr, elsewhere.stdout
        path = tmp_path / "deal.jsonl"
        path.write_bytes(exported)
        # the table names each option as a player reads it: cards by their names, not ids
        table = cli("review", str(path), "--seat", "0").stdout
        assert re.search(r"Discard [sb]([1-9]|10)\b", table) and '"card"' not in table, table
        refused = cli("import", str(path), *common, check=False)
        assert refused.returncode == 1 and "exists already" in refused.stderr
        assert not await in_redis(store, original.deal_id)  # nothing was written back
        # without the archive, the id is unknown here
        missing = cli("export", original.deal_id, "--redis", real_redis_url, "--prefix", key_prefix,
                      "--data-dir", str(tmp_path / "empty"), check=False)  # fmt: skip
        assert missing.returncode == 1 and "no deal" in missing.stderr
        assert not (tmp_path / "empty").exists()  # looking made no archive file
    finally:
        store.close()
        await archive.close()
        await drop_prefix(client, key_prefix)
        await client.aclose()


def test_review_table_names_options_as_a_player_reads_them():
    from service.cli.review import describe

    assert describe({"type": "Claim", "seat": 1, "window": 3, "claim": "chow", "tiles": [4, 8]}, "mcr/2") == (
        "Claim chow W2 W3"
    )
    assert describe({"type": "Discard", "seat": 0, "tile": 137}, "mcr/1") == "Discard H2"
    assert describe({"type": "Discard", "seat": 0, "card": 79}, "paohuzi/1") == "Discard b10"
    chi = {"type": "Chi", "seat": 2, "window": 5, "groups": [["s1", "s2", "s3"], ["s3", "s3", "b3"]]}
    assert describe(chi, "paohuzi/1") == "Chi s1 s2 s3 + s3 s3 b3"
    assert describe({"type": "Pass", "seat": 2, "window": 5}, "paohuzi/1") == "Pass"


def test_a_file_that_is_no_deal_log_or_a_seat_it_lacks_gets_a_clear_error(tmp_path):
    """replay and review of a broken file, or of a seat the deal lacks: one line that says what is
    wrong, a non-zero exit, never a traceback."""
    from domain.envelope import encode_record
    from domain.selfplay import play_stored
    from service.app.games import kit
    from tests.forged_logs import unreplayable

    k = kit("paohuzi")
    bots = [k.make_bot(level, i) for i, level in enumerate(["random", "greedy", "greedy"])]
    records, _events = play_stored(k.game, k.projections.view_from_state, bots, deal_id="c", server_seed=b"c")
    good = [encode_record(r) for r in records]
    unknown = good[2].replace(b'"data":{"type":"', b'"data":{"type":"X', 1)  # no such event
    files = {
        "garbage": b"garbage\n",
        "not a record": b'{"a": 1}\n',
        "a broken record": b"\n".join(good[:3] + [good[3][:-7]] + good[4:]) + b"\n",
        "an unknown event": b"\n".join(good[:2] + [unknown] + good[3:]),
        "events that do not replay": b"\n".join(unreplayable("r")[0]) + b"\n",  # the chain verifies
    }
    for name, body in files.items():
        path = tmp_path / f"{name.replace(' ', '-')}.jsonl"
        path.write_bytes(body)
        for command in (["review", str(path), "--seat", "0"], ["replay", str(path), "--no-pause"]):
            proc = cli(*command, check=False)
            assert proc.returncode == 1, (name, command, proc.stderr)
            assert "Traceback" not in proc.stderr and "not a deal log" in proc.stderr, (name, proc.stderr)
    path = tmp_path / "deal.jsonl"
    path.write_bytes(b"\n".join(good) + b"\n")
    for seat in ("3", "-1"):
        proc = cli("review", str(path), "--seat", seat, check=False)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        assert "--seat is a seat 0..2" in proc.stderr, proc.stderr


def test_counts_and_seeds_out_of_range_are_refused_before_any_work(tmp_path):
    """A count below one or a review seed the API would refuse: exit 2 and the argument named."""
    for args, named in (
        (["simulate", "--game", "paohuzi", "--deals", "-1"], "--deals: must be at least 1"),
        (["simulate", "--game", "mcr", "--deals", "0"], "--deals: must be at least 1"),
        (["arena", "--game", "mcr", "--bots", "strong,greedy", "--jobs", "0"], "--jobs: must be at least 1"),
        (["review", "x.jsonl", "--seat", "0", "--seed", "-5"], "--seed: must be a whole number from 0 to"),
        (["review", "x.jsonl", "--seat", "0", "--jobs", "-3"], "--jobs: must be at least 1"),
    ):
        proc = cli(*args, check=False)
        assert proc.returncode == 2 and named in proc.stderr, (args, proc.stderr)
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    proc = cli("audit", str(empty), check=False)
    assert proc.returncode == 1 and "no deal" in proc.stderr, proc.stderr


async def test_import_refuses_a_log_that_does_not_replay_and_audit_reports_it(
    real_redis_url, key_prefix, tmp_path
):
    """A file whose chain verifies but whose events stop folding: import names the version and
    stores nothing; the audit of the file is a failed check at that version, never a traceback
    (with a clock too, whose check folds every record)."""
    from service.store.connection import connect
    from tests.forged_logs import unreplayable

    client = connect(real_redis_url)
    try:
        for clock in (False, True):
            raws, bad = unreplayable(f"forged{int(clock)}", clock=clock)
            path = tmp_path / f"forged{int(clock)}.jsonl"
            path.write_bytes(b"\n".join(raws) + b"\n")
            refused = cli("import", str(path), "--redis", real_redis_url, "--prefix", key_prefix, check=False)
            assert refused.returncode == 1, refused.stdout
            assert "Traceback" not in refused.stderr, refused.stderr
            assert f"version {bad}" in refused.stderr and "does not replay" in refused.stderr, refused.stderr
            assert await EventStore(client, key_prefix).version(f"forged{int(clock)}") == 0

            audit = cli("audit", str(path), check=False)
            assert audit.returncode == 1 and "Traceback" not in audit.stderr, audit.stderr
            assert f"problem at version {bad}: [replay]" in audit.stdout, audit.stdout
            assert "AUDIT FAILED" in audit.stdout
            report = json.loads(cli("audit", str(path), "--json", check=False).stdout)
            assert report["ok"] is False and report["replay_ok"] is False
            assert {"check": "replay", "version": bad} in [
                {"check": p["check"], "version": p["version"]} for p in report["problems"]
            ]
    finally:
        await drop_prefix(client, key_prefix)
        await client.aclose()


async def test_a_public_export_leaves_the_token_digests_out_and_still_audits(
    real_redis_url, key_prefix, tmp_path
):
    """``export`` gives the stored bytes; ``export --public`` the copy anyone may be given: no
    token digest (a joined seat's is in its SeatJoined), the chain still verifies and every command
    decides again. A store never takes such a copy back."""
    from service.store.connection import connect

    client = connect(real_redis_url)
    store = EventStore(client, key_prefix)
    deals = DealService(store)
    try:
        created = await deals.create("paohuzi", ["human", "open", "bot:greedy"], "cli", name="Ana")
        deal_id = created.deal_id
        joined = await deals.join(deal_id, invite=created.invites["1"], seat=None, name="Bo")
        common = ["--redis", real_redis_url, "--prefix", key_prefix]
        stored = cli("export", deal_id, *common).stdout
        assert '"token_digest"' in stored  # kept in the store: every process authenticates from it
        public = cli("export", deal_id, "--public", *common).stdout
        assert "digest" not in public and joined["token"] not in public
        path = tmp_path / "public.jsonl"
        path.write_text(public)
        report = json.loads(cli("audit", str(path), "--json", check=False).stdout)
        assert report["chain_ok"] and report["redecided_ok"], report["problems"]
        assert report["redacted"], report  # the SeatJoined's version
        refused = cli(
            "import", str(path), "--redis", real_redis_url, "--prefix", key_prefix + "-imp", check=False
        )
        assert refused.returncode == 1
    finally:
        await deals.close()
        await drop_prefix(client, key_prefix)
        await client.aclose()
