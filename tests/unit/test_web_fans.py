"""service/http/web/games/mcr/fans.js names every fan the calculator (PyMahjongGB) can emit, in all five
languages.

The complete list comes from the calculator itself: its compiled module holds two pointer tables
(Chinese and English names, in fan order: the 80 MCR fans, flower tiles and 明暗杠). They are
read here from the ELF relocations of the shared object, so a new PyMahjongGB with a new fan fails
this test until the fan is translated. Actual calculator results are checked against the table too.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from pathlib import Path

import MahjongGB
import pytest

FANS_JS = Path(__file__).resolve().parents[2] / "service" / "http" / "web" / "games" / "mcr" / "fans.js"
LANGS = ("en", "pt", "nl", "ar", "fi")


def _elf_pointer_tables(path: str, firsts: tuple[str, ...]) -> list[list[str]]:
    """The C string tables starting with each of ``firsts`` (x86-64 ELF, R_X86_64_RELATIVE)."""
    data = Path(path).read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or struct.unpack_from("<H", data, 0x12)[0] != 62:
        pytest.fail("reading the fan tables needs an x86-64 ELF build of MahjongGB; port _elf_pointer_tables")
    ph_off, sh_off = struct.unpack_from("<QQ", data, 0x20)
    ph_size, ph_num, sh_size, sh_num = struct.unpack_from("<HHHH", data, 0x36)
    loads = []
    for k in range(ph_num):
        p_type, _flags, p_off, p_va, _pa, p_filesz = struct.unpack_from("<IIQQQQ", data, ph_off + k * ph_size)
        if p_type == 1:  # PT_LOAD
            loads.append((p_off, p_va, p_filesz))

    def file_off(va: int) -> int:
        return next(va - v + o for o, v, n in loads if v <= va < v + n)

    def vaddr(off: int) -> int:
        return next(off - o + v for o, v, n in loads if o <= off < o + n)

    relative: dict[int, int] = {}
    for k in range(sh_num):
        sh = struct.unpack_from("<IIQQQQIIQQ", data, sh_off + k * sh_size)
        if sh[1] == 4:  # SHT_RELA
            for r in range(sh[5] // 24):
                r_off, r_info, r_add = struct.unpack_from("<QQq", data, sh[4] + 24 * r)
                if r_info & 0xFFFFFFFF == 8:  # R_X86_64_RELATIVE
                    relative[r_off] = r_add

    def cstr(va: int) -> str:
        off = file_off(va)
        return data[off : data.index(b"\0", off)].decode()

    tables = []
    for first in firsts:
        target = vaddr(data.index(first.encode() + b"\0"))
        slots = [slot for slot, value in relative.items() if value == target]
        assert len(slots) == 1, (first, slots)
        slot, names = slots[0], []
        while slot in relative:
            names.append(cstr(relative[slot]))
            slot += 8
        tables.append(names)
    return tables


def calculator_fans() -> list[tuple[str, str]]:
    """(english, chinese) of every fan the calculator can report, in its own order."""
    en, zh = _elf_pointer_tables(MahjongGB.__file__, ("Big Four Winds", "大四喜"))
    assert len(en) == len(zh)
    return list(zip(en, zh, strict=True))


def load_fans() -> dict[str, dict[str, str]]:
    """FANS from fans.js: evaluated by node when it is installed, else read with a regex."""
    source = FANS_JS.read_text(encoding="utf-8")
    node = shutil.which("node")
    if node:
        script = (
            "const src = require('fs').readFileSync(process.argv[1], 'utf8');"
            "import('data:text/javascript;base64,' + Buffer.from(src).toString('base64'))"
            ".then((m) => process.stdout.write(JSON.stringify({fans: m.FANS,"
            " probe: [m.fanName({name_en: 'Seven Pairs', name_zh: '七对'}, 'fi'),"
            " m.fanName({name_en: 'No Such Fan', name_zh: '无'}, 'pt')]})));"
        )
        out = subprocess.run(
            [node, "-e", script, str(FANS_JS)], capture_output=True, text=True, timeout=30, check=True
        )
        got = json.loads(out.stdout)
        assert got["probe"] == ["Seitsemän paria", "No Such Fan"]  # the fallback: calculator name
        return got["fans"]
    fans = {}
    for key, body in re.findall(r'^\s*("[^"]+"): \{ (.*) \},$', source, re.M):
        fans[json.loads(key)] = {k: json.loads(v) for k, v in re.findall(r'(\w+): ("[^"]*")', body)}
    return fans


def test_the_calculator_table_is_read_from_the_module():
    fans = calculator_fans()
    assert len(fans) == 82  # 80 fans, flower tiles, 明暗杠 (PyMahjongGB 1.4)
    assert fans[0] == ("Big Four Winds", "大四喜")
    assert ("Flower Tiles", "花牌") in fans and ("Seven Pairs", "七对") in fans


def test_every_calculator_fan_is_translated_in_every_language():
    fans = load_fans()
    missing = [
        f"{lang}:{en}"
        for en, _zh in calculator_fans()
        for lang in LANGS
        if not (fans.get(en) or {}).get(lang, "").strip()
    ]
    assert missing == []
    wrong_zh = [en for en, zh in calculator_fans() if fans[en].get("zh") != zh]
    assert wrong_zh == []
    assert set(fans) == {en for en, _zh in calculator_fans()}  # nothing stale either
    for lang in LANGS:  # no copy-paste slips: one name per fan within a language
        names = [row[lang] for row in fans.values()]
        assert len(set(names)) == len(names), lang
    for lang in ("pt", "nl", "ar", "fi"):  # actually translated (a few names coincide with English)
        same = [en for en, row in fans.items() if row[lang] == en]
        assert len(same) <= 2, (lang, same)
    assert all(re.search(r"[\u0600-\u06ff]", row["ar"]) for row in fans.values())


HANDS = [  # (packs, hand, win, flowers, self_drawn, fourth, about_kong, wall_last, seat, prevailing)
    (
        (),
        ("W1", "W9", "T1", "T9", "B1", "B9", "F1", "F2", "F3", "F4", "J1", "J2", "J3"),
        "W1",
        0,
        True,
        False,
        False,
        False,
        0,
        0,
    ),
    (
        (),
        ("W1", "W1", "W3", "W3", "W5", "W5", "T2", "T2", "B4", "B4", "B6", "B6", "J1"),
        "J1",
        2,
        False,
        False,
        False,
        False,
        0,
        0,
    ),
    (
        (("GANG", "W1", 1), ("GANG", "T5", 0)),
        ("B2", "B3", "B4", "F1", "F1", "F1", "J2"),
        "J2",
        1,
        True,
        False,
        True,
        False,
        0,
        0,
    ),
    (
        (("CHI", "W2", 1),),
        ("T3", "T4", "T5", "B6", "B7", "B8", "B2", "B2", "B2", "W8"),
        "W8",
        0,
        False,
        False,
        False,
        False,
        1,
        0,
    ),
    (
        (),
        ("B1", "B1", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B9", "B9"),
        "B5",
        0,
        True,
        False,
        False,
        True,
        2,
        3,
    ),
]


def test_real_calculator_results_are_in_the_table():
    fans = load_fans()
    seen = set()
    for args in HANDS:
        for _pts, _cnt, zh, en in MahjongGB.MahjongFanCalculator(*args, True):
            assert en in fans and fans[en]["zh"] == zh, (en, zh)
            seen.add(en)
    assert {
        "Thirteen Orphans",
        "Seven Pairs",
        "Flower Tiles",
        "Concealed Kong and Melded Kong",
        "Nine Gates",
    } <= seen
