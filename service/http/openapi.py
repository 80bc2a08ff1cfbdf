"""The OpenAPI 3.1 document, built from the route table (``route_table.ROUTES``, the same table
``build_app`` mounts) and the msgspec types the handlers really decode and encode."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from domain.game import GAMES, get_game
from service import __version__
from service.http.problems import PROBLEM_TYPE, Problem, status_for
from service.http.route_table import RETRY_AFTER_RULES, ROUTES, Answer, Route

DESCRIPTION = "Paohuzi and MCR deals as event logs"
REF = "#/components/schemas/{name}"


def _ref(type_: Any) -> dict[str, Any]:
    return {"$ref": REF.format(name=type_.__name__)}


def _schema(body: Any) -> dict[str, Any]:
    if body is None:
        return {"type": "object"}
    if isinstance(body, tuple):
        return {"oneOf": [_ref(t) for t in body]}
    return _ref(body)


def _named_types() -> list[Any]:
    """Every type a route decodes or encodes, once, in the table's order; then the problem."""
    named: list[Any] = []
    for route in ROUTES:
        for answer in route.answers:
            bodies = answer.body if isinstance(answer.body, tuple) else (answer.body,)
            named += [b for b in bodies if b is not None]
        if route.request is not None:
            named.append(route.request)
    return [*dict.fromkeys(named), Problem]


def _wire_types(components: dict[str, Any]) -> None:
    """What the types cannot say themselves. The command side types ``CommandAnswer.view`` as
    anything; on the wire it is the seat view (an object) or null. ``CommandResult`` was the
    HTTP layer's copy of ``CommandAnswer``: the name stays for clients built from older documents."""
    components["CommandAnswer"]["properties"]["view"] = {
        "anyOf": [{"type": "object"}, {"type": "null"}],
        "default": None,
    }
    components["CommandResult"] = {
        "$ref": REF.format(name="CommandAnswer"),
        "description": "the former name of CommandAnswer (the same JSON)",
    }


def _errors(route: Route) -> dict[str, Any]:
    """One answer per error status the route can give, naming its rules; ``default`` for the
    problems aiohttp itself gives before a handler runs (unknown path, method, bad header)."""
    by_status: dict[int, list[str]] = {}
    for rule in route.errors:
        by_status.setdefault(status_for(rule), []).append(rule)
    problem = {PROBLEM_TYPE: {"schema": {"$ref": REF.format(name="Problem")}}}
    answers: dict[str, Any] = {}
    for status, rules in sorted(by_status.items()):
        answer: dict[str, Any] = {
            "description": f"problem details (RFC 9457), `rule`: {', '.join(rules)}",
            "content": problem,
        }
        waits = sorted(RETRY_AFTER_RULES.intersection(rules))
        if waits:
            answer["headers"] = {
                "Retry-After": {
                    "description": f"seconds to wait (with {', '.join(waits)})",
                    "schema": {"type": "string"},
                }
            }
        answers[str(status)] = answer
    answers["default"] = {
        "description": "problem details (RFC 9457) with the broken rule id in `rule`",
        "content": problem,
    }
    return answers


def _success(answer: Answer) -> dict[str, Any]:
    if answer.status == 204:  # no content
        return {"description": answer.description}
    return {"description": answer.description, "content": {answer.media: {"schema": _schema(answer.body)}}}


def _operation(route: Route) -> dict[str, Any]:
    operation: dict[str, Any] = {}
    if route.summary:
        operation["summary"] = route.summary
    if route.seat == "required":
        operation["security"] = [{"seat": []}]
    elif route.seat == "optional":
        operation["security"] = [{}, {"seat": []}]
    if route.parameters:
        operation["parameters"] = list(route.parameters)
    if route.request is not None:
        operation["requestBody"] = {
            "required": route.request_required,
            "content": {"application/json": {"schema": _ref(route.request)}},
        }
    operation["responses"] = {
        **{str(answer.status): _success(answer) for answer in route.answers},
        **_errors(route),
    }
    return operation


@cache
def openapi_document() -> dict[str, Any]:
    games = [get_game(name) for name in GAMES]
    named = _named_types()
    commands = [g.command_type for g in games]
    (generated, components) = msgspec.json.schema_components(named + commands, ref_template=REF)
    for game, schema in zip(games, generated[len(named) :], strict=True):
        components[f"{game.name}_command"] = schema
    _wire_types(components)
    paths: dict[str, dict[str, Any]] = {}
    for route in ROUTES:
        if route.documented:
            paths.setdefault(route.path, {})[route.method.lower()] = _operation(route)
    return {
        "openapi": "3.1.0",
        "info": {"title": "dealstream", "version": __version__, "description": DESCRIPTION},
        "components": {
            "schemas": components,
            "securitySchemes": {"seat": {"type": "http", "scheme": "bearer"}},
        },
        "paths": paths,
    }
