"""Words the command line prints: a count with its noun (``1 inaccuracy``, ``2 inaccuracies``) and
progress on a long run (a line rewritten in place on a terminal, a line every tenth of the way
otherwise)."""

from __future__ import annotations

import sys
from typing import TextIO

# the nouns whose plural is not the singular plus "s"
_IRREGULAR = {"inaccuracy": "inaccuracies", "match": "matches", "player row": "player rows"}


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun, singular for exactly one: ``count(1, "deal")`` is ``1 deal``."""
    if n == 1:
        return f"{n} {noun}"
    return f"{n} {plural or _IRREGULAR.get(noun) or noun + 's'}"


class Progress:
    """``label: done/total noun`` on ``stream`` (stderr): in place on a terminal, else a line at
    each tenth of the way (and the last), so a log shows the run moving without a line per item."""

    def __init__(self, label: str, total: int, noun: str, stream: TextIO | None = None) -> None:
        self.label, self.total, self.noun = label, total, noun
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.done = 0
        self._shown_tenth = -1

    def step(self, n: int = 1) -> None:
        self.done += n
        text = f"{self.label}: {self.done}/{count(self.total, self.noun)}"
        if self.tty:
            self.stream.write("\r" + text)
            if self.done >= self.total:
                self.stream.write("\n")
            self.stream.flush()
            return
        tenth = self.done * 10 // max(1, self.total)
        if tenth != self._shown_tenth or self.done >= self.total:
            self._shown_tenth = tenth
            self.stream.write(text + "\n")
            self.stream.flush()
