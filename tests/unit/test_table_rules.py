"""The pure table rules (docs/rules/table.md): clock settings (TB-2.1), deadlines and the bank
(TB-2.2, TB-2.3), several people's seeds (TB-3.1) and seat names (TB-1.3)."""

from __future__ import annotations

import hashlib

import pytest

from domain.errors import RuleViolation
from domain.shuffle import combine_seeds
from domain.table.clock import (
    DEFAULT_CLOCK,
    ClockSettings,
    bank_after,
    deadline,
    parse_clock,
    recorded_ms,
)
from domain.table.names import seat_name
from domain.table.seeds import combine_people_seeds


def _refused(rule: str, call, *args) -> str:
    with pytest.raises(RuleViolation) as caught:
        call(*args)
    assert caught.value.rule_id == rule
    return caught.value.message


def test_a_clock_is_all_three_fields_or_the_default():
    assert parse_clock(None) == parse_clock({}) == DEFAULT_CLOCK == ClockSettings(20, 10, 60)
    assert parse_clock({"move_s": 2, "claim_s": 600, "bank_s": 0}) == ClockSettings(2, 600, 0)
    assert parse_clock({"move_s": 2.5, "claim_s": 3, "bank_s": 600}).own_ms("move") == 2500
    assert "missing bank_s" in _refused("TB-2.1", parse_clock, {"move_s": 5, "claim_s": 5})
    assert "bank" in _refused("TB-2.1", parse_clock, {"move_s": 5, "claim_s": 5, "bank_s": 5, "bank": 1})
    assert "object" in _refused("TB-2.1", parse_clock, [20, 10, 60])


@pytest.mark.parametrize(
    "field,value",
    [
        ("move_s", 1.9), ("move_s", 601), ("claim_s", 0), ("bank_s", -1), ("bank_s", 600.5),
        ("move_s", True), ("claim_s", "10"), ("bank_s", None), ("move_s", float("nan")),
        ("claim_s", float("inf")),
    ],
)  # fmt: skip
def test_a_clock_field_out_of_range_or_of_the_wrong_type_is_refused(field, value):
    body = {"move_s": 20, "claim_s": 10, "bank_s": 60, field: value}
    assert field in _refused("TB-2.1", parse_clock, body)


def test_the_deadline_runs_from_the_asking_event_and_adds_the_bank_left():
    clock = ClockSettings(move_s=20, claim_s=10, bank_s=60)
    asked = 1_000_000
    assert deadline(clock, "move", asked, 60_000) == deadline(clock, "move", asked, clock.bank_ms)
    assert deadline(clock, "move", asked, 60_000).own_ms == asked + 20_000
    assert deadline(clock, "move", asked, 60_000).final_ms == asked + 80_000
    assert deadline(clock, "claim", asked, 5_000).final_ms == asked + 15_000
    assert deadline(clock, "claim", asked, 0).final_ms == asked + 10_000


def test_the_bank_pays_only_for_time_beyond_the_waits_own_time():
    clock = ClockSettings(move_s=20, claim_s=10, bank_s=60)
    asked = 5_000
    assert bank_after(clock, "move", asked, asked + 19_999, 60_000) == 60_000  # within own time
    assert bank_after(clock, "move", asked, asked + 20_000, 60_000) == 60_000
    assert bank_after(clock, "move", asked, asked + 27_500, 60_000) == 52_500  # 7.5 s over
    assert bank_after(clock, "claim", asked, asked + 12_000, 1_000) == 0  # past the final deadline
    assert bank_after(clock, "claim", asked, asked + 10_400, 1_000) == 600


@pytest.mark.parametrize(
    "text,ms",
    [
        ("1970-01-01T00:00:00.000000Z", 0),
        ("1970-01-01T00:00:01.999999Z", 1999),  # truncated, never rounded up
        ("2026-12-02T08:00:30.123456Z", 1796198430123),
        ("2026-12-02T08:00:30Z", 1796198430000),
    ],
)
def test_a_records_time_is_read_to_the_millisecond_exactly(text, ms):
    assert recorded_ms(text) == ms


def test_one_client_seed_derives_as_before_and_several_as_tb_3_1():
    server = bytes(range(32))
    assert combine_people_seeds(server, ["abc"]) == combine_seeds(server, "abc")
    two = hashlib.sha256(
        server + hashlib.sha256(b"ana").digest() + hashlib.sha256("bé".encode()).digest()
    ).digest()
    assert combine_people_seeds(server, ["ana", "bé"]) == two
    assert combine_people_seeds(server, ["bé", "ana"]) != two  # seat order counts
    # a seed cannot run into the next one: ("ab", "c") and ("a", "bc") differ
    assert combine_people_seeds(server, ["ab", "c"]) != combine_people_seeds(server, ["a", "bc"])
    with pytest.raises(ValueError):
        combine_people_seeds(server, [])


@pytest.mark.parametrize("name", ["Ana", "x" * 24, "Tom & Jerry", 'O\'Brien "Bo"', "王小明", "Ana 🀄", "a b"])
def test_a_printable_name_is_kept_as_typed(name):
    assert seat_name(name) == name


def test_a_name_is_normalized_to_nfc():
    assert seat_name("e\u0301") == "\u00e9"


@pytest.mark.parametrize(
    "name,why",
    [
        ("", "visible"), ("   ", "visible"), ("x" * 25, "at most 24"), ("a\x00b", "U+0000"),
        ("evil\u202eman", "U+202E"), ("zero\u200bwidth", "U+200B"), ("two\nlines", "U+000A"),
        ("tab\there", "U+0009"), (" Ana", "space"), ("Ana ", "space"), ("a\u2028b", "U+2028"),
        ("no\u00a0break", "U+00A0"), (42, "text"), ("<b>Ana</b>", "< or >"), ("a>b", "< or >"),
    ],
)  # fmt: skip
def test_a_name_that_is_not_short_printable_text_is_refused(name, why):
    assert why in _refused("TB-1.3", seat_name, name)


@pytest.mark.parametrize(
    "name",
    [
        "\u3164", "\u2800", "\u115f", "\u1160", "\uffa0", "\u3164\u3164\u3164", "Ana\u3164", "A\u2800B",
        "\u0301", "\u034f", "\ufe0f", "\u0301\u0301 \u0301",
    ],
)  # fmt: skip
def test_a_name_that_shows_nothing_is_refused(name):
    message = _refused("TB-1.3", seat_name, name)
    assert "visible" in message or "blank" in message, message


@pytest.mark.parametrize(
    "name",
    [
        "Computer 1", "computer 2", "COMPUTER 12", "Ｃｏｍｐｕｔｅｒ １", "Computer1", "You", "you", "YOU",
        "Ｙｏｕ",
        "Player 3", "Open seat 2", "Computer: strong", "Computador 1", "Você", "Jij", "Speler 2", "أنت",
        "الحاسوب 1", "Sinä", "Tietokone 4", "Pelaaja 1", "Vrije plaats 1", "Lugar livre 2",
    ],
)  # fmt: skip
def test_a_name_that_reads_as_the_clients_own_label_for_a_seat_is_refused(name):
    assert "label" in _refused("TB-1.3", seat_name, name)


@pytest.mark.parametrize("name", ["Youssef", "Yours truly", "Computer Bob", "Player One", "Joy", "Sina"])
def test_a_name_near_a_label_is_kept(name):
    assert seat_name(name) == name


def test_every_label_the_web_client_gives_a_seat_is_reserved():
    """The web client's labels for a seat, in every language it speaks, are the reserved ones."""
    import re
    from pathlib import Path

    from domain.table.names import RESERVED_LABELS

    web = Path(__file__).resolve().parents[2] / "service" / "http" / "web"
    keys = ("you", "you.obj", "name.computer", "name.player", "name.open", "bot.level")
    found = set()
    for path in web.glob("i18n*.js"):
        text = path.read_text()
        for key in keys:
            found.update(re.findall(rf'"{re.escape(key)}": "([^"]*)"', text))
    assert len(found) >= 20, found
    assert found <= set(RESERVED_LABELS), found - set(RESERVED_LABELS)


def test_a_huge_name_is_refused_without_echoing_it():
    message = _refused("TB-1.3", seat_name, "<b>" * 3500)
    assert len(message) < 100 and "<b>" not in message
