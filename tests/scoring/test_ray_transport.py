"""The Ray backend on a real two-node cluster (a head and a second node, both started here on
loopback inside a private network namespace): same verdicts as in-process scoring, actors on
both nodes, and a killed actor's items retried on the other with none lost or answered twice."""

import json
import subprocess
import sys

import pytest

from tests.private_network import NS, needs_private_network

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]


# 80-90 s on 2 cores: in the slow set (`make test-all`) so `make test` stays under 15 minutes
@pytest.mark.slow
@needs_private_network
def test_two_node_cluster_matches_local_scoring_and_survives_a_killed_actor(tmp_path):
    out = tmp_path / "ray.json"
    cmd = f"ip link set lo up && exec {sys.executable} -m tests.scoring.ray_cluster --limit 6 --out {out}"
    p = subprocess.run([*NS, "sh", "-c", cmd], capture_output=True, text=True, timeout=360)
    assert p.returncode == 0, p.stderr[-3000:]
    r = json.loads(out.read_text())
    assert r["items"] == 8 and len({a["node"] for a in r["placement"]}) == 2  # one actor per node
    assert r["mismatches"] == []  # the same gate and reward as in process
    assert r["group_mismatches"] == []  # and scored as groups, each group on one actor
    f = r["fingerprints"]  # scored with the caller's settings (a non-default page timeout), not the defaults
    assert f["actors"] == f["scores"] == [f["caller"]] and f["caller"] != f["default"]
    k = r["killed"]
    assert k["answers"] == k["distinct"] == r["items"] and k["mismatches"] == [] and k["actors_left"] == 1
    assert r["chromium_left"] == []
