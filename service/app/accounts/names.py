"""An account's name: the seat-name rule (TB-1.3) for what is shown, and a skeleton for what
must be unique.

Two names are the same account name when their skeletons are equal: NFKC (full-width letters,
ligatures and the like fold to their plain forms), case folded, marks removed, and each letter
that looks like a Latin letter or digit in common fonts mapped to it (Cyrillic "а" to "a", Greek
"Ο" to "o", "0" to "o", "1" and "I" to "l", …). The table below is our own short list of the
look-alikes people actually use to imitate a name; it does not try to be complete, it makes the
easy imitations fail.
"""

from __future__ import annotations

import unicodedata

from domain.table.names import seat_name

# one character -> the Latin letter (or letters) it passes for; applied after NFKC and casefold
_LOOKALIKE = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "l", "ї": "l", "ј": "j", "ԁ": "d",
    "ɡ": "g", "һ": "h", "ԛ": "q", "ѡ": "w", "ү": "y", "ӏ": "l", "ь": "b",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w", "μ": "u",
    # Latin and digits that pass for each other
    "0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "$": "s", "ı": "l", "ł": "l", "ø": "o",
    "đ": "d", "ħ": "h", "ŀ": "l", "ɩ": "l", "ʟ": "l",
}  # fmt: skip
_DOUBLES = (("rn", "m"), ("vv", "w"), ("cl", "d"))


def account_name(raw: object) -> str:
    """The name as stored and shown: the seat-name rule (TB-1.3), refused as 400 otherwise."""
    return seat_name(raw)


def skeleton(name: str) -> str:
    """What two names must not share (see the module's doc)."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    mapped = "".join(_LOOKALIKE.get(c, c) for c in plain)
    mapped = "".join(c for c in mapped if not c.isspace() and c not in "-_.·'")
    for pair, single in _DOUBLES:
        mapped = mapped.replace(pair, single)
    return mapped
