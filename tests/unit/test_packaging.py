"""The product as packaged: the licence, the changelog, and an image built in two stages whose
final one has no compiler, runs as a user that is not root, keeps its data in a volume and says
whether it is healthy."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_licence_and_changelog():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "## Unreleased" in (ROOT / "CHANGELOG.md").read_text()
    dev = " ".join(project["optional-dependencies"]["dev"])
    assert "ruff" in dev and "mypy" in dev


def stages(text: str) -> list[str]:
    return re.split(r"^FROM ", text, flags=re.M)[1:]


def test_the_image_is_two_stages_with_no_compiler_in_the_last():
    text = (ROOT / "Dockerfile").read_text()
    build, final = stages(text)
    assert "g++" in build and "g++" not in final and "gcc" not in final
    assert "--from=build" in final
    # the dependencies' layer comes before the code is copied, so a code change keeps it
    assert build.index("pip wheel") < build.index("COPY service")
    users = re.findall(r"^USER (\S+)", final, flags=re.M)
    assert users and users[-1] not in ("root", "0")
    assert re.search(r"^VOLUME ", final, flags=re.M)
    assert re.search(r"^HEALTHCHECK .*", final, flags=re.M)
    assert "--metrics-host" in final
