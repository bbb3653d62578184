"""Dedup on a real two-node Ray cluster (a head and a second node on loopback, in a private
network namespace) that loses a worker mid-task and then the whole second node: the job finishes
through Ray's retries and lineage, and every output equals the in-process run's, byte for byte."""

import json
import subprocess
import sys

import pytest

from tests.private_network import NS, needs_private_network

pytestmark = [pytest.mark.timeout(400)]


# 80-90 s on 2 cores: in the slow set (`make test-all`) so `make test` stays under 15 minutes
@pytest.mark.slow
@needs_private_network
def test_a_killed_worker_and_a_killed_node_lose_nothing_and_change_nothing(tmp_path):
    out = tmp_path / "faults.json"
    cmd = (f"ip link set lo up && exec {sys.executable} -m tests.dedup.ray_faults --queries 8000 "
           f"--kill-worker-at 9 --kill-node-at 16 --out {out}")
    p = subprocess.run([*NS, "sh", "-c", cmd], capture_output=True, text=True, timeout=380)
    assert p.returncode == 0, p.stderr[-3000:]
    r = json.loads(out.read_text())
    assert r["differ"] == [] and r["groups"] > 0
    worker, node = r["killed"]["worker"], r["killed"]["node"]
    assert worker["name"].startswith(("ray::MapBatches", "ray::reduce", "ray::map"))  # a task's process
    assert r["ray_s"] > worker["at_s"] and node["at_s"] > worker["at_s"]  # killed mid-run
    assert node["workers"] >= 1 and r["finished_after_kills"]  # the node had work, and the run outlived it
