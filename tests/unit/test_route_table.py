"""The route table is the one list of routes: the app ``bootstrap.application`` builds mounts
exactly the operations ``/openapi.json`` documents (plus the two that are not API operations),
each with a schema for its answers, its parameters and the rules it can answer; and every route
has its section in docs/api.md.

The app is built on a fake Redis client and never started: mounting needs no store.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import fakeredis
import msgspec
import pytest
from aiohttp import web

from service import bootstrap
from service.app.commands.terms import CommandAnswer
from service.http.openapi import openapi_document
from service.http.problems import status_for
from service.http.route_table import GAME_RULES, ROUTES

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
NOT_OPERATIONS = {("GET", "/"), ("GET", "/openapi.json")}  # the web client's page, the document


def mounted_routes(app: web.Application) -> set[tuple[str, str]]:
    """(method, path) of every route the app serves, leaving out the HEAD aiohttp adds to each
    GET and the web client's static files."""
    return {
        (route.method, resource.canonical)
        for resource in app.router.resources()
        if not isinstance(resource, web.StaticResource)
        for route in resource
        if route.method != "HEAD"
    }


def documented_routes(document: dict[str, Any]) -> set[tuple[str, str]]:
    return {(method.upper(), path) for path, operations in document["paths"].items() for method in operations}


def disagreements(app: web.Application, document: dict[str, Any]) -> dict[str, set[tuple[str, str]]]:
    """What the app and the document do not agree on, both ways."""
    mounted = mounted_routes(app) - NOT_OPERATIONS
    documented = documented_routes(document)
    return {"mounted, not documented": mounted - documented, "documented, not mounted": documented - mounted}


@pytest.fixture
def app() -> web.Application:
    return bootstrap.application(fakeredis.FakeAsyncRedis())


def test_the_app_serves_exactly_the_documented_routes(app):
    assert disagreements(app, openapi_document()) == {
        "mounted, not documented": set(),
        "documented, not mounted": set(),
    }
    assert {(r.method, r.path) for r in ROUTES if not r.documented} == NOT_OPERATIONS
    assert mounted_routes(app) >= NOT_OPERATIONS


def test_the_check_sees_a_route_mounted_by_hand_and_a_document_path_not_mounted(app):
    """The check above is not vacuous: a route added beside the table, or a path the document
    names that nothing serves, each make it fail."""

    async def stray(request: web.Request) -> web.Response:
        return web.Response()

    app.router.add_get("/deals/{deal_id}/stray", stray)
    document = dict(openapi_document())
    document["paths"] = {**document["paths"], "/ghost": {"get": {"responses": {}}}}
    assert disagreements(app, document) == {
        "mounted, not documented": {("GET", "/deals/{deal_id}/stray")},
        "documented, not mounted": {("GET", "/ghost")},
    }


def test_every_get_also_answers_head(app):
    """aiohttp mounts a HEAD with each GET; mounting from the table keeps that."""
    methods = {
        (route.method, resource.canonical) for resource in app.router.resources() for route in resource
    }
    for route in ROUTES:
        if route.method == "GET":
            assert ("HEAD", route.path) in methods, route.path


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return own + [r for value in node.values() for r in _refs(value)]
    if isinstance(node, list):
        return [r for value in node for r in _refs(value)]
    return []


def test_every_operation_has_schemas_parameters_and_its_errors():
    document = openapi_document()
    components = document["components"]["schemas"]
    for ref in _refs(document):
        assert ref.removeprefix("#/components/schemas/") in components, ref
    for route in ROUTES:
        if not route.documented:
            continue
        operation = document["paths"][route.path][route.method.lower()]
        where = f"{route.method} {route.path}"
        successes = [s for s in operation["responses"] if s.startswith("2")]
        assert successes, where
        for status in successes:
            if status == "204":  # no content
                assert "content" not in operation["responses"][status], where
                continue
            (content,) = operation["responses"][status]["content"].values()
            assert content["schema"], where
        named_in_path = set(re.findall(r"{(\w+)}", route.path))
        path_parameters = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
        assert path_parameters == named_in_path, where
        if route.request is not None:
            assert operation["requestBody"]["content"]["application/json"]["schema"], where
        for rule in route.errors:
            answer = operation["responses"][str(status_for(rule))]
            assert rule in answer["description"], (where, rule)
            assert "application/problem+json" in answer["content"], (where, rule)
        assert "default" in operation["responses"], where


def test_every_rule_a_route_names_is_documented():
    text = API_DOC.read_text(encoding="utf-8")
    for route in ROUTES:
        for rule in route.errors:
            if rule != GAME_RULES:
                assert f"| {rule} |" in text or f"`{rule}`" in text, (route.path, rule)


def test_every_route_has_its_section_with_an_example_and_its_errors_in_the_api_doc():
    """Each route's section shows a curl example, and its "Errors:" paragraph names exactly the
    statuses and rules the table gives it (a route without errors has no such paragraph)."""
    text = API_DOC.read_text(encoding="utf-8")
    for route in ROUTES:
        heading = f"### `{route.method} {route.path}`"
        assert heading in text, heading
        section = text.split(heading, 1)[1].split("\n### ", 1)[0]
        assert "curl " in section, heading
        paragraph = section.split("Errors:", 1)[1].split("\n\n", 1)[0] if "Errors:" in section else ""
        listed = set(re.findall(r"(\d{3}) `([^`]+)`", paragraph))
        assert listed == {(str(status_for(rule)), rule) for rule in route.errors}, heading


def test_a_command_answer_is_encoded_as_the_command_side_types_it():
    """The HTTP layer no longer copies ``CommandAnswer``: the bytes are the ones its copy gave."""
    answer = CommandAnswer(version=7, first_version=6, duplicate=False, events=[{"type": "Drew"}])
    assert msgspec.json.encode(answer) == (
        b'{"version":7,"first_version":6,"duplicate":false,"events":[{"type":"Drew"}],"view":null}'
    )
