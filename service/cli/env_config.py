"""Every ``dealstream serve`` flag also as a ``DEALSTREAM_*`` variable, and ``--print-config``.

``--some-flag`` is read from ``DEALSTREAM_SOME_FLAG`` when the command line does not give it:
``install`` walks a subparser's actions (so a flag added later gets its variable without an edit
here) and ``resolve`` fills in, after parsing, what the command line left out: the variable's
value converted by the action's own ``type`` and checked against its ``choices`` (a flag without
a value, like ``--dev``, takes ``1/0``, ``true/false``, ``yes/no``, ``on/off``; a repeatable one
takes one value a line; an empty variable counts as unset). A bad value stops the start with a
sentence naming the variable. The command line beats the variable, the variable beats the
default. Two flags keep the names they had before this rule as well: ``DEALSTREAM_REDIS_URL``
(``--redis``) and ``DEALSTREAM_ARCHIVE_URL`` (``--archive``).

``describe`` lists the effective settings with where each came from (flag, env, default), with
the password of any URL masked: what ``--print-config`` prints.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit, urlunsplit

PREFIX = "DEALSTREAM_"
# the variables these flags were read from before every flag had one (still honoured, after the new name)
LEGACY = {"redis": ("DEALSTREAM_REDIS_URL",), "archive": ("DEALSTREAM_ARCHIVE_URL",)}
SOURCES = "_config_sources"  # the Namespace attribute: dest -> "flag" | "env NAME" | "default"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class _NotGiven:
    """The default ``install`` puts on each action: the command line did not give the flag."""

    def __repr__(self) -> str:  # shown nowhere (the help prints no defaults), but readable
        return "(not given)"


NOT_GIVEN = _NotGiven()


class BadVariable(ValueError):
    """A ``DEALSTREAM_*`` value the flag would refuse; the message is one sentence."""


def variable_names(action: argparse.Action) -> tuple[str, ...]:
    """``DEALSTREAM_<FLAG>`` for ``--flag`` (its first long option), then any older name."""
    long = next((o for o in action.option_strings if o.startswith("--")), action.option_strings[0])
    return (PREFIX + long.lstrip("-").replace("-", "_").upper(), *LEGACY.get(action.dest, ()))


def _actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    skip = (argparse._HelpAction, argparse._VersionAction)  # noqa: SLF001 - argparse's own kinds
    return [
        a
        for a in parser._actions  # noqa: SLF001 - the parser's flags, as argparse keeps them
        if a.option_strings and not isinstance(a, skip) and a.dest not in ("print_config",)
    ]


def install(parser: argparse.ArgumentParser) -> dict[str, Any]:
    """Mark which flags the command line gives: every flag's default becomes ``NOT_GIVEN``
    (a repeatable flag keeps ``None``, which already says so); the real defaults are returned
    for ``resolve``."""
    defaults: dict[str, Any] = {}
    for action in _actions(parser):
        defaults[action.dest] = action.default
        if not isinstance(action, argparse._AppendAction):  # noqa: SLF001
            action.default = NOT_GIVEN
    return defaults


def _convert(action: argparse.Action, name: str, text: str) -> Any:
    flag = (
        action.option_strings[-1] if action.option_strings[-1].startswith("--") else action.option_strings[0]
    )
    if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):  # noqa: SLF001
        word = text.strip().lower()
        if word not in _TRUE | _FALSE:
            raise BadVariable(f"{name}={text!r} is not a yes or no for {flag}: use 1/0 or true/false")
        on = word in _TRUE
        return on if isinstance(action, argparse._StoreTrueAction) else not on  # noqa: SLF001
    if action.nargs == 0:  # store_const and the like: set means given
        word = text.strip().lower()
        if word not in _TRUE | _FALSE:
            raise BadVariable(f"{name}={text!r} is not a yes or no for {flag}: use 1/0 or true/false")
        return action.const if word in _TRUE else None

    def one(value: str) -> Any:
        try:
            converted = action.type(value) if callable(action.type) else value
        except (argparse.ArgumentTypeError, TypeError, ValueError) as exc:
            kind = getattr(action.type, "__name__", "value")
            reason = str(exc) if isinstance(exc, argparse.ArgumentTypeError) else f"not a valid {kind}"
            raise BadVariable(f"{name}={value!r} is refused for {flag}: {reason}") from None
        if action.choices is not None and converted not in action.choices:
            choices = ", ".join(map(str, action.choices))
            raise BadVariable(f"{name}={value!r} is refused for {flag}: it is one of {choices}")
        return converted

    if isinstance(action, argparse._AppendAction):  # noqa: SLF001 - one value a line
        return [one(line) for line in text.splitlines() if line.strip()]
    return one(text)


def resolve(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    defaults: dict[str, Any],
    environ: Mapping[str, str] | None = None,
) -> None:
    """Fill in what the command line left out, from the variables, else the defaults; record
    each setting's source in ``args._config_sources``. ``BadVariable`` on a value the flag
    refuses."""
    environ = os.environ if environ is None else environ
    sources: dict[str, str] = {}
    for action in _actions(parser):
        dest = action.dest
        value = getattr(args, dest, NOT_GIVEN)
        given = value is not NOT_GIVEN and not (
            isinstance(action, argparse._AppendAction) and value is None  # noqa: SLF001
        )
        if given:
            sources[dest] = "flag"
            continue
        for name in variable_names(action):
            text = environ.get(name)
            if text and text.strip():  # an empty variable is an unset one, as it always was
                setattr(args, dest, _convert(action, name, text))
                sources[dest] = f"env {name}"
                break
        else:
            setattr(args, dest, defaults.get(dest))
            sources[dest] = "default"
    setattr(args, SOURCES, sources)


_SECRET_QUERY = re.compile(r"(?i)((?:password|passwd|pass|secret|token|key)=)[^&;]*")


def mask(value: Any) -> Any:
    """A setting as it may be shown: a URL's password (``redis://:pw@…``, ``postgresql://u:pw@…``)
    and ``password=…`` in a query string are replaced by ``***``."""
    if isinstance(value, list):
        return [mask(v) for v in value]
    if not isinstance(value, str) or "://" not in value:
        return value
    masked = []
    for part in value.split(","):  # a cluster URL lists several host:port pairs
        try:
            url = urlsplit(part)
        except ValueError:
            masked.append("***")
            continue
        netloc = url.netloc
        if "@" in netloc:
            userinfo, _, host = netloc.rpartition("@")
            user, has_password, _password = userinfo.partition(":")
            netloc = f"{user}:***@{host}" if has_password else f"{userinfo}@{host}"
        masked.append(urlunsplit((url.scheme, netloc, url.path, _SECRET_QUERY.sub(r"\1***", url.query), "")))
    return ",".join(masked)


def describe(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Each flag of ``parser``: its name, effective value (masked), source and variable."""
    sources = getattr(args, SOURCES, {})
    rows = []
    for action in _actions(parser):
        flag = next((o for o in action.option_strings if o.startswith("--")), action.option_strings[0])
        rows.append(
            {
                "flag": flag,
                "value": mask(getattr(args, action.dest, None)),
                "source": sources.get(action.dest, "default"),
                "env": variable_names(action)[0],
            }
        )
    return rows


def print_config(parser: argparse.ArgumentParser, args: argparse.Namespace, *, as_json: bool = False) -> int:
    """``--print-config``: one setting a line (``--flag value  (source)``), or one JSON object
    (``--print-config json``: each flag's value, source and variable name)."""
    rows = describe(parser, args)
    if as_json:
        print(
            json.dumps({r["flag"].lstrip("-"): {k: r[k] for k in ("value", "source", "env")} for r in rows})
        )
        return 0
    width = max(len(r["flag"]) for r in rows)
    for r in rows:
        value = r["value"]
        shown = "(unset)" if value is None else value if isinstance(value, str) else json.dumps(value)
        print(f"{r['flag']:<{width}}  {shown}  ({r['source']})")
    return 0
