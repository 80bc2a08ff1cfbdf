"""``dealstream serve``: the HTTP API and the web client on one Redis (the embedded one by default)."""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import sys
from pathlib import Path


def cmd_serve(args: argparse.Namespace) -> int:
    from aiohttp import web

    from service import bootstrap, log_format
    from service.cli import processes
    from service.store.connection import resolve_redis_url
    from service.store.embedded import DataDirInUse

    fmt = args.log_format or os.environ.get("DEALSTREAM_LOG_FORMAT") or "plain"
    if fmt not in log_format.FORMATS:
        print(f"dealstream: DEALSTREAM_LOG_FORMAT is one of {', '.join(log_format.FORMATS)}", file=sys.stderr)
        return 2
    log_format.configure(fmt)
    metrics_port, metrics_required = metrics_port_of(args)
    role = processes.worker_role()  # one of the workers of a serve --processes N
    # a worker is one process; so is a serve on port 0 (each process would get a port of its own)
    count = 1 if role is not None or args.port == 0 else (args.processes or usable_cpus())
    if role is not None and metrics_port:
        metrics_port += role.index  # each worker serves its own metrics: port + its index
    from service import startup_checks

    try:  # before anything is made in it
        startup_checks.check_data_dirs(args.redis, args.archive, args.data_dir, archive=True)
        url, embedded = resolve_redis_url(args.redis, args.data_dir, owner=True)
    except (DataDirInUse, startup_checks.Refused) as exc:
        print(f"dealstream: {exc}", file=sys.stderr)
        return 1
    settings = bootstrap.Settings(
        prefix=args.prefix,
        dev=args.dev,
        bot_delay=args.bot_delay,
        create_limit=args.create_limit,
        trusted_proxies=tuple(args.trusted_proxy or ()),
        max_streams=args.max_streams,
        streams_per_address=args.streams_per_address,
        program_processes=args.bot_program_processes,
        program_processes_per_address=args.bot_program_processes_per_address,
        keepalive=args.keepalive,
        redis_timeout=args.redis_timeout,
        bot_budget=args.bot_budget,
        bot_workers=args.bot_workers,
        review_nice=args.review_nice,
        wait_replicas=args.wait_replicas,
        archive_url=args.archive,
        data_dir=args.data_dir,
        archive_after_s=None if args.no_archiver else args.archive_after,
        metrics_port=metrics_port or None,
        metrics_host=args.metrics_host,
        metrics_required=metrics_required,
    )
    try:
        try:  # the store and the archive, before the service listens
            report = asyncio.run(startup_checks.run(url, settings))
        except startup_checks.Refused as exc:
            print(f"dealstream: {exc}", file=sys.stderr)
            return 1
        where = f"embedded Redis at {url}" if embedded else url.split("@")[-1]
        if role is None:
            many = f"; {count} processes" if count > 1 else ""
            print(f"dealstream on http://{args.host}:{args.port}/ (events in {where}{many})", flush=True)
        if count > 1:
            return processes.supervise(args.argv, url, count)

        async def app() -> web.Application:
            served = await bootstrap.serve(url, settings, report)
            served.on_startup.insert(0, processes.stop_on_signals)
            return served

        web.run_app(
            app(), host=args.host, port=args.port, print=processes.ready_callback(role), access_log=None,
            reuse_port=role is not None, shutdown_timeout=processes.SHUTDOWN_S, handle_signals=False,
        )  # fmt: skip
    finally:
        if embedded is not None:
            embedded.stop()
    return 0


def metrics_port_of(args: argparse.Namespace) -> tuple[int, bool]:
    """The metrics port (0: off) and whether it was asked for (then a port that cannot be bound
    stops the start): ``--metrics-port``, else ``DEALSTREAM_METRICS_PORT``, else the default."""
    from service.bootstrap import DEFAULT_METRICS_PORT

    if args.metrics_port is not None:
        return args.metrics_port, True
    env = os.environ.get("DEALSTREAM_METRICS_PORT")
    if env:
        if not env.isdigit() or int(env) > 65535:
            raise SystemExit(f"dealstream: DEALSTREAM_METRICS_PORT is a port number, not {env!r}")
        return int(env), True
    return DEFAULT_METRICS_PORT, False


def usable_cpus(cgroup: Path = Path("/sys/fs/cgroup")) -> int:
    """The cores this process may use: those it is pinned to, bounded by a CPU quota of its cgroup
    (a container's ``--cpus``), rounded up; at least 1."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    quota = _cgroup_quota(cgroup)
    if quota is not None:
        cores = min(cores, max(1, math.ceil(quota)))
    return max(1, cores)


def _cgroup_quota(cgroup: Path) -> float | None:
    """The CPU quota in cores: cgroup v2's ``cpu.max`` (``max 100000``: none), else v1's
    ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us`` (-1: none)."""
    try:
        quota, period = (cgroup / "cpu.max").read_text().split()[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    try:
        quota_us = int((cgroup / "cpu" / "cpu.cfs_quota_us").read_text())
        period_us = int((cgroup / "cpu" / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return None if quota_us <= 0 or period_us <= 0 else quota_us / period_us
