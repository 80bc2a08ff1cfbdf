"""The audit of one deal's log: chain, replay, commitment, shuffle, re-decided commands, claim
windows, clocks.

Works on the stored bytes alone (from Redis or an exported file), so anyone holding the log can
run it. Every problem names the version where it was found. A log may be forged in any way that
keeps its chain: every check ends in a finding, never in an error of its own.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from domain.envelope import StoredEvent, chained_hash, decode_record, drop_secrets, verify_chain
from domain.errors import RuleViolation
from domain.game import DealCreated, SeedRevealed
from domain.shuffle import commitment
from domain.table.clock import ClockExpired, ClockTrack, DealAbandoned, idle_limit_ms, recorded_ms
from domain.table.seating import PERSON, SeatCommand, SeatFilled, start_limit_ms
from domain.table.seeds import deal_seed
from service.app.games import kit_for_ruleset
from service.app.state.folds import Folded, LogDoesNotReplay, fold_in, step_clock


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
    # TB-4.2: every ClockExpired and every person's answer checked against the deadline the
    # log gives; None: the deal has no clock
    clocks_ok: bool | None = None
    # where an imported deal came from ("botzone": a Botzone match): it committed to no
    # seed, so the commitment and shuffle are n/a; None for a deal dealt here
    imported: str | None = None
    # the records fold one by one as every read folds them (None: the log does not decode);
    # a log that does not replay fails here, at the version that does not apply
    replay_ok: bool | None = None
    # versions of a published log whose record stands in for a stored one with a secret (a
    # token digest) or, for a private match, the match's id left out: each is chained by the
    # stored record's hash it names (``redacted_from``), and decided again as it stands
    redacted: list[int] = []


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
    broken = verify_chain(raws, records=records, published=True)
    report.redacted = [r.version for r in records if r.redacted_from is not None]
    if broken is not None:
        problems.append(AuditProblem("chain", broken.version, broken.reason))
    elif head_hash is not None and chained_hash(records[-1], raws[-1]) != head_hash:
        problems.append(AuditProblem("chain", len(raws), "the last record differs from the one appended"))
    report.chain_ok = not problems
    records = [_stand_in(r) if r.redacted_from is not None else r for r in records]
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
    report.imported = created.imported
    report.replay_ok = _replay(kit_, raws, records, report)
    last = len(records)
    if revealed is not None and created.imported is None:  # an imported deal committed to no seed
        if not _checked(report, "commitment", last, lambda: _check_seed(created, revealed, last, report)):
            report.commitment_ok = report.shuffle_ok = False
    if not _checked(report, "redecide", 1, lambda: _redecide(kit_, records, events, report)):
        report.redecided_ok = False
    windows: list[dict[str, Any]] = []
    if report.replay_ok:  # the windows and the clocks are folds of the log: only of one that folds
        try:
            windows = kit_.projections.claim_audit(events)
        except Exception as exc:  # noqa: BLE001 - a forged log may break any projection
            problems.append(AuditProblem("claims", last, f"claim windows do not fold: {exc}"))
        if created.clock is not None and not _checked(
            report, "clock", 1, lambda: _check_clocks(kit_, records, events, report, windows)
        ):
            report.clocks_ok = False
    report.claim_windows = windows
    if not _checked(report, "clock", 1, lambda: _check_abandoned(created, records, events, report)):
        report.clocks_ok = False
    bad = [w for w in windows if not w.get("consistent", False)]
    for w in bad:
        problems.append(
            AuditProblem(
                "claims", int(w.get("opened_at_version", 0)), f"window {w.get('window')} not consistent"
            )
        )
    report.claim_windows_ok = not bad if report.replay_ok else None
    report.ok = not problems and report.finished
    return report


def _replay(kit_: Any, raws: list[bytes], records: list[StoredEvent], report: AuditReport) -> bool:
    """Fold the records as every read of the deal folds them (``folds.fold_in``): a log that
    does not is a finding at the version that does not apply, and the checks that fold it again
    (claim windows, clocks) are not made."""
    folded = Folded(kit_, kit_.game.initial_state())
    try:
        fold_in(folded, raws, records)
    except LogDoesNotReplay as exc:
        report.problems.append(AuditProblem("replay", exc.version, f"the log does not replay: {exc.detail}"))
        return False
    return True


def _checked(report: AuditReport, check: str, version: int, work: Any) -> bool:
    """Run one check; one that stops on an error of its own (a log forged in a way it did not
    foresee) is a failed check, never an error of the audit."""
    try:
        work()
    except Exception as exc:  # noqa: BLE001 - a forged log may break any check
        report.problems.append(
            AuditProblem(check, version, f"the check could not finish on this log ({type(exc).__name__})")
        )
        return False
    return True


def _check_clocks(
    kit_: Any, records: list[StoredEvent], events: list[Any], report: AuditReport, windows: list[dict]
) -> None:
    """TB-4.2 from the log alone: each ``ClockExpired`` names the deadline the records and the
    clock give and was recorded after it (its default move is checked by the re-decision of its
    ``Expire``), and no person's command was recorded after its seat's deadline. TB-4.1: each
    claim window gets its timing (when it opened, each answer's time after that, each asked
    seat's deadline)."""
    folded = Folded(kit_, kit_.game.initial_state())
    opened = {int(w.get("opened_at_version", 0)): w for w in windows}
    by_window = {w.get("window"): w for w in windows}
    bad = 0
    for record, event in zip(records, events, strict=True):
        at = recorded_ms(record.recorded_at)
        clock = folded.clock
        if clock is not None and record.command:  # a batch's first record: who acted, and when
            problem = _clock_problem(clock, event, record.command_id or "", at)
            if problem:
                bad += 1
                report.problems.append(AuditProblem("clock", record.version, problem))
        if clock is not None:
            problem = _seating_problem(folded, events[0], clock, event, at)
            if problem:
                bad += 1
                report.problems.append(AuditProblem("clock", record.version, problem))
        folded.state = kit_.game.evolve(folded.state, event)
        folded.version = record.version
        step_clock(folded, folded.state, event, at)
        window = opened.get(record.version)
        if window is not None and folded.clock is not None:
            waits = folded.clock.waits
            window["timing"] = {
                "opened_ms": at,
                "answers": [],
                "deadlines": [
                    {"seat": seat, "deadline_ms": d.final_ms}
                    for seat in sorted(waits)
                    if waits[seat].wait == "claim" and (d := folded.clock.deadline(seat)) is not None
                ],
            }
        if type(event).__name__ == "ClaimAnswered":
            answered = by_window.get(getattr(event, "window", None))
            timing = answered.get("timing") if answered is not None else None
            if timing is not None:
                timing["answers"].append({"seat": event.seat, "after_ms": at - timing["opened_ms"]})
    report.clocks_ok = bad == 0


def _seating_problem(folded: Folded, created: Any, clock: ClockTrack, event: Any, at: int) -> str:
    """Before the deal (table/2), from the log alone: a bot took a joined person's seat only
    once the clock's ``move_s`` had run since the last open seat was taken (TB-1.4), and a
    ``DealAbandoned`` ends a deal not dealt within its start limit from then (TB-2.7)."""
    seating = folded.state.seating
    if type(event) is SeatFilled and seating.kinds[event.seat] == PERSON:
        if clock.seated_ms is None:
            return f"a bot took seat {event.seat} from its person while a seat was open (TB-1.4)"
        due = clock.seated_ms + clock.settings.own_ms("move")
        if at < due:
            return f"a bot took seat {event.seat} {due - at} ms before its person's start clock ran (TB-1.4)"
        return ""
    if type(event) is not DealAbandoned:
        return ""
    limit = start_limit_ms(created)
    if limit is None:
        return "a deal with a clock is never abandoned: its clock acts for the seat (TB-2.7)"
    if folded.state.phase != "new":
        return "a deal with a clock is abandoned only before it is dealt (TB-2.7)"
    if clock.seated_ms is None or event.idle_since_ms != clock.seated_ms:
        return f"names the time {event.idle_since_ms}, but the last seat was taken at {clock.seated_ms}"
    if event.idle_ms != limit:
        return f"names a start limit of {event.idle_ms} ms, the deal's is {limit} ms (TB-2.7)"
    if at < clock.seated_ms + limit:
        return f"recorded {clock.seated_ms + limit - at} ms before the start limit passed (TB-2.7)"
    return ""


def _check_abandoned(
    created: DealCreated, records: list[StoredEvent], events: list[Any], report: AuditReport
) -> None:
    """TB-2.7 from the log alone: a ``DealAbandoned`` ends an untimed deal, names the time of the
    record before it and the deal's idle limit, and was recorded once that limit had passed."""
    bad = 0
    for i, event in enumerate(events):
        if type(event) is not DealAbandoned:
            continue
        version = records[i].version
        since = recorded_ms(records[i - 1].recorded_at) if i > 0 else None
        at = recorded_ms(records[i].recorded_at)
        limit = idle_limit_ms(created)
        problem = ""
        if created.clock is not None:
            continue  # the clock's check judges it (``_seating_problem``)
        if event.idle_since_ms != since:
            problem = f"names the time {event.idle_since_ms}, but the record before it was at {since}"
        elif event.idle_ms != limit:
            problem = f"names an idle limit of {event.idle_ms} ms, the deal's is {limit} ms (TB-2.7)"
        elif at < since + limit:
            problem = f"recorded {since + limit - at} ms before the idle limit passed (TB-2.7)"
        if problem:
            bad += 1
            report.problems.append(AuditProblem("clock", version, problem))
        report.clocks_ok = (report.clocks_ok is not False) and bad == 0


def _clock_problem(clock: ClockTrack, event: Any, command_id: str, at: int) -> str:
    if type(event) is ClockExpired:
        due = clock.deadline(event.seat)
        if due is None:
            return f"seat {event.seat}'s time ran out while the deal did not wait on it"
        if due.final_ms != event.deadline_ms:
            return f"the deadline of seat {event.seat} is {due.final_ms}, not {event.deadline_ms} (TB-2.3)"
        if at < event.deadline_ms:
            return f"recorded {event.deadline_ms - at} ms before the deadline it names (TB-4.2)"
        return ""
    if command_id.startswith("seat") and ":" in command_id:
        seat_text = command_id[4:].split(":", 1)[0]
        due = clock.deadline(int(seat_text)) if seat_text.isdigit() else None
        if due is not None and at > due.final_ms:
            return (
                f"seat {seat_text}'s command was recorded {at - due.final_ms} ms after its deadline (TB-2.4)"
            )
    return ""


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


STAND_IN = "published-seat-{seat}"  # a left-out token digest as the audit of a published log folds it
_DIGESTS = {"SeatJoined": "token_digest", "JoinSeat": "token_digest"}


def _stand_in(record: StoredEvent) -> StoredEvent:
    """A published record (``redacted_from``) as the audit folds and decides it: a token digest
    left out stands in as a placeholder of its seat where it held one (``left_out``; a seat
    someone joined is told from the creator's by having one), as "" where it was empty; a
    private match's place stays out (no rule reads it)."""
    named = set(record.left_out or ())

    def fill(raw: bytes, part: str) -> msgspec.Raw:
        shown = json.loads(raw)
        field = _DIGESTS.get(shown.get("type", "")) if isinstance(shown, dict) else None
        if field is not None and field not in shown:
            held = part in named
            shown[field] = STAND_IN.format(seat=shown.get("seat")) if held else ""
        return msgspec.Raw(msgspec.json.encode(shown))

    return msgspec.structs.replace(
        record,
        data=fill(bytes(record.data), "data"),
        command=fill(bytes(record.command), "command") if record.command else record.command,
    )


def _shown(raw: bytes) -> bytes:
    """An event's bytes without its secret fields (what a published record holds)."""
    return msgspec.json.encode(drop_secrets(json.loads(raw))[0])


def _redecide(kit_: Any, records: list[StoredEvent], events: list[Any], report: AuditReport) -> None:
    """Decide every stored command again on the state before it; the events must match byte for byte.

    The dealing events come from ``decide(StartDeal)``, which derives the deck from the seed, so
    this also proves the dealt cards are the deck the seed gives.
    """
    game = kit_.game
    command_type = game.command_type | SeatCommand  # the seat commands the service decides for people
    state = game.evolve(game.initial_state(), events[0])
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
        except Exception as exc:  # noqa: BLE001 - a forged state may break the rules' code
            detail = f"the command does not decide on the state before it ({type(exc).__name__})"
            report.problems.append(AuditProblem("redecide", record.version, detail))
            ok = False
            break
        stored = [bytes(r.data) for r in records[i:j]]
        produced = [msgspec.json.encode(e) for e in again]
        if any(r.redacted_from is not None for r in records[i:j]):  # a published copy: as shown
            stored = [_shown(raw) for raw in stored]
            produced = [_shown(raw) for raw in produced]
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
