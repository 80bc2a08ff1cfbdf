"""One version, shown in four places: ``dealstream --version``, ``/health``, ``/openapi.json``'s
``info.version`` and the metric ``dealstream_build_info``; and ``--metrics-host`` binds /metrics
where it says."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from service import __version__
from tests.reliability.harness import ROOT, ServiceProcess, free_port


def test_the_version_is_one_string_and_the_package_reads_it() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "service.__version__"}
    from importlib.metadata import version

    assert version("dealstream") == __version__


def test_the_command_prints_its_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "--version"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"dealstream {__version__}"


async def test_health_and_openapi_tell_the_version(http) -> None:
    resp = await http.get("/health")
    assert resp.status == 200
    assert (await resp.json())["version"] == __version__
    resp = await http.get("/openapi.json")
    assert resp.status == 200
    assert (await resp.json())["info"]["version"] == __version__


@pytest.mark.timeout(900)
async def test_metrics_tell_the_version_on_the_host_asked_for(real_redis_url, key_prefix) -> None:
    port = free_port()
    # 127.0.0.2 is loopback too on Linux: served there, and not on 127.0.0.1
    flags = ["--no-archiver", "--metrics-port", str(port), "--metrics-host", "127.0.0.2"]
    service = ServiceProcess(real_redis_url, key_prefix, *flags).start()
    try:
        await service.ready(60)
        async with aiohttp.ClientSession() as scraper:
            async with scraper.get(f"http://127.0.0.2:{port}/metrics") as resp:
                assert resp.status == 200
                text = await resp.text()
            with pytest.raises(aiohttp.ClientConnectionError):
                async with scraper.get(f"http://127.0.0.1:{port}/metrics"):
                    pass
    finally:
        service.cleanup()
    families = {f.name: f for f in text_string_to_metric_families(text)}
    info = families["dealstream_build_info"]
    assert [(s.labels, s.value) for s in info.samples] == [({"version": __version__}, 1.0)]
