"""A rule note on the web rules page names a fan in the page's language: the name the score sheet
gives it in that language (``games/mcr/fans.js``), never the English one inside another language's text."""

from __future__ import annotations

import json
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "service" / "http" / "web" / "games" / "mcr"
FAN = "Out with Replacement Tile"


def _fan_names(fan: str) -> dict[str, str]:
    line = next(
        x
        for x in (WEB / "fans.js").read_text(encoding="utf-8").splitlines()
        if x.strip().startswith(f'"{fan}":')
    )
    body = line.split(":", 1)[1].strip().rstrip(",")
    return json.loads(re.sub(r"(\w+):", r'"\1":', body))


def _mc_items(rule: str) -> dict[str, str]:
    page = (WEB / "rules.js").read_text(encoding="utf-8")
    blocks = re.findall(r"^const MC_([A-Z]{2}) = \{$(.*?)^\};$", page, re.MULTILINE | re.DOTALL)
    items = {}
    for code, body in blocks:
        found = re.search(rf'\["{re.escape(rule)}", "((?:[^"\\]|\\.)*)"\]', body)
        assert found, (code, rule)
        items[code.lower()] = found.group(1)
    return items


def test_the_mcr_2_note_names_out_with_replacement_tile_in_each_language():
    names = _fan_names(FAN)
    items = _mc_items("MC-4.6")
    assert set(items) == {"en", "pt", "nl", "ar", "fi"}
    for language, text in items.items():
        assert names[language] in text, (language, names[language], text)
        if language != "en":
            assert FAN not in text, (language, text)
