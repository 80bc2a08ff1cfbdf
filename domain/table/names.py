"""TB-1.3 seat names: short plain text that every viewer may see."""

from __future__ import annotations

import unicodedata

from domain.errors import RuleViolation

MAX_NAME = 24
# control, format (bidi overrides, zero-width), separators other than a space, surrogates,
# private use and unassigned code points: none of them is a printable character
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# markup's brackets (decided): a name is never read as HTML anyway, and a name that looks like a
# tag is a probe, not a name
_MARKUP = {"<", ">"}


def seat_name(raw: object) -> str:
    """The name as stored: NFC-normalized, 1-24 printable characters, no leading or trailing
    space (refused rather than trimmed, so what a person typed is what others read)."""
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
    if name != name.strip():
        raise RuleViolation("TB-1.3", "a name may not start or end with a space")
    return name
