"""RFC 9457 problem details for every error, with the broken rule's id; never a bare 500."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from aiohttp import web

from domain.errors import RuleViolation
from service.app.commands.terms import AlreadyRematched, CommandIdReused
from service.app.live.hub import TooManyStreams
from service.app.state.folds import DealNotFound, StaleVersion
from service.store.outages import is_outage

log = logging.getLogger("dealstream.http")

PROBLEM_TYPE = "application/problem+json"

# protocol rule -> HTTP status; every game rule (PH-…, MC-…) is a 422
_DS_STATUS = {
    "DS-1": 400,
    "DS-2": 409,
    "DS-3": 403,
    "DS-4": 409,
    "DS-5": 400,
    "DS-6": 409,
    "DS-7": 404,
    "DS-8": 401,
    "DS-9": 403,
    "DS-10": 413,
    "DS-11": 429,
    "DS-12": 503,
    "DS-13": 409,
    "DS-14": 503,
    "DS-15": 409,
    "DS-16": 403,
    "DS-17": 409,
    "DS-18": 409,
    "DS-19": 403,
    "DS-20": 403,
    "DS-21": 409,
    "DS-22": 429,
    "DS-23": 404,  # no such match
    "DS-24": 409,  # the stored log does not replay: every read but the audit says so
    "DS-26": 400,
    "DS-27": 401,
    "DS-28": 429,
    "DS-29": 429,  # too many review starts from this address, or of this deal
    "DS-30": 503,  # the review queue is full
    "DS-31": 429,  # this address holds its share of the process's spectator streams
    "DS-32": 429,  # this address's deals seat their share of bot program processes
    "DS-33": 503,  # bot program processes are at their bound in all
    "DS-34": 401,  # this needs a signed-in session (accounts)
    "DS-35": 401,  # wrong name or password, or a device code unknown, used or expired
    "DS-36": 409,  # this account name (or one that looks like it) is taken
    "DS-37": 422,  # a password shorter than 8 (or longer than 256) characters
    "DS-38": 429,  # too many sign-ins from this address or naming this account
    "DS-39": 403,  # a signed-in POST or DELETE from a page of another origin
    "DS-40": 404,  # the account holds no seat of this deal
    "DS-41": 422,  # a rated table with a seat that is neither the signed-in account's nor a house bot
    "DS-42": 404,  # no ratings: an unknown game, or an account name never rated
    "DS-43": 409,  # a chat message for a deal already moved to the archive
    "DS-44": 404,  # the deal has no spectators' room (its creator did not allow spectators)
    "DS-45": 422,  # a chat message that is empty, too long, or holds control characters
    "DS-46": 429,  # too many chat messages from this seat
    "DS-47": 409,  # a duplicate board still played at another table of its round (sealed until it ends)
    "DS-50": 422,  # a quick play seek that names no game or a bad bots_after_s
    "DS-51": 404,  # no seek of this account has this id
    "DS-55": 404,  # no such tournament
    "DS-56": 401,  # the tournament's arbiter token is missing or wrong
    "DS-57": 409,  # the tournament takes no entries now (it lists its players, or has started)
    # table rules broken by a request's own content are bad requests; one broken by the
    # table's state (starting with a seat still open) is a conflict
    "TB-1.2": 400,
    "TB-1.3": 400,
    "TB-1.4": 409,
    "TB-2.1": 400,
    "TB-2.6": 409,
    "TB-2.8": 409,  # decided on a version the table has moved on from for the seat
}
_TITLES = {
    400: "Bad request",
    401: "Seat token required",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request body too large",
    422: "Illegal move",
    429: "Too many requests",
    500: "Internal error",
    503: "Service unavailable",
}


# a rule whose status's usual title would say something else
_RULE_TITLES = {
    "DS-24": "Deal log does not replay", "DS-27": "Player key required", "DS-34": "Sign-in required",
    "DS-35": "Sign-in failed", "DS-37": "Password not accepted",
    "DS-41": "Table cannot be rated", "DS-43": "Chat closed", "DS-44": "No spectators' room",
    "DS-45": "Chat message not accepted", "DS-50": "Seek not accepted", "DS-51": "No such seek",
    "DS-56": "Arbiter token required",
}  # fmt: skip


class Problem(msgspec.Struct, omit_defaults=True):
    type: str
    title: str
    status: int
    detail: str
    rule: str | None = None
    expected_version: int | None = None
    actual_version: int | None = None
    rematched_by: str | None = None


def problem(status: int, detail: str, rule: str | None = None, **extra: Any) -> web.Response:
    body = Problem(
        type=f"/problems/{rule or status}",
        title=_RULE_TITLES.get(rule or "") or _TITLES.get(status, "Error"),
        status=status,
        detail=detail,
        rule=rule,
        **extra,
    )
    return web.Response(
        body=msgspec.json.encode(body),
        status=status,
        content_type=PROBLEM_TYPE,
    )


def status_for(rule_id: str) -> int:
    return _DS_STATUS.get(rule_id, 422)


@web.middleware
async def problem_middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    try:
        return await handler(request)
    except RuleViolation as exc:
        answer = problem(status_for(exc.rule_id), exc.message, exc.rule_id)
        retry_after = getattr(exc, "retry_after", None)  # a spent budget says when it has room
        if isinstance(retry_after, int) and retry_after > 0:
            answer.headers["Retry-After"] = str(retry_after)
        return answer
    except DealNotFound as exc:
        return problem(404, str(exc), "DS-7")
    except StaleVersion as exc:
        return problem(409, str(exc), "DS-4", expected_version=exc.expected, actual_version=exc.actual)
    except CommandIdReused as exc:
        return problem(409, str(exc), "DS-13")
    except AlreadyRematched as exc:
        return problem(409, str(exc), "DS-15", rematched_by=exc.rematched_by)
    except TooManyStreams as exc:  # the process's cap (503 DS-14) or an address's share (429 DS-31)
        answer = problem(status_for(exc.rule), str(exc), exc.rule)
        answer.headers["Retry-After"] = str(exc.retry_after)
        return answer
    except web.HTTPRequestEntityTooLarge:
        return problem(413, "the request body is larger than this server accepts", "DS-10")
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        answer = problem(exc.status, exc.reason or _TITLES.get(exc.status, "Error"))
        if "Allow" in exc.headers:  # a 405 names the methods the resource has (RFC 9110)
            answer.headers["Allow"] = exc.headers["Allow"]
        return answer
    except Exception as exc:
        if not is_outage(exc):
            log.exception("unexpected error on %s %s", request.method, request.path)
            return problem(500, "unexpected error (logged on the server)")
        if isinstance(exc, ConnectionError) and (request.transport is None or request.transport.is_closing()):
            raise  # the client hung up (e.g. closed its event stream): aiohttp drops it quietly
        log.warning("event store unreachable: %s", exc)
        return problem(503, "the event store is unreachable; retry with the same command_id", "DS-12")
