"""Versioned rulesets: a log is decided by the ruleset its DealCreated names.

``tests/fixtures/mcr1_last_discard_pung.jsonl`` is an ``mcr/1`` deal stored before ``mcr/2``
existed (see its generator), in which a seat pungs the discard made after the wall's last draw:
legal under ``mcr/1``, refused by MC-3.7 of ``mcr/2``. It must keep replaying and auditing green.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from domain.envelope import GENESIS, StoredEvent, decode_record, encode_record, record_hash
from domain.errors import RuleViolation
from domain.game import DealCreated, get_ruleset
from domain.mcr import GAME, RULESETS
from domain.mcr.messages import ClaimWindowOpened, SetClaimed, TileDiscarded
from service.app.games import kit_for_ruleset
from service.app.reads.audit import audit_log

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = ROOT / "tests" / "fixtures" / "mcr1_last_discard_pung.jsonl"


def _raws() -> list[bytes]:
    return [line for line in FIXTURE.read_bytes().splitlines() if line.strip()]


def test_new_deals_are_mcr2_and_both_rulesets_are_known():
    assert GAME.ruleset == "mcr/2" and set(RULESETS) == {"mcr/1", "mcr/2"}
    assert get_ruleset("mcr/1") is RULESETS["mcr/1"] and get_ruleset("paohuzi/1").name == "paohuzi"
    for unknown in ("mcr/3", "mcr", "chess/1"):
        with pytest.raises(RuleViolation) as err:
            get_ruleset(unknown)
        assert err.value.rule_id == "DS-1" and unknown in err.value.message


def test_the_mcr1_fixture_still_audits_green_under_mcr1():
    report = audit_log(_raws())
    assert report.ok, report.problems
    assert report.game == "mcr" and report.finished and report.redecided_ok and report.claim_windows_ok
    created = msgspec.json.decode(decode_record(_raws()[0]).data, type=DealCreated)
    assert created.ruleset == "mcr/1"


def test_the_fixture_depends_on_mcr1_a_pung_on_the_discard_after_the_last_draw():
    kit_ = kit_for_ruleset("mcr/1")
    records = [decode_record(r) for r in _raws()]
    events = [kit_.decode_event(r.data) for r in records]
    state = kit_.game.initial_state()
    punged_last = False
    for i, event in enumerate(events):
        if isinstance(event, TileDiscarded) and state.front == state.back:
            window = events[i + 1]
            assert isinstance(window, ClaimWindowOpened)
            later = [e for e in events[i + 1 :] if isinstance(e, SetClaimed)]
            punged_last = bool(later) and later[0].meld == "pung" and later[0].card == event.tile
            # decided again under mcr/2 (MC-3.7), the same discard opens no pung window
            command = msgspec.json.decode(records[i].command, type=kit_.game.command_type)
            again = kit_.game.decide(msgspec.structs.replace(state, ruleset="mcr/2"), command)
            assert not any(isinstance(e, ClaimWindowOpened) for e in again)
            break
        state = kit_.game.evolve(state, event)
    assert punged_last


def _log_with_ruleset(ruleset: str) -> list[bytes]:
    created = GAME.create(deal_id="x", seats=["human"] * 4, server_seed=b"\x01" * 32)[0]
    data = msgspec.json.encode(msgspec.structs.replace(created, ruleset=ruleset))
    record = StoredEvent(version=1, type="DealCreated", data=msgspec.Raw(data), prev=GENESIS,
                         recorded_at="2026-12-01T00:00:00.000000Z", command_id="create")  # fmt: skip
    raw = encode_record(record)
    assert record_hash(raw)
    return [raw]


def test_a_log_of_a_ruleset_this_build_lacks_is_refused_clearly(tmp_path):
    report = audit_log(_log_with_ruleset("mcr/9"))
    assert not report.ok and report.chain_ok
    assert any(p.check == "decode" and "no ruleset 'mcr/9'" in p.detail for p in report.problems)
    path = tmp_path / "future.jsonl"
    path.write_bytes(_log_with_ruleset("mcr/9")[0] + b"\n")
    for command in (["replay", str(path), "--no-pause"], ["audit", str(path)]):
        done = subprocess.run([sys.executable, "-m", "service.cli", *command], cwd=ROOT, capture_output=True,
                              text=True, timeout=60, check=False)  # fmt: skip
        assert done.returncode == 1, (command, done.stdout, done.stderr)
        assert "mcr/9" in done.stdout + done.stderr


def test_the_terminal_replay_and_audit_read_the_mcr1_fixture():
    for command in (["replay", str(FIXTURE), "--no-pause"], ["audit", str(FIXTURE)]):
        done = subprocess.run([sys.executable, "-m", "service.cli", *command], cwd=ROOT, capture_output=True,
                              text=True, timeout=60, check=False)  # fmt: skip
        assert done.returncode == 0, (command, done.stderr[-2000:])
    assert "AUDIT OK" in done.stdout
