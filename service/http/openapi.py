"""The OpenAPI 3.1 document, built from the msgspec types the handlers really decode and encode."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from domain.game import GAMES, get_game


@cache
def openapi_document() -> dict[str, Any]:
    from domain.mcr.coach import McrAdvice
    from domain.paohuzi.coach import PaohuziAdvice
    from projections.review import Review
    from service.app import queries
    from service.app.audit import AuditReport
    from service.app.reviews import ReviewProgress
    from service.http import schemas
    from service.http.problems import Problem

    games = [get_game(name) for name in GAMES]
    named: list[Any] = [
        schemas.CreateDeal,
        schemas.CreatedDeal,
        schemas.JoinRequest,
        schemas.JoinedSeat,
        schemas.FillRequest,
        schemas.FilledSeat,
        queries.LobbyList,
        schemas.CommandRequest,
        schemas.CommandResult,
        schemas.Health,
        queries.DealSummary,
        queries.ReplayFrame,
        queries.DealList,
        schemas.ReviewRequest,
        Review,
        ReviewProgress,
        McrAdvice,
        PaohuziAdvice,
        AuditReport,
        Problem,
    ]
    commands = [g.command_type for g in games]
    (schemas, components) = msgspec.json.schema_components(
        named + commands, ref_template="#/components/schemas/{name}"
    )
    for game, schema in zip(games, schemas[len(named) :], strict=True):
        components[f"{game.name}_command"] = schema

    def body(ref: str) -> dict[str, Any]:
        return {"required": True, "content": {"application/json": {"schema": {"$ref": ref}}}}

    def ok(ref: str | None, status: str = "200", media: str = "application/json") -> dict[str, Any]:
        content = {media: {"schema": {"$ref": ref}}} if ref else {media: {"schema": {"type": "object"}}}
        return {status: {"description": "success", "content": content}, **errors}

    def ok_any(refs: list[str]) -> dict[str, Any]:
        schema = {"oneOf": [{"$ref": r} for r in refs]}
        return {
            "200": {"description": "success", "content": {"application/json": {"schema": schema}}},
            **errors,
        }

    errors = {
        "default": {
            "description": "problem details (RFC 9457) with the broken rule id in `rule`",
            "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
    }
    deal_id = {"name": "deal_id", "in": "path", "required": True, "schema": {"type": "string"}}
    ref = "#/components/schemas/{}".format
    return {
        "openapi": "3.1.0",
        "info": {"title": "dealstream", "version": "1", "description": "Paohuzi and MCR deals as event logs"},
        "components": {
            "schemas": components,
            "securitySchemes": {"seat": {"type": "http", "scheme": "bearer"}},
        },
        "paths": {
            "/deals": {
                "post": {
                    "summary": "create a deal (an all-bot deal starts at once)",
                    "requestBody": body(ref("CreateDeal")),
                    "responses": ok(ref("CreatedDeal"), "201"),
                },
                "get": {
                    "summary": "deals anyone may find, newest first: finished ones and live ones open "
                    "to spectators",
                    "parameters": [
                        {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                        {
                            "name": "count",
                            "in": "query",
                            "schema": {"type": "integer", "minimum": 1, "maximum": 200},
                        },
                    ],
                    "responses": ok(ref("DealList")),
                },
            },
            "/deals/{deal_id}": {
                "get": {
                    "summary": "public summary (a seat token adds whether that seat is asked)",
                    "security": [{}, {"seat": []}],
                    "parameters": [deal_id],
                    "responses": ok(ref("DealSummary")),
                },
            },
            "/deals/{deal_id}/view": {
                "get": {
                    "summary": "the seat view of the token's seat",
                    "security": [{"seat": []}],
                    "parameters": [deal_id],
                    "responses": ok(None),
                }
            },
            "/deals/{deal_id}/coach": {
                "get": {
                    "summary": "the coach's advice for the token's seat, from its own view only (deals "
                    "created with the coach; DS-16 otherwise)",
                    "security": [{"seat": []}],
                    "parameters": [deal_id],
                    "responses": ok_any([ref("McrAdvice"), ref("PaohuziAdvice")]),
                }
            },
            "/deals/{deal_id}/commands": {
                "post": {
                    "summary": "one command for the token's seat; the command is one of the game's commands",
                    "security": [{"seat": []}],
                    "parameters": [deal_id],
                    "requestBody": body(ref("CommandRequest")),
                    "responses": ok(ref("CommandResult")),
                }
            },
            "/deals/{deal_id}/events/stream": {
                "get": {
                    "summary": "server-sent events, filtered for the token's seat (or a spectator)",
                    "security": [{}, {"seat": []}],
                    "parameters": [
                        deal_id,
                        {"name": "after", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                        {"name": "token", "in": "query", "schema": {"type": "string"}},
                        {"name": "Last-Event-ID", "in": "header", "schema": {"type": "string"}},
                    ],
                    "responses": ok(None, media="text/event-stream"),
                }
            },
            "/deals/{deal_id}/replay": {
                "get": {
                    "security": [{}, {"seat": []}],
                    "parameters": [
                        deal_id,
                        {"name": "step", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                        {"name": "perspective", "in": "query", "schema": {"type": "string"}},
                    ],
                    "responses": ok(ref("ReplayFrame")),
                }
            },
            "/deals/{deal_id}/join": {
                "post": {
                    "summary": "take an open seat with its invite code, or at a lobby table by number "
                    "(TB-1.2); answers the seat's token once. A seat is given once: 409 DS-18 after that",
                    "parameters": [deal_id],
                    "requestBody": body(ref("JoinRequest")),
                    "responses": ok(ref("JoinedSeat"), "201"),
                }
            },
            "/deals/{deal_id}/seats/{seat}/bot": {
                "post": {
                    "summary": "the creator puts a bot in a seat still open, before the start (TB-1.4)",
                    "security": [{"seat": []}],
                    "parameters": [
                        deal_id,
                        {
                            "name": "seat",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "integer", "minimum": 0},
                        },
                    ],
                    "requestBody": body(ref("FillRequest")),
                    "responses": ok(ref("FilledSeat")),
                }
            },
            "/lobby": {
                "get": {
                    "summary": "live tables listed in the lobby with a seat still open, newest first",
                    "responses": ok(ref("LobbyList")),
                }
            },
            "/deals/{deal_id}/rematch": {
                "post": {
                    "summary": "play a finished deal again: same seats, levels and pace, the dealer moved "
                    "on by one (once per deal; DS-15 after that)",
                    "security": [{"seat": []}],
                    "parameters": [deal_id],
                    "responses": ok(ref("CreatedDeal"), "201"),
                }
            },
            "/deals/{deal_id}/reviews": {
                "post": {
                    "summary": "start the review of one seat of a finished deal (runs in the bot workers): "
                    "202 and its progress, or 200 and the review if done",
                    "parameters": [deal_id],
                    "requestBody": body(ref("ReviewRequest")),
                    "responses": {
                        "202": {
                            "description": "started",
                            "content": {"application/json": {"schema": {"$ref": ref("ReviewProgress")}}},
                        },
                        **ok(ref("Review")),
                    },
                }
            },
            "/deals/{deal_id}/reviews/{seat}": {
                "get": {
                    "summary": "a review's progress, or the review once done (every decision of the seat, "
                    "the value of each option, the verdict)",
                    "parameters": [
                        deal_id,
                        {
                            "name": "seat",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "integer", "minimum": 0},
                        },
                        {"name": "seed", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    ],
                    # status "done": the review; "running" or "failed": its progress
                    "responses": ok_any([ref("Review"), ref("ReviewProgress")]),
                }
            },
            "/deals/{deal_id}/log": {
                "get": {
                    "summary": "the stored records as JSON lines, once the deal is over",
                    "parameters": [deal_id],
                    "responses": ok(None, media="application/x-ndjson"),
                }
            },
            "/deals/{deal_id}/audit": {
                "get": {
                    "summary": "the audit; during the deal only its public part and the token's own "
                    "options and answers in windows already resolved",
                    "security": [{}, {"seat": []}],
                    "parameters": [deal_id],
                    "responses": ok(ref("AuditReport")),
                }
            },
            "/health": {
                "get": {
                    "summary": "200 while the event store answers, 503 (DS-12) while it does not",
                    "responses": ok(ref("Health")),
                }
            },
            "/games": {
                "get": {"summary": "the games, their seat counts and bot levels", "responses": ok(None)}
            },
        },
    }
