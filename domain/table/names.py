"""TB-1.3 seat names: short plain text that every viewer may see."""

from __future__ import annotations

import re
import unicodedata

from domain.errors import RuleViolation

MAX_NAME = 24
# control, format (bidi overrides, zero-width), separators other than a space, surrogates,
# private use and unassigned code points: none of them is a printable character
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# markup's brackets (decided): a name is never read as HTML anyway, and a name that looks like a
# tag is a probe, not a name
_MARKUP = {"<", ">"}
# letters and symbols that show as blank space (Hangul fillers, the Braille blank): refused
# anywhere, like a control character (decided); they only serve to fake an empty name
BLANKS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
# what the client calls a seat itself, in each language of the web client (``name.computer``,
# ``name.player``, ``name.open``, ``bot.level``, ``you``, ``you.obj`` in service/http/web/i18n*.js;
# tests/unit/test_table_rules.py checks this list against them): a person's name may not be one,
# so nobody passes for a computer or for "You" (TB-1.3)
RESERVED_LABELS = (
    "You", "you", "Computer {n}", "Player {n}", "Open seat {n}", "Computer: {level}",
    "Você", "você", "Computador {n}", "Jogador {n}", "Lugar livre {n}", "Computador: {level}",
    "Jij", "jou", "Speler {n}", "Vrije plaats {n}",
    "أنت", "الحاسوب {n}", "اللاعب {n}", "مقعد شاغر {n}", "حاسوب: {level}",
    "Sinä", "sinä", "Tietokone {n}", "Pelaaja {n}", "Vapaa paikka {n}", "Tietokone: {level}",
)  # fmt: skip


def _folded(text: str) -> str:
    """How a name is compared with a label: NFKC (full-width and compatibility forms), case
    folded, without spaces."""
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


def _label_pattern(label: str) -> re.Pattern[str]:
    parts = re.split(r"(\{n\}|\{level\})", label)
    pattern = "".join(
        r"\d+" if part == "{n}" else ".+" if part == "{level}" else re.escape(_folded(part)) for part in parts
    )
    return re.compile(pattern)


_RESERVED = tuple(_label_pattern(label) for label in RESERVED_LABELS)


def is_reserved(name: str) -> bool:
    """Whether the name reads as one of the client's own labels for a seat."""
    folded = _folded(name)
    return any(pattern.fullmatch(folded) for pattern in _RESERVED)


def _visible(char: str) -> bool:
    """A letter, digit, punctuation or symbol that shows something (a mark alone shows nothing)."""
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANKS


def seat_name(raw: object) -> str:
    """The name as stored: NFC-normalized, 1-24 printable characters, at least one of them
    visible, no leading or trailing space (refused rather than trimmed, so what a person typed is
    what others read), and not one of the client's own labels for a seat."""
    if not isinstance(raw, str):
        raise RuleViolation("TB-1.3", "a name is text")
    name = unicodedata.normalize("NFC", raw)
    if not name or not name.strip():
        raise RuleViolation("TB-1.3", "a name needs at least one visible character")
    if len(name) > MAX_NAME:
        raise RuleViolation("TB-1.3", f"a name has at most {MAX_NAME} characters (this one has {len(name)})")
    for char in name:
        category = unicodedata.category(char)
        if category in _REFUSED or (category == "Zs" and char != " "):
            raise RuleViolation("TB-1.3", f"a name may not hold U+{ord(char):04X} ({category})")
        if char in _MARKUP:
            raise RuleViolation("TB-1.3", "a name may not hold < or >")
        if char in BLANKS:
            raise RuleViolation("TB-1.3", f"a name may not hold U+{ord(char):04X} (it shows as blank)")
    if name != name.strip():
        raise RuleViolation("TB-1.3", "a name may not start or end with a space")
    if not any(_visible(char) for char in name):
        raise RuleViolation("TB-1.3", "a name needs at least one visible character")
    if is_reserved(name):
        raise RuleViolation("TB-1.3", "a name may not read as the table's label of a seat (Computer 1, You)")
    return name
