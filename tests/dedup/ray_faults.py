"""Dedup on a two-node Ray cluster on loopback that loses a worker and then a whole node
mid-run, checked against the in-process run: the job finishes through Ray's own task retries and
lineage reconstruction, and every output file is the in-process one, byte for byte.

Run by tests/dedup/test_ray_faults.py inside private network and PID namespaces
(`unshare -n -p -f --mount-proc`), as the scoring cluster test is: Ray's servers listen on every
interface, the network namespace keeps the test cluster off the network, and the PID namespace
keeps `ray stop` (and the cluster's end with the namespace) away from any other Ray on the
machine, the test session's own included.

    unshare -n -p -f --mount-proc sh -c "ip link set lo up && python -m tests.dedup.ray_faults --out r.json"

Writes JSON: what was killed when (seconds into the Ray run, and the last step finished by then),
the Ray run's time, and which outputs differ from the in-process run's (none, to pass).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import orjson
import psutil

from cogevol.core import shards
from cogevol.dedup.engines import dedup
from cogevol.pipeline.curation import CurationConfig
from cogevol.scoring.service import free_port

ROOT = Path(__file__).parents[2]
RAY = str(Path(sys.executable).with_name("ray"))
OUTPUTS = ("deduped_queries.csv", "query_groups.csv", "semantic_deduped_queries.csv",
           "semantic_query_groups.csv", "vetoed_links.csv", "deduped.jsonl")


def raylets() -> set[int]:
    return {p.pid for p in psutil.process_iter(["name", "cmdline"])
            if "raylet" in (p.info["name"] or "") or any("raylet" in c for c in (p.info["cmdline"] or [])[:1])}


def start_cluster(tmp: str) -> tuple[str, int]:
    """A head and a second node, one CPU each; returns (address, the second node's raylet).
    Token authentication off: the namespace is private, and a token file left in ~/.ray by a
    local `ray.init` would otherwise be read by one side and not the other."""
    os.environ["RAY_AUTH_MODE"] = "disabled"
    port = free_port()
    common = ["--num-cpus", "1", "--node-ip-address", "127.0.0.1", "--disable-usage-stats"]
    subprocess.run([RAY, "start", "--head", "--port", str(port), "--temp-dir", tmp,
                    "--include-dashboard=false", *common], check=True, capture_output=True)
    before = raylets()
    subprocess.run([RAY, "start", "--address", f"127.0.0.1:{port}", *common], check=True,
                   capture_output=True)
    for _ in range(50):
        new = raylets() - before
        if new:
            return f"127.0.0.1:{port}", new.pop()
        time.sleep(0.1)
    raise RuntimeError("the second node's raylet did not show up")


def joined(path: Path) -> bytes:
    out = b""
    for k, part in enumerate(shards.parts(path)):
        data = Path(part).read_bytes()
        out += data if k == 0 or not part.endswith(".csv") else data.split(b"\r\n", 1)[1]
    return out


class Steps(logging.Handler):
    """The Ray run's progress lines, to say after which finished step each kill landed."""

    def __init__(self):
        super().__init__()
        self.last = "none (reading)"

    def emit(self, record: logging.LogRecord) -> None:
        msg = record.getMessage()
        if msg.startswith("dedup[ray]"):
            self.last = msg.split(":")[0]


def killer(node2: int, kill_worker_at: float, kill_node_at: float, t0: float, steps: Steps,
           log: dict) -> None:
    """A busy worker process first, then the second node: its raylet and everything under it."""
    time.sleep(max(0.0, t0 + kill_worker_at - time.time()))
    busy = []
    while not busy and time.time() < t0 + kill_node_at:  # a worker running a task, not an agent
        busy = [p for p in psutil.process_iter(["name"])
                if (p.info["name"] or "").startswith(("ray::MapBatches", "ray::reduce", "ray::map"))]
        time.sleep(0.05)
    if busy:
        os.kill(busy[0].pid, signal.SIGKILL)
        log["worker"] = {"pid": busy[0].pid, "name": busy[0].info["name"],
                         "at_s": round(time.time() - t0, 1), "after": steps.last}
    time.sleep(max(0.0, t0 + kill_node_at - time.time()))
    node = psutil.Process(node2)
    procs = [node, *node.children(recursive=True)]
    log["node"] = {"processes": len(procs), "workers": sum("ray::" in (p.name() or "") for p in procs),
                   "at_s": round(time.time() - t0, 1), "after": steps.last}
    for p in procs:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=20000)
    ap.add_argument("--kill-worker-at", type=float, default=14.0, help="seconds into the Ray run")
    ap.add_argument("--kill-node-at", type=float, default=24.0)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    for name in ("ray", "ray.data"):
        logging.getLogger(name).setLevel(logging.WARNING)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from querygen import short_queries

    result: dict = {"queries": a.queries}
    with tempfile.TemporaryDirectory(prefix="rayf", dir="/tmp") as tmp:
        work = Path(tmp)
        queries, _ = short_queries(a.queries, seed=7)
        inp = work / "in.jsonl"
        inp.write_bytes(b"".join(orjson.dumps({"id": f"q{i}", "query": q}) + b"\n"
                                 for i, q in enumerate(queries)))
        t = time.perf_counter()
        dedup(inp, "query", work / "local", survivors=True)
        result["local_s"] = round(time.perf_counter() - t, 1)
        try:
            address, node2 = start_cluster(str(work / "ray"))
            steps = Steps()
            logging.getLogger("cogevol.raydata.session").addHandler(steps)
            kills: dict = {}
            t0 = time.time()
            th = threading.Thread(target=killer, args=(node2, a.kill_worker_at, a.kill_node_at, t0,
                                                       steps, kills), daemon=True)
            th.start()
            where = CurationConfig.from_params(
                {"curation": {"engine": "ray", "ray": {"address": address, "chunk_mb": 0.25,
                                                        "rows_per_partition": 2000}}})
            summary, _ = dedup(inp, "query", work / "ray_out", survivors=True, where=where)
            result["ray_s"] = round(time.time() - t0, 1)
            th.join(timeout=60)
            result["killed"] = kills
            result["finished_after_kills"] = "node" in kills and result["ray_s"] > kills["node"]["at_s"]
            result["groups"] = summary["semantic_groups"]
            result["differ"] = [n for n in OUTPUTS
                                if joined(work / "ray_out" / n) != (work / "local" / n).read_bytes()]
        finally:
            subprocess.run([RAY, "stop", "--force"], capture_output=True)
    Path(a.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
