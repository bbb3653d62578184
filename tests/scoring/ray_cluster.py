"""A two-node Ray cluster on loopback, started and stopped here, checked against local scoring.

Run by tests/scoring/test_ray_transport.py and benchmarks/scoring_service.py inside a private
network and PID namespace (`unshare -n -p -f --mount-proc`: `ray stop` in there reaches no other
Ray on the machine): Ray's gRPC servers listen on every interface and have no
option to bind to loopback only, so the namespace is what keeps the cluster off the network.

    python -m tests.scoring.ray_cluster --pages tests/probe/corpus --limit 8 --out result.json

Writes JSON: the nodes, where each actor ran, whether every verdict (gate, reward) matches
in-process scoring, the killed-actor check, and Chromium processes left after shutdown.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import psutil

from cogevol.probe import ProbeConfig
from cogevol.scoring import ScoreItem, Scorers, ScoringSettings
from cogevol.scoring.fingerprint import fingerprint
from cogevol.scoring.group_formats import group_items
from cogevol.scoring.ray_transport import RayConfig, RayScorers
from cogevol.scoring.service import free_port

ROOT = Path(__file__).parents[2]
RAY = str(Path(sys.executable).with_name("ray"))


def start_cluster(tmp: str, cpus: int) -> str:
    # token authentication off: the namespace is private, and a token file left in ~/.ray by a
    # local `ray.init` (Ray 2.60 makes one) would be read by the head and not by the second node
    os.environ["RAY_AUTH_MODE"] = "disabled"
    port = free_port()
    common = ["--num-cpus", str(cpus), "--node-ip-address", "127.0.0.1", "--disable-usage-stats"]
    subprocess.run([RAY, "start", "--head", "--port", str(port), "--temp-dir", tmp, "--include-dashboard=false", *common],
                   check=True, capture_output=True)
    subprocess.run([RAY, "start", "--address", f"127.0.0.1:{port}", *common], check=True, capture_output=True)
    return f"127.0.0.1:{port}"


def items_from(pages: Path, limit: int) -> list[ScoreItem]:
    htmls = sorted(pages.glob("*.html"))[:limit]
    decks = sorted((ROOT / "tests" / "slides" / "corpus").glob("*.json"))[:2]
    return ([ScoreItem("html", p.read_text(encoding="utf-8"), "", raw=True) for p in htmls]
            + [ScoreItem("slide", p.read_text(encoding="utf-8")) for p in decks])


def verdict(s) -> tuple:
    """Gate, reward and the probe's trace (both sides trace: it must come back over Ray too)."""
    return s.gate, s.reward, json.dumps(s.details.get("trace"))


async def check(address: str, items: list[ScoreItem], workers: int) -> dict:
    t0 = time.perf_counter()
    # the caller's settings differ from the defaults (page_timeout_s 20, tracing on): the actors
    # score with them, and so does the in-process baseline
    caller = ScoringSettings(probe=replace(ProbeConfig(), page_timeout_s=20.0, trace=True))
    async with Scorers(replace(caller, workers=workers)) as local:
        expected = [verdict(s) for s in await local.score(items)]
    local_s = time.perf_counter() - t0
    cfg = RayConfig(address=address, actors=2, workers_per_actor=1, chunk_items=2)
    out: dict = {"items": len(items), "local_s": round(local_s, 2)}
    async with RayScorers(caller, cfg) as ray_scorers:
        out["placement"] = ray_scorers.placement
        t0 = time.perf_counter()
        got = await ray_scorers.score(items)
        out["fingerprints"] = {"caller": fingerprint(replace(caller, workers=1)), "default": fingerprint(ScoringSettings()),
                               "actors": sorted({p["fingerprint_parts"]["fingerprint"] for p in ray_scorers.placement}),
                               "scores": sorted({g.fingerprint for g in got})}
        out["ray_s"] = round(time.perf_counter() - t0, 2)
        out["mismatches"] = [{"item": k, "local": e, "ray": verdict(g)} for k, (e, g) in enumerate(zip(expected, got))
                             if e != verdict(g)]
        # the same items as groups (each on one actor): the same verdicts with no judge configured
        groups, where = group_items(items)
        scored = await ray_scorers.score_groups(groups)
        out["group_mismatches"] = [k for k, (g, m) in enumerate(where) if verdict(scored[g].scores[m]) != expected[k]]
        # kill one actor's process while the batch is in flight: its chunks go to the other one
        seen: list[int] = []
        victim = ray_scorers.placement[0]["pid"]

        async def killer():
            await asyncio.sleep(1.0)
            os.kill(victim, signal.SIGKILL)

        kill = asyncio.ensure_future(killer())
        after = [None] * len(items)
        async for k, s in ray_scorers.stream(items):
            seen.append(k)
            after[k] = s
        await kill
        out["killed"] = {"pid": victim, "answers": len(seen), "distinct": len(set(seen)),
                         "actors_left": len(ray_scorers.actors),
                         "mismatches": [k for k, (e, g) in enumerate(zip(expected, after)) if e != verdict(g)]}
    return out


def chromium_after(t0: float) -> list[int]:
    """Chromium processes started since t0 and still running. Zombies are not: in the test's PID
    namespace this process is init, and nothing reaps the dead children of a killed actor."""
    return [p.pid for p in psutil.process_iter(["name", "create_time", "status"])
            if "chrom" in (p.info["name"] or "").lower() and (p.info["create_time"] or 0) >= t0
            and p.info["status"] != psutil.STATUS_ZOMBIE]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", default=str(ROOT / "tests" / "probe" / "corpus"))
    ap.add_argument("--limit", type=int, default=6)
    ap.add_argument("--workers", type=int, default=2, help="local scoring workers (the baseline)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="ray", dir="/tmp") as tmp:
        try:
            address = start_cluster(tmp, cpus=1)
            result = asyncio.run(check(address, items_from(Path(a.pages), a.limit), a.workers))
        finally:
            subprocess.run([RAY, "stop", "--force"], capture_output=True)
    time.sleep(1.0)
    result["chromium_left"] = chromium_after(t0)
    Path(a.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
