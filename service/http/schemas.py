"""Request and answer bodies of the HTTP API that are the HTTP layer's own: the msgspec types the
handlers decode and encode, and from which the OpenAPI document is built (so the two cannot
drift apart). Answers the read and command sides already type (``CommandAnswer``,
``DealSummary``, …) are encoded as they are, not copied here."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:\-]+$")]
SeatKind = Annotated[str, msgspec.Meta(max_length=32)]
# the browser's own player key: checked by the command side, so every bad one is
# refused with DS-26; only its digest is kept, never in a deal's log
PlayerKey = Annotated[
    Any,
    msgspec.Meta(
        description="16 to 128 characters of A-Z, a-z, 0-9, '_' and '-' (DS-26 otherwise)",
        extra_json_schema={
            "anyOf": [{"type": "string", "pattern": "^[A-Za-z0-9_-]{16,128}$"}, {"type": "null"}]
        },
    ),
]


class CreateDeal(msgspec.Struct, forbid_unknown_fields=True):
    """``seats``: one entry per seat, ``human`` or ``bot:<level>``. ``spectators``: list the
    deal while it is live and let anyone watch its public table (default: only all-bot deals;
    a deal with people is unlisted until it ends). ``pace``: how long the bots think (slow: 2x,
    normal: 1x, fast: 0.3x the server's ``--bot-delay``). ``coach``: whether the seats may ask
    for advice (``GET /deals/{id}/coach``; default: when exactly one seat is a person).
    ``player_key``: the creator's player key; its person seats are listed under it
    (``GET /players/me/deals``). ``rated``: the deal counts for the ratings; its one person
    seat is the signed-in account's, every other a house bot (DS-41 otherwise)."""

    game: Annotated[str, msgspec.Meta(max_length=32)]
    seats: Annotated[list[SeatKind], msgspec.Meta(max_length=8)]
    client_seed: Annotated[str, msgspec.Meta(max_length=256)] | None = None
    deck: Annotated[list[int], msgspec.Meta(max_length=256)] | None = None
    dealer: int | None = None
    spectators: bool | None = None
    pace: Literal["slow", "normal", "fast"] = "normal"
    coach: bool | None = None
    lobby: bool = False
    name: Any = None  # checked by TB-1.3 itself, so every bad name is refused with that rule
    # {"move_s", "claim_s", "bank_s"} (TB-2.1, checked there): a table with open seats has one
    clock: Any = None
    # TB-2.7: seconds an untimed deal may wait on its person before it is abandoned (default:
    # the rule's hour); only with ``--dev``, as a test fixture
    idle_s: Annotated[int, msgspec.Meta(ge=1, le=86_400)] | None = None
    player_key: PlayerKey = None
    # a rated deal (docs/api.md, ratings): every seat the signed-in creator's or a house bot
    rated: bool = False


class CreateMatch(CreateDeal, forbid_unknown_fields=True, kw_only=True):
    """A match (TB-5): the body of ``POST /deals`` plus its ``length``: ``"round"`` or
    ``"game"`` (MCR's four hands or four rounds, MC-6.1) or a number of deals (1-64), and for
    Paohuzi an optional ``target`` in tun (PH-9.1). Checked by those rules (422)."""

    length: int | str
    target: int | None = None


class JoinRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Take an open seat (TB-1.2): with its ``invite`` code, or at a table listed in the lobby by
    ``seat`` number. ``name``: 1-24 printable characters, shown to everyone as text (TB-1.3).
    ``player_key``: the joiner's player key; the seat is listed under it (``GET /players/me/deals``)."""

    name: Any  # checked by TB-1.3 itself (text, 1-24 printable characters, no < or >)
    invite: Annotated[str, msgspec.Meta(max_length=256)] | None = None
    seat: Annotated[int, msgspec.Meta(ge=0, le=7)] | None = None
    player_key: PlayerKey = None


class RematchRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Optional body of "Play again": ``player_key``, the caller's player key; the seats the new
    deal hands to the caller are listed under it (``GET /players/me/deals``), as a created
    deal's are. No body is the same as ``{}``."""

    player_key: PlayerKey = None


class JoinedSeat(msgspec.Struct):
    """The seat taken and its token (shown once: only its digest is kept)."""

    deal_id: str
    seat: int
    token: str
    name: str
    version: int


class FillRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The bot level to put in an open seat (``greedy`` or ``bot:greedy``), by the creator (TB-1.4)."""

    level: Annotated[str, msgspec.Meta(max_length=32)]


class FilledSeat(msgspec.Struct):
    deal_id: str
    seat: int
    kind: str
    version: int


class CreatedDeal(msgspec.Struct):
    deal_id: str
    game: str
    ruleset: str
    seats: list[str]
    commitment: str
    tokens: dict[str, str]
    version: int
    spectators: bool
    clock: dict[str, float] | None = None  # the deal's clock (TB-2.1); null: untimed
    invites: dict[str, str] = {}  # per open seat: the code that joins it (TB-1.2), shown only here
    join_links: dict[str, str] = {}  # per open seat: the web table's link with the code
    lobby: bool = False
    pace: str = "normal"
    rematch_of: str | None = None
    coach: bool = False


class PlayedAgain(CreatedDeal, kw_only=True):
    """ "Play again": the new deal, and the caller's seat in it with a token for it (in
    ``tokens`` too). ``created``: this request made the deal (201); else it reached the deal
    another seat's request made (200), with no invite in the answer."""

    seat: int
    token: str
    created: bool


class CreatedMatch(CreatedDeal, kw_only=True):
    """The first deal's creation answer (its tokens and invites are the whole match's: TB-5.2)
    and the match's id, length in deals and target."""

    match_id: str
    length: int
    target: int | None = None


class CommandRequest(msgspec.Struct, forbid_unknown_fields=True):
    """``return_view``: also answer with the seat's view after the command (the SSE stream
    pushes it anyway, so clients that listen there leave it off and save the server the work)."""

    command_id: CommandId
    command: dict[str, Any]
    expected_version: Annotated[int, msgspec.Meta(ge=0)] | None = None
    return_view: bool = False
    # the version the command was decided on: refused (TB-2.8) once the table has moved for the
    # seat or asked it anew since then; unlike expected_version, other seats' moves do not matter
    seen_version: Annotated[int, msgspec.Meta(ge=0)] | None = None


class Health(msgspec.Struct):
    """``store``: ``ok`` or ``unreachable`` (then the answer is 503); ``streams``: live streams
    this process serves; ``durability``: ``aof`` when the store keeps an append-only file,
    ``none`` when it does not (a restart of Redis loses deals), ``unknown`` when it does not say;
    ``archive``: ``ok``, ``unreachable`` or ``off``; ``degraded``: the service runs but a part
    of it does not (the archive), still 200: ``/health`` is liveness, ``/ready`` readiness."""

    ok: bool
    store: str
    streams: int
    durability: str = "unknown"
    archive: str = "off"
    degraded: bool = False
    version: str = ""  # the service's version (service.__version__)


class Ready(msgspec.Struct):
    """``ready``: the store answers, the stream hub runs and the background workers (the bot
    runner's sweep, the clock keeper, the match sweep, the bot worker pool) are up; each part
    ``ok`` or what is wrong with it. ``archive`` is told, not required (play goes on without it)."""

    ready: bool
    store: str
    streams: str
    workers: str
    archive: str = "off"


class ReviewRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Review the decisions of ``seat`` (any seat, bots too) of a finished deal; ``seed``: the
    review seed (the same deal, seat and seed give the same review)."""

    seat: Annotated[int, msgspec.Meta(ge=0, le=7)]
    seed: Annotated[int, msgspec.Meta(ge=0, le=2**31)] = 0


class StreamTicket(msgspec.Struct):
    """A single-use ticket for one stream of this deal and seat: ``?ticket=`` instead of
    ``?token=``, valid ``expires_in`` seconds."""

    ticket: str
    expires_in: int


class MintedPlayerKey(msgspec.Struct):
    """A player key the service minted: the browser keeps it and sends it as ``player_key`` and
    in ``X-Player-Key``; any other key is refused (DS-26)."""

    player_key: str
