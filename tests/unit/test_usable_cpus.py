"""``serve --processes`` by default: the cores the process may use, bounded by its cgroup's CPU
quota (a container started with ``--cpus 1.5`` runs two processes, not one per core of the host)."""

from __future__ import annotations

import os

from service.cli.serve import usable_cpus

PINNED = len(os.sched_getaffinity(0))


def test_no_quota_means_every_core_the_process_may_use(tmp_path):
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert usable_cpus(tmp_path) == PINNED
    assert usable_cpus(tmp_path / "absent") == PINNED


def test_a_cgroup_v2_quota_bounds_the_count_rounded_up(tmp_path):
    (tmp_path / "cpu.max").write_text("150000 100000\n")
    assert usable_cpus(tmp_path) == min(PINNED, 2)
    (tmp_path / "cpu.max").write_text("50000 100000\n")
    assert usable_cpus(tmp_path) == 1


def test_a_cgroup_v1_quota_bounds_the_count(tmp_path):
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("100000\n")
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert usable_cpus(tmp_path) == 1
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")
    assert usable_cpus(tmp_path) == PINNED
