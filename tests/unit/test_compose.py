"""compose.yaml runs what docs/runbook.md describes, with flags that exist (issue 26): every
``--flag`` the dealstream service's ``command:`` passes is one ``dealstream serve --help`` lists,
every ``DEALSTREAM_*`` variable it sets names a serve flag (or one of the two older names), Redis
keeps its append-only file fsynced on every write, and the proxy's configuration turns buffering
off for the live streams."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def serve_help() -> str:
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "serve", "--help"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return done.stdout


def flags_of(command: list[str] | str) -> set[str]:
    words = command.split() if isinstance(command, str) else [str(w) for w in command]
    return {w.split("=", 1)[0] for w in words if w.startswith("--")}


def test_every_flag_compose_passes_to_serve_exists():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    service = compose["services"]["dealstream"]
    command = service["command"]
    assert command[:2] == ["dealstream", "serve"]
    helped = set(re.findall(r"(--[a-z][a-z0-9-]*)", serve_help()))
    passed = flags_of(command)
    assert passed, "compose passes no flag: the check would be empty"
    assert passed <= helped, sorted(passed - helped)
    variables = {"DEALSTREAM_" + flag.lstrip("-").replace("-", "_").upper() for flag in helped} | {
        "DEALSTREAM_REDIS_URL",
        "DEALSTREAM_ARCHIVE_URL",
    }
    assert set(service.get("environment", {})) <= variables, sorted(set(service["environment"]) - variables)


def test_compose_keeps_the_runbook_durable_and_the_streams_unbuffered():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    redis = " ".join(compose["services"]["redis"]["command"])
    assert "--appendonly yes" in redis and "--appendfsync always" in redis
    assert compose["services"]["dealstream"]["environment"]["DEALSTREAM_ARCHIVE_URL"].startswith(
        "postgresql://"
    )
    proxy = compose["services"]["proxy"]
    conf = next(v.split(":")[0] for v in proxy["volumes"] if "nginx.conf" in v)
    text = (ROOT / conf).read_text()
    assert "proxy_buffering off" in text and "proxy_read_timeout 1h" in text
    # every location passes the scheme on, or the session cookie loses its Secure flag behind it
    locations = text.count("proxy_pass ")
    assert text.count("proxy_set_header X-Forwarded-Proto $scheme;") == locations
    runbook = (ROOT / "docs" / "runbook.md").read_text()
    for needle in ("proxy_buffering off", "appendfsync always", "export --all", "import --all", "/ready"):
        assert needle in runbook, needle
