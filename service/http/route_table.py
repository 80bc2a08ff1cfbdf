"""Every route of the HTTP API, once: ``build_app`` mounts this table on aiohttp's router and
``openapi_document`` describes the same table, so a route cannot be served undocumented or
documented but not served (``tests/unit/test_route_table.py`` checks the mounted app).

A route names the ``Api`` method that serves it, the msgspec types it decodes and encodes, and
the rule ids it can answer as problem+json (their HTTP status comes from ``problems.status_for``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_type_hints

from domain.game import GAMES
from projections.review import Review
from service.app import seeks
from service.app.analysis.reviews import ReviewedSeats, ReviewProgress
from service.app.chat import ChatLog, ChatMessage, ChatPost, WatcherLog, WatcherMessage
from service.app.commands.terms import CommandAnswer
from service.app.games import kit
from service.app.reads import answers
from service.app.reads.audit import AuditReport
from service.app.reads.matches import MatchAudit, MatchSummary
from service.app.state.players import PLAYER_KEY_PATTERN
from service.http import accounts as account_schemas
from service.http import schemas
from service.http.tournaments import tournament_routes

# every route that reads or writes the event store lists DS-12 (503: Redis out of reach); what
# aiohttp refuses before a handler runs (an unknown path, a method the path lacks, a header it
# cannot parse) is a problem too, documented as every operation's `default` answer

# the advice each game's coach answers with (the return type of its ``coach``), by name
COACH_ADVICE = tuple(
    sorted((get_type_hints(kit(name).coach.coach)["return"] for name in GAMES), key=lambda t: t.__name__)
)

# the game rules (docs/rules/<game>.md) a refused move cites, by each game's rule-id prefix (the
# prefix of the first rule it cites when a deal is created: PH, MC): always 422
GAME_RULES = "/".join(f"{kit(name).game.creation_rules[0].split('-')[0]}-*" for name in GAMES)


@dataclass(frozen=True)
class Answer:
    """One success status of a route: its body's type (several: one of them; None: any object)."""

    status: int
    body: Any = None
    media: str = "application/json"
    description: str = "success"


@dataclass(frozen=True)
class Route:
    """``seat``: whether the route needs a seat token (``required``), takes one to show the
    seat more (``optional``), or is not about seats (None). ``documented=False`` only for the
    two routes that are not API operations: the web client's page and the document itself.
    ``errors``: the rules the route can answer; a token that is given but is no seat of the deal
    (or not printable ASCII) is refused with DS-8, never read as a spectator's."""

    method: Literal["GET", "POST", "DELETE"]
    path: str
    handler: str
    summary: str | None
    answers: tuple[Answer, ...]
    request: Any = None
    parameters: tuple[dict[str, Any], ...] = ()
    seat: Literal["required", "optional"] | None = None
    errors: tuple[str, ...] = ()
    documented: bool = True
    request_required: bool = True  # False: the body may be left out (read as ``{}``)


def path_param(name: str, kind: str = "string") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": kind}
    if kind == "integer":
        schema["minimum"] = 0
    return {"name": name, "in": "path", "required": True, "schema": schema}


def query_param(name: str, kind: str = "integer", **bounds: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": kind}
    if kind == "integer":
        schema["minimum"] = bounds.get("minimum", 0)
        if "maximum" in bounds:
            schema["maximum"] = bounds["maximum"]
    return {"name": name, "in": "query", "schema": schema}


DEAL_ID = path_param("deal_id")
# where a stream resumes: a message's id (version.tag) or a bare version
RESUME_SCHEMA = {"type": "string", "pattern": "^[0-9]{1,16}(\\.[0-9a-f]{8})?$"}
SEAT = path_param("seat", "integer")

# aiohttp tries the routes under one prefix in the order they were added: the ones a table
# calls all the time go first, ahead of the `/deals` index and the deal summary
ROUTES: tuple[Route, ...] = (
    Route(
        "POST",
        "/deals/{deal_id}/commands",
        "command",
        "one command for the token's seat; the command is one of the game's commands",
        (Answer(200, CommandAnswer),),
        request=schemas.CommandRequest,
        parameters=(DEAL_ID,),
        seat="required",
        errors=(
            "DS-8",
            "DS-7",
            "DS-22",
            "DS-5",
            "DS-10",
            "DS-3",
            "DS-2",
            "DS-4",
            "DS-6",
            "DS-13",
            "DS-17",
            "TB-1.4",
            "TB-2.6",
            GAME_RULES,
            "DS-12",
        ),  # fmt: skip
    ),
    Route(
        "GET",
        "/deals/{deal_id}/view",
        "view",
        "the seat view of the token's seat",
        (Answer(200),),
        parameters=(DEAL_ID,),
        seat="required",
        errors=("DS-8", "DS-7", "DS-12"),
    ),
    Route(
        "GET",
        "/deals/{deal_id}/coach",
        "coach",
        "the coach's advice for the token's seat, from its own view only (deals created with the "
        "coach; DS-16 otherwise)",
        (Answer(200, COACH_ADVICE),),
        parameters=(DEAL_ID,),
        seat="required",
        errors=("DS-8", "DS-7", "DS-16", "DS-47", "DS-12"),
    ),
    Route("GET", "/", "index", "the web client's page", (Answer(200, media="text/html"),), documented=False),
    Route(
        "GET",
        "/health",
        "health",
        "200 while the event store answers, 503 (DS-12) while it does not",
        (Answer(200, schemas.Health),),
        errors=("DS-12",),
    ),
    Route(
        "GET",
        "/ready",
        "ready",
        "200 when the store answers, the stream hub runs and the workers are up; 503 naming what is not",
        (Answer(200, schemas.Ready), Answer(503, schemas.Ready, description="not ready: each part says why")),
    ),
    Route("GET", "/openapi.json", "openapi", "this document", (Answer(200),), documented=False),
    Route(
        "POST",
        "/deals",
        "create_deal",
        "create a deal (an all-bot deal starts at once)",
        (Answer(201, schemas.CreatedDeal),),
        request=schemas.CreateDeal,
        errors=("DS-5", "DS-10", "DS-26", "DS-1", "DS-9", "DS-11", "TB-1.2", "TB-1.3", "TB-2.1", "DS-12")
        + ("DS-32", "DS-33", "DS-39", "DS-41"),
    ),
    Route(
        "GET",
        "/deals",
        "list_deals",
        "deals anyone may find, newest first: finished ones and live ones open to spectators",
        (Answer(200, answers.DealList),),
        parameters=(query_param("offset"), query_param("count", minimum=1, maximum=200)),
        errors=("DS-5", "DS-12"),
    ),
    Route(
        "POST",
        "/players/keys",
        "mint_player_key",
        "a new player key (128 random bits and the server's tag): the only keys `player_key` and "
        "`X-Player-Key` accept",
        (Answer(201, schemas.MintedPlayerKey),),
        request_required=False,
        errors=("DS-12",),
    ),
    Route(
        "GET",
        "/players/me/deals",
        "my_deals",
        "the deals the holder of the player key in `X-Player-Key` took a seat in (created or joined "
        "with it as `player_key`), newest first: game, time, seat, status and, once over, the "
        "public result and this seat's score; a key nobody used has an empty list. Without the "
        "header, the signed-in account's list (the `ds_session` cookie)",
        (Answer(200, answers.PlayerDeals),),
        parameters=(
            query_param("limit", minimum=1, maximum=200),
            query_param("before"),
            {
                "name": "X-Player-Key",
                "in": "header",
                "required": False,
                "schema": {"type": "string", "pattern": PLAYER_KEY_PATTERN},
            },
        ),
        errors=("DS-28", "DS-27", "DS-26", "DS-5", "DS-12"),
    ),
    Route(
        "GET",
        "/games",
        "games",
        "the games, their seat counts and bot levels",
        (Answer(200),),
    ),
    Route(
        "GET",
        "/deals/{deal_id}",
        "summary",
        "public summary (a seat token adds whether that seat is asked)",
        (Answer(200, answers.DealSummary),),
        parameters=(DEAL_ID,),
        seat="optional",
        errors=("DS-8", "DS-7", "DS-12"),
    ),
    Route(
        "GET",
        "/deals/{deal_id}/events/stream",
        "stream",
        "server-sent events, filtered for the token's seat (or a spectator)",
        (Answer(200, media="text/event-stream"),),
        parameters=(
            DEAL_ID,
            {"name": "after", "in": "query", "schema": RESUME_SCHEMA},
            query_param("token", "string"),
            query_param("ticket", "string"),
            {"name": "Last-Event-ID", "in": "header", "schema": RESUME_SCHEMA},
        ),
        seat="optional",
        errors=("DS-8", "DS-7", "DS-5", "DS-14", "DS-31", "DS-12"),
    ),
    Route(
        "POST",
        "/deals/{deal_id}/chat",
        "post_chat",
        "a word at the table from the token's seat: free text (1 to 200 characters) or a set "
        "phrase by id; kept beside the deal, never in its log; the seats' streams carry it",
        (Answer(201, ChatMessage),),
        request=ChatPost,
        parameters=(DEAL_ID,),
        seat="required",
        errors=("DS-8", "DS-7", "DS-5", "DS-10", "DS-43", "DS-45", "DS-46", "DS-12"),
    ),
    Route(
        "GET",
        "/deals/{deal_id}/chat",
        "read_chat",
        "the seats' chat, oldest first (the newest 200), for the deal's seats only",
        (Answer(200, ChatLog),),
        parameters=(DEAL_ID,),
        seat="required",
        errors=("DS-8", "DS-7", "DS-12"),
    ),
    Route(
        "POST",
        "/deals/{deal_id}/watchers/chat",
        "post_watch_chat",
        "a word in the spectators' room from the signed-in account (its name shown): free text or a "
        "set phrase, as at the table; only at a table open to spectators; the spectators' streams "
        "carry it, never the seats'",
        (Answer(201, WatcherMessage),),
        request=ChatPost,
        parameters=(DEAL_ID,),
        errors=("DS-39", "DS-34", "DS-7", "DS-44", "DS-5", "DS-10", "DS-43", "DS-45", "DS-46", "DS-12"),
    ),
    Route(
        "GET",
        "/deals/{deal_id}/watchers/chat",
        "read_watch_chat",
        "the spectators' room, oldest first (the newest 200), for anyone; only at a table open to spectators",
        (Answer(200, WatcherLog),),
        parameters=(DEAL_ID,),
        errors=("DS-7", "DS-44", "DS-12"),
    ),
    Route(
        "POST",
        "/deals/{deal_id}/stream-ticket",
        "stream_ticket",
        "a single-use ticket (30 s) for one event stream of the token's seat: `?ticket=` instead of "
        "a token in the stream's URL, where logs and proxies would keep it",
        (Answer(200, schemas.StreamTicket),),
        parameters=(DEAL_ID,),
        seat="required",
        errors=("DS-8", "DS-7", "DS-12"),
    ),
    Route(
        "GET",
        "/deals/{deal_id}/replay",
        "replay",
        "one frame: the state after `step` events as `perspective` sees it (during the deal only "
        "the token's own seat; after it any seat or `all`)",
        (Answer(200, answers.ReplayFrame),),
        parameters=(DEAL_ID, query_param("step"), query_param("perspective", "string")),
        seat="optional",
        errors=("DS-8", "DS-7", "DS-5", "DS-2", "DS-3", "DS-47", "DS-12"),
    ),
    Route(
        "GET",
        "/deals/{deal_id}/log",
        "log",
        "the stored records as JSON lines, once the deal is over",
        (Answer(200, media="application/x-ndjson"),),
        parameters=(DEAL_ID,),
        errors=("DS-8", "DS-7", "DS-2", "DS-47", "DS-12"),
    ),
    Route(
        "GET",
        "/deals/{deal_id}/audit",
        "audit",
        "the audit; during the deal only its public part and the token's own options and answers "
        "in windows already resolved",
        (Answer(200, AuditReport),),
        parameters=(DEAL_ID,),
        seat="optional",
        errors=("DS-8", "DS-7", "DS-12"),
    ),
    Route(
        "POST",
        "/deals/{deal_id}/rematch",
        "rematch",
        "play a finished deal again: same seats, levels and pace, the dealer moved on by one, "
        "every person in their seat with their name; the first seat to ask creates it (201), "
        "every later request of a seat reaches it with its own seat and token (200); an "
        "optional body's player_key lists the caller's seat under it",
        (Answer(201, schemas.PlayedAgain), Answer(200, schemas.PlayedAgain, description="made already")),
        request=schemas.RematchRequest,
        request_required=False,
        parameters=(DEAL_ID,),
        seat="required",
        errors=("DS-8", "DS-7", "DS-5", "DS-26", "DS-11", "DS-32", "DS-33", "DS-2", "DS-15", "DS-12")
        + ("DS-39",),
    ),
    Route(
        "POST",
        "/deals/{deal_id}/join",
        "join",
        "take an open seat with its invite code, or at a lobby table by number (TB-1.2); answers "
        "the seat's token once. A seat is given once: 409 DS-18 after that",
        (Answer(201, schemas.JoinedSeat),),
        request=schemas.JoinRequest,
        parameters=(DEAL_ID,),
        errors=(
            "DS-8",
            "DS-7",
            "DS-5",
            "DS-10",
            "DS-26",
            "TB-1.3",
            "DS-21",
            "DS-19",
            "DS-18",
            "DS-2",
            "DS-34",
            "DS-41",
            "DS-12",
            "DS-39",
        ),
    ),
    Route(
        "POST",
        "/deals/{deal_id}/seats/{seat}/bot",
        "fill_seat",
        "the creator puts a bot in a seat still open, before the start (TB-1.4)",
        (Answer(200, schemas.FilledSeat),),
        request=schemas.FillRequest,
        parameters=(DEAL_ID, SEAT),
        seat="required",
        errors=("DS-8", "DS-7", "DS-5", "DS-10", "DS-20", "DS-1", "DS-18", "DS-2", "DS-3", "DS-41", "DS-12")
        + ("DS-32", "DS-33"),
    ),
    Route(
        "GET",
        "/lobby",
        "lobby",
        "live tables listed in the lobby with a seat still open, newest first",
        (Answer(200, answers.LobbyList),),
        parameters=(query_param("count", minimum=1, maximum=200),),
        errors=("DS-5", "DS-12"),
    ),
    Route(
        "POST",
        "/deals/{deal_id}/reviews",
        "start_review",
        "start the review of one seat of a finished deal (runs in the bot workers): 202 and its "
        "progress, or 200 and the review if done",
        (Answer(202, ReviewProgress, description="started"), Answer(200, Review)),
        request=schemas.ReviewRequest,
        parameters=(DEAL_ID,),
        errors=("DS-7", "DS-5", "DS-10", "DS-2", "DS-3", "DS-29", "DS-30", "DS-47", "DS-12"),
    ),
    Route(
        "GET",
        "/deals/{deal_id}/reviews",
        "reviews_made",
        "the seats of the deal that have a review with this seed (running, done or failed)",
        (Answer(200, ReviewedSeats),),
        parameters=(DEAL_ID, query_param("seed")),
        errors=("DS-7", "DS-5", "DS-12"),
    ),
    Route(
        "GET",
        "/deals/{deal_id}/reviews/{seat}",
        "review",
        "a review's progress, or the review once done (every decision of the seat, the value of "
        "each option, the verdict)",
        # status "done": the review; "running" or "failed": its progress
        (Answer(200, (Review, ReviewProgress)),),
        parameters=(DEAL_ID, SEAT, query_param("seed")),
        errors=("DS-7", "DS-5", "DS-47", "DS-12"),
    ),
    Route(
        "POST",
        "/matches",
        "create_match",
        'create a match (TB-5): the body of POST /deals plus its length ("round", "game" or a '
        "number of deals) and, for Paohuzi, a target; answers the first deal's creation and match_id",
        (Answer(201, schemas.CreatedMatch),),
        request=schemas.CreateMatch,
        errors=("DS-5", "DS-10", "DS-1", "DS-9", "DS-11", "TB-1.2", "TB-1.3", "TB-2.1", "MC-6.1", "PH-9.1")
        + ("DS-32", "DS-33", "DS-12", "DS-39", "DS-41"),
    ),
    Route(
        "GET",
        "/matches/{match_id}",
        "match",
        "a match's deals (dealer, round, result once ended), running scores and standings (TB-5.4)",
        (Answer(200, MatchSummary),),
        parameters=(path_param("match_id"),),
        errors=("DS-23", "DS-12"),
    ),
    Route(
        "GET",
        "/matches/{match_id}/audit",
        "match_audit",
        "the match's audit (TB-5.5): each deal's result read again from its own log, and the match "
        "log's order, dealers and rounds checked against the rules",
        (Answer(200, MatchAudit),),
        parameters=(path_param("match_id"),),
        errors=("DS-23", "DS-12"),
    ),
    Route(
        "POST",
        "/accounts",
        "sign_up",
        "make an account (a name by the seat-name rule, unique regardless of case and look-alike "
        "characters; a password of 8 or more characters) and sign in: the session is the "
        "`ds_session` cookie; an `X-Player-Key` moves that key's games into the account",
        (Answer(201, account_schemas.SignedIn),),
        request=account_schemas.SignUp,
        errors=("DS-5", "DS-10", "DS-26", "DS-39", "DS-38", "TB-1.3", "DS-37", "DS-36", "DS-12"),
    ),
    Route(
        "POST",
        "/sessions",
        "sign_in",
        "sign in with name and password, or with a device code: the session is the `ds_session` "
        "cookie; a wrong name and a wrong password answer alike; an `X-Player-Key` moves that "
        "key's games into the account",
        (Answer(200, account_schemas.SignedIn),),
        request=account_schemas.SignIn,
        errors=("DS-5", "DS-10", "DS-26", "DS-39", "DS-38", "DS-35", "DS-12"),
    ),
    Route(
        "DELETE",
        "/sessions/current",
        "sign_out",
        "sign out: this session ends",
        (Answer(204, description="signed out"),),
        errors=("DS-39", "DS-34", "DS-12"),
    ),
    Route(
        "DELETE",
        "/sessions",
        "sign_out_everywhere",
        "sign out everywhere: every session of the account ends",
        (Answer(204, description="signed out everywhere"),),
        errors=("DS-39", "DS-34", "DS-12"),
    ),
    Route(
        "GET",
        "/accounts/me",
        "me",
        "the signed-in account: its name and its ratings by game",
        (Answer(200, account_schemas.Me),),
        errors=("DS-34", "DS-12"),
    ),
    Route(
        "GET",
        "/ratings/{game}",
        "leaderboard",
        "the game's rated players, the best first: rating (mu - 3 sigma), mu, sigma, rated games "
        "and whether the rating is still provisional",
        (Answer(200, account_schemas.Leaderboard),),
        parameters=(path_param("game"),),
        errors=("DS-42", "DS-12"),
    ),
    Route(
        "GET",
        "/accounts/{name}",
        "profile",
        "a rated player's public profile: per game its rating and the rating after each rated "
        "result (an account's name as it signed in, or a house bot: bot:greedy)",
        (Answer(200, account_schemas.Profile),),
        parameters=(path_param("name"),),
        errors=("DS-42", "DS-12"),
    ),
    Route(
        "DELETE",
        "/accounts/me",
        "delete_me",
        "delete the signed-in account: its name, password hash, sessions and list of games (the "
        "finished logs keep the seat names that were played under)",
        (Answer(204, description="deleted"),),
        errors=("DS-39", "DS-34", "DS-12"),
    ),
    Route(
        "POST",
        "/accounts/me/device-codes",
        "new_device_code",
        "a code (single use, ten minutes) that signs another device into this account",
        (Answer(201, account_schemas.DeviceCode),),
        errors=("DS-39", "DS-34", "DS-12"),
    ),
    Route(
        "POST",
        "/deals/{deal_id}/my-seat",
        "my_seat",
        "the signed-in account's seat of this deal and a new token of it for this device",
        (Answer(200, account_schemas.MySeat),),
        parameters=(DEAL_ID,),
        errors=("DS-39", "DS-34", "DS-7", "DS-40", "DS-6", "DS-12"),
    ),
    Route(
        "POST",
        "/seeks",
        "seek_create",
        "quick play: the signed-in account asks for a table of a game; people of similar rating are "
        "seated together, house bots fill in after `bots_after_s` (if given)",
        (Answer(201, seeks.SeekMade),),
        request=seeks.SeekRequest,
        errors=("DS-39", "DS-34", "DS-5", "DS-1", "DS-50", "DS-12"),
    ),
    Route(
        "GET",
        "/seeks/{seek_id}",
        "seek_read",
        "the account's own seek: `waiting`, or `seated` with the deal, the seat and a new token of it; "
        "a seek not read for 30 s ends",
        (Answer(200, seeks.SeekState),),
        parameters=(path_param("seek_id"),),
        errors=("DS-34", "DS-51", "DS-12"),
    ),
    Route(
        "DELETE",
        "/seeks/{seek_id}",
        "seek_delete",
        "the account leaves the queue; its seek ends",
        (Answer(204, description="the seek ended"),),
        parameters=(path_param("seek_id"),),
        errors=("DS-39", "DS-34", "DS-51", "DS-12"),
    ),
)
ROUTES += tournament_routes(Route, Answer, path_param)  # TN-1..TN-5 (service/http/tournaments.py)
# the rules whose problem answer carries a Retry-After header (seconds)
RETRY_AFTER_RULES = frozenset(
    {"DS-11", "DS-14", "DS-22", "DS-28", "DS-29", "DS-30", "DS-31", "DS-32", "DS-33", "DS-38", "DS-46"}
)
