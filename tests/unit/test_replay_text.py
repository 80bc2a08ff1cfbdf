"""`dealstream replay` in words (issue 13, item 10): every step a sentence with card and tile
names, the table as the perspective sees it, the open claim window, the result sheet at the end;
`--json` keeps the raw events for scripts."""

from __future__ import annotations

import json
import re

import msgspec
import pytest

from domain.envelope import GENESIS, StoredEvent, encode_record
from service import cli, replay_text
from service.app.games import kit


def deal(game: str, levels: list[str], seed: int) -> list:
    _state, events = cli.play_one(game, levels, bytes([seed]) * 32, client_seed="words")
    return events


def export(events: list, path) -> None:
    """A .jsonl export of a deal (the chain is not checked by replay)."""
    lines = []
    for version, event in enumerate(events, start=1):
        data = msgspec.json.encode(event)
        record = StoredEvent(
            version, type(event).__name__, msgspec.Raw(data), GENESIS, "2026-01-01T00:00:00Z"
        )
        lines.append(encode_record(record))
    path.write_bytes(b"\n".join(lines) + b"\n")


def _claimed_window(events: list) -> int | None:
    return next(
        (e.window for e in events if type(e).__name__ == "ClaimWindowResolved" and e.seat is not None), None
    )


@pytest.mark.parametrize(("game", "levels"), [("paohuzi", ["greedy"] * 3), ("mcr", ["greedy"] * 4)])
def test_every_step_in_words_then_the_table_and_the_result(game: str, levels: list[str]) -> None:
    events = next(ev for s in range(20) if _claimed_window(ev := deal(game, levels, s)) is not None)
    out = list(replay_text.steps(kit(game), events, None))
    step_lines = [lines[0] for _v, lines in out[:-1]]
    assert [int(line.split()[0]) for line in step_lines] == list(range(1, len(events) + 1))
    text = "\n".join(line for _v, lines in out for line in lines)
    assert '{"type"' not in text  # words, not JSON
    if game == "paohuzi":
        assert re.search(r"reveals [sb]\d+;", text) and re.search(r"discards [sb]\d+\.", text)
    else:
        assert re.search(r"discards [WTBFJ]\d\.", text) and re.search(r"draws [WTBFJH]\d", text)
    # the table after a step: every seat's hand (perspective all), rows or discards, counts
    after_deal = next(lines for _v, lines in out if len(lines) > 3 and "hand" in lines[2])
    assert len([line for line in after_deal if " hand " in line]) == len(levels)
    assert all("hidden" not in line for line in after_deal[2:])
    # a claim window: each eligible seat's options and its answer; the resolution names the claim
    window = _claimed_window(events)
    number = window + 1 if game == "mcr" else window
    assert f"window {number} open on" in text and "options " in text and "; answer: " in text
    resolved = next(line for line in step_lines if f"Window {number}: " in line)
    assert re.search(r"takes \S+ for a (chi|peng|pao|pung|chow|kong)|wins on", resolved), resolved
    # the result sheet last, winner first among the payments
    sheet = out[-1][1]
    assert sheet[0] == "Result"
    at = next(i for i, line in enumerate(sheet) if "payments" in line)
    amounts = [int(line.split()[-1]) for line in sheet[at + 1 : at + 1 + len(levels)]]
    assert amounts[0] == max(amounts) and sum(amounts) == 0, sheet
    assert any("all hands" in line for line in sheet)


def test_a_seat_sees_only_its_own_hand_and_its_own_options() -> None:
    events = next(
        ev for s in range(20) if _claimed_window(ev := deal("paohuzi", ["greedy"] * 3, s)) is not None
    )
    lines = [line for _v, ls in replay_text.steps(kit("paohuzi"), events, 1) for line in ls]
    seat_lines = [line for line in lines if line.strip().startswith(("Computer 1 (", "Computer 3 ("))]
    assert seat_lines and all("hidden" in line for line in seat_lines)
    assert not [
        line for line in lines if line.strip().startswith(("Computer 1: options", "Computer 3: options"))
    ]
    # what seat 1 did not see is named after the end, never shown
    assert any("(hidden from this seat)" in line for line in lines)


def test_cli_words_by_default_and_raw_json_with_flag(tmp_path, capsys) -> None:
    events = deal("mcr", ["greedy"] * 4, 3)
    path = tmp_path / "deal.jsonl"
    export(events, path)
    assert cli.main(["replay", str(path), "--no-pause"]) == 0
    words = capsys.readouterr().out
    assert words.startswith(f"deal {events[0].deal_id} ({events[0].ruleset}), {len(events)} events")
    assert "   1  The deal is created" in words and "Result" in words
    assert cli.main(["replay", str(path), "--no-pause"]) == 0
    assert capsys.readouterr().out == words  # the same log, the same text
    assert cli.main(["replay", str(path), "--no-pause", "--json"]) == 0
    raw = capsys.readouterr().out
    event_lines = [line for line in raw.splitlines() if re.match(r"^\s*\d+  \{", line)]
    assert len(event_lines) == len(events)
    first = json.loads(event_lines[0].strip().split("  ", 1)[1])
    assert first["type"] == "DealCreated" and first["server_seed"] == "(revealed at the end)"
    assert cli.main(["replay", str(path), "--no-pause", "--perspective", "9"]) == 2
