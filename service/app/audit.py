"""The audit of one deal's log: chain, commitment, shuffle, re-decided commands, claim windows.

Works on the stored bytes alone (from Redis or an exported file), so anyone holding the log can
run it. Every problem names the version where it was found.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.envelope import StoredEvent, decode_record, record_hash, verify_chain
from domain.errors import RuleViolation
from domain.game import DealCreated, SeedRevealed
from domain.shuffle import commitment
from domain.table.seating import SeatCommand
from domain.table.seeds import deal_seed
from service.app.games import kit_for_ruleset


class AuditProblem(msgspec.Struct, frozen=True):
    check: str
    version: int
    detail: str


class AuditReport(msgspec.Struct):
    ok: bool
    deal_id: str | None
    game: str | None
    versions: int
    finished: bool
    chain_ok: bool
    commitment_ok: bool | None
    shuffle_ok: bool | None
    fixed_deck: bool
    redecided_ok: bool | None
    claim_windows_ok: bool | None
    claim_windows: list[dict[str, Any]]
    problems: list[AuditProblem]


def audit_log(raws: list[bytes], head_hash: str | None = None) -> AuditReport:
    """Audit stored records. ``head_hash``, when known (the store keeps it), anchors the last one."""
    problems: list[AuditProblem] = []
    report = AuditReport(
        ok=False,
        deal_id=None,
        game=None,
        versions=len(raws),
        finished=False,
        chain_ok=False,
        commitment_ok=None,
        shuffle_ok=None,
        fixed_deck=False,
        redecided_ok=None,
        claim_windows_ok=None,
        claim_windows=[],
        problems=problems,
    )
    if not raws:
        problems.append(AuditProblem("chain", 1, "the log is empty"))
        return report
    records: list[StoredEvent] = []  # each record decoded once, for the chain and everything after
    for version, raw in enumerate(raws, start=1):
        try:
            records.append(decode_record(raw))
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            problems.append(AuditProblem("chain", version, f"record does not decode: {exc}"))
            problems.append(AuditProblem("decode", version, f"the log does not decode: {exc}"))
            return report
    broken = verify_chain(raws, records=records)
    if broken is not None:
        problems.append(AuditProblem("chain", broken.version, broken.reason))
    elif head_hash is not None and record_hash(raws[-1]) != head_hash:
        problems.append(AuditProblem("chain", len(raws), "the last record differs from the one appended"))
    report.chain_ok = not problems
    kit_ = None
    try:
        created = msgspec.json.decode(records[0].data, type=DealCreated)
        kit_ = kit_for_ruleset(created.ruleset)  # decided by the rules the log was played under
        events = [created, *(kit_.decode_event(r.data) for r in records[1:])]
    except (msgspec.DecodeError, msgspec.ValidationError, RuleViolation, KeyError) as exc:
        problems.append(AuditProblem("decode", _first_bad(records, kit_), f"the log does not decode: {exc}"))
        return report
    report.deal_id = created.deal_id
    report.game = kit_.name
    # a rematch names its dealer by rule (the seat after the last deal's), not as a fixture
    report.fixed_deck = created.fixed_deck is not None or (
        created.fixed_dealer is not None and created.rematch_of is None
    )
    revealed = events[-1] if isinstance(events[-1], SeedRevealed) else None
    report.finished = revealed is not None
    if revealed is not None:
        _check_seed(created, revealed, len(records), report)
    _redecide(kit_, records, events, report)
    try:
        windows = kit_.projections.claim_audit(events)
    except Exception as exc:  # noqa: BLE001 - a forged log may break any projection
        problems.append(AuditProblem("claims", len(records), f"claim windows do not fold: {exc}"))
        windows = []
    report.claim_windows = windows
    bad = [w for w in windows if not w.get("consistent", False)]
    for w in bad:
        problems.append(
            AuditProblem(
                "claims", int(w.get("opened_at_version", 0)), f"window {w.get('window')} not consistent"
            )
        )
    report.claim_windows_ok = not bad
    report.ok = not problems and report.finished
    return report


def _first_bad(records: list[StoredEvent], kit_: Any) -> int:
    """The first version whose event does not decode (1: the DealCreated or its ruleset)."""
    if kit_ is None:
        return 1
    for record in records[1:]:
        try:
            kit_.decode_event(record.data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return record.version
    return len(records)


def _check_seed(created: DealCreated, revealed: SeedRevealed, version: int, report: AuditReport) -> None:
    try:
        server_seed = bytes.fromhex(revealed.server_seed)
    except ValueError:
        report.problems.append(AuditProblem("commitment", version, "the revealed seed is not hex"))
        report.commitment_ok = False
        return
    report.commitment_ok = commitment(server_seed) == created.commitment
    if not report.commitment_ok:
        report.problems.append(AuditProblem("commitment", version, "sha256(revealed seed) != commitment"))
    seed = deal_seed(revealed.server_seed, revealed.client_seed, revealed.client_seeds)
    report.shuffle_ok = seed.hex() == revealed.seed and created.server_seed == revealed.server_seed
    if not report.shuffle_ok:
        report.problems.append(
            AuditProblem("shuffle", version, "the revealed seeds do not combine to the seed")
        )


def _redecide(kit_: Any, records: list[StoredEvent], events: list[Any], report: AuditReport) -> None:
    """Decide every stored command again on the state before it; the events must match byte for byte.

    The dealing events come from ``decide(StartDeal)``, which derives the deck from the seed, so
    this also proves the dealt cards are the deck the seed gives.
    """
    game = kit_.game
    command_type = game.command_type | SeatCommand  # the seat commands the service decides for people
    state = game.initial_state()
    state = game.evolve(state, events[0])
    i = 1
    ok = True
    while i < len(records):
        record = records[i]
        if not record.command:
            report.problems.append(AuditProblem("redecide", record.version, "an event without its command"))
            ok = False
            break
        j = i + 1
        while j < len(records) and not records[j].command:
            j += 1
        try:
            command = msgspec.json.decode(record.command, type=command_type)
            again = game.decide(state, command)
        except (msgspec.DecodeError, msgspec.ValidationError, RuleViolation) as exc:
            report.problems.append(
                AuditProblem("redecide", record.version, f"the command is refused now: {exc}")
            )
            ok = False
            break
        stored = [bytes(r.data) for r in records[i:j]]
        produced = [msgspec.json.encode(e) for e in again]
        if stored != produced:
            at = next(
                (
                    records[i + k].version
                    for k, (a, b) in enumerate(zip(stored, produced, strict=False))
                    if a != b
                ),
                records[i].version + min(len(stored), len(produced)),
            )
            report.problems.append(AuditProblem("redecide", at, "the command decides to other events"))
            ok = False
            break
        for event in events[i:j]:
            state = game.evolve(state, event)
        i = j
    report.redecided_ok = ok
