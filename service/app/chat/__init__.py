"""A word at the table: what a seat may say, checked before anything is stored.

Chat is not part of a deal's log: it never enters the hash chain, a replay or an audit. A
message is free text (1 to 200 characters once trimmed, counted as code points, in NFC, with no
control characters) or one of a few set phrases, named by id and shown in each reader's own
language by the client. The spectators of a deal open to them have a room of their own
(``WatcherMessage``), written by signed-in accounts and never mixed with the seats'. This
module is pure (``service.store.chat`` keeps the messages, ``relay`` hands them to the live
streams).
"""

from __future__ import annotations

import unicodedata

import msgspec

from domain.errors import RuleViolation

MAX_CHARS = 200
KEPT = 200  # the newest messages a deal keeps
WATCH_SUFFIX = "#watch"  # the archive keeps a deal's spectators' room under ``<deal_id>#watch``
# the set phrases, by id; the web client words each one in five languages
PHRASES = ("gg", "nice", "thanks", "hurry", "oops", "hello", "sorry")


class ChatPost(msgspec.Struct, forbid_unknown_fields=True):
    """``{"text"}`` or ``{"phrase"}``, exactly one of them."""

    text: str | None = None
    phrase: str | None = None


class ChatMessage(msgspec.Struct, omit_defaults=True):
    """One message: the seat and its name at the time, the text (a phrase's id for a phrase)
    and when (ms since the epoch)."""

    seat: int
    name: str | None
    text: str
    at: int
    phrase: bool = False


class ChatLog(msgspec.Struct):
    messages: list[ChatMessage]


class WatcherMessage(msgspec.Struct, omit_defaults=True):
    """One message in the spectators' room: the signed-in account's name, the text (a
    phrase's id for a phrase) and when (ms since the epoch); no seat, the room has none."""

    name: str
    text: str
    at: int
    phrase: bool = False


class WatcherLog(msgspec.Struct):
    messages: list[WatcherMessage]


def _control(ch: str) -> bool:
    # Cc (C0, DEL, C1), Cf (format: bidi overrides, zero-width joiners), Cs, Co, Cn
    return unicodedata.category(ch).startswith("C")


def checked(post: ChatPost) -> tuple[str, bool]:
    """The text to store and whether it is a set phrase's id; DS-45 (422) otherwise."""
    if (post.text is None) == (post.phrase is None):
        raise RuleViolation("DS-45", 'a chat message is {"text": …} or {"phrase": …}, one of them')
    if post.phrase is not None:
        if post.phrase not in PHRASES:
            raise RuleViolation("DS-45", f"a set phrase is one of {', '.join(PHRASES)}")
        return post.phrase, True
    assert post.text is not None
    text = unicodedata.normalize("NFC", post.text.strip())
    if not 1 <= len(text) <= MAX_CHARS:
        raise RuleViolation("DS-45", f"a chat message is 1 to {MAX_CHARS} characters once trimmed")
    if any(_control(ch) for ch in text):
        raise RuleViolation("DS-45", "a chat message holds no control or format characters")
    return text, False
