"""The scoring service against in-process scoring, under overload, and on a two-node Ray cluster.

Targets (issue 12):
- overhead: the probe corpus scored through `cogevol serve` (HTTP client, batches of 8) takes at
  most 10% longer than in process with the same workers, the same verdicts;
- overload: 200 concurrent one-page requests from bounded local clients against a queue of
  `--queue` items: none lost, none answered twice, 429s once the queue is full, p50 / p95;
- Ray: a head and a second node on loopback give the same verdicts as in process, and a killed
  actor's items are retried on the other (tests/scoring/ray_cluster.py, in `unshare -n -p`).

Run: python benchmarks/scoring_service.py [--workers 2] [--rounds 2] [--skip-ray]
Writes benchmarks/results/scoring_service.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from cogevol.core.logs import setup_logging
from cogevol.scoring import ScoreItem, Scorers, ScoringSettings
from cogevol.scoring.http_client import HttpScorers
from cogevol.scoring.service import ServeConfig, serve_in_background

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "probe" / "corpus"


def corpus() -> list[ScoreItem]:
    return [ScoreItem("html", p.read_text(encoding="utf-8"), "", raw=True) for p in sorted(CORPUS.glob("*.html"))]


def verdicts(scores) -> list[tuple]:
    return [(s.gate, s.reward) for s in scores]


async def timed(scorers, items) -> tuple[float, list]:
    t = time.perf_counter()
    scores = await scorers.score(items)
    return time.perf_counter() - t, scores


def overhead(items: list[ScoreItem], workers: int, rounds: int) -> dict:
    """Alternate in-process and service runs on warm browsers (startup is not scoring)."""
    settings = ScoringSettings(workers=workers)
    local_s, http_s, same = [], [], True

    async def local_round():
        async with Scorers(settings) as s:
            await s.score(items[:2])  # warm-up
            return await timed(s, items)

    with serve_in_background(Scorers(settings), ServeConfig(max_queue=4 * len(items)), workers=workers) as (url, _):
        async def http_round():
            async with HttpScorers(url, batch_items=8) as h:
                await h.score(items[:2])
                return await timed(h, items)

        for r in range(rounds):
            t_local, a = asyncio.run(local_round())
            t_http, b = asyncio.run(http_round())
            local_s.append(t_local)
            http_s.append(t_http)
            same = same and verdicts(a) == verdicts(b)
            print(f"round {r + 1}: in process {t_local:.1f} s, service {t_http:.1f} s", flush=True)
    ratio = statistics.median(h / lo for h, lo in zip(http_s, local_s))
    return {"pages": len(items), "workers": workers, "in_process_s": [round(x, 2) for x in local_s],
            "service_s": [round(x, 2) for x in http_s], "overhead_median": round(ratio - 1, 4), "same_verdicts": same}


def overload(items: list[ScoreItem], workers: int, requests: int, clients: int, queue: int) -> dict:
    light = [it for it in items if len(it.text) < 6000][:20]
    with serve_in_background(Scorers(ScoringSettings(workers=workers)), ServeConfig(max_queue=queue), workers=workers) as (url, app):
        async def go():
            limits = httpx.Limits(max_connections=clients)
            sem = asyncio.Semaphore(clients)
            answers: dict[int, int] = {}
            rejected = 0
            latency = []

            async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as c:
                async def one(n: int):
                    nonlocal rejected
                    item = light[n % len(light)]
                    body = {"items": [{"modality": "html", "text": item.text, "raw": True}]}
                    t = time.perf_counter()
                    async with sem:
                        for _ in range(200):
                            r = await c.post("/score", json=body)
                            if r.status_code != 429:
                                break
                            rejected += 1
                            await asyncio.sleep(float(r.headers["retry-after"]))
                    latency.append(time.perf_counter() - t)
                    if r.status_code == 200 and len(r.json()["scores"]) == 1:
                        answers[n] = answers.get(n, 0) + 1

                t0 = time.perf_counter()
                await asyncio.gather(*(one(n) for n in range(requests)))
                wall = time.perf_counter() - t0
                metrics = (await c.get("/metrics")).text
            return answers, rejected, latency, wall, metrics

        answers, rejected, latency, wall, metrics = asyncio.run(go())
        served = sum(v._value.get() for v in [app.state.service.metrics.items.labels("html", g) for g in ("pass", "fail", "none")])
    q = statistics.quantiles(latency, n=20)
    return {"requests": requests, "clients": clients, "queue": queue, "workers": workers,
            "answered": len(answers), "answered_twice": sum(v > 1 for v in answers.values()), "lost": requests - len(answers),
            "items_scored_by_service": int(served), "responses_429": rejected, "wall_s": round(wall, 1),
            "pages_per_s": round(requests / wall, 2), "request_p50_s": round(statistics.median(latency), 2),
            "request_p95_s": round(q[18], 2),
            "service_item_p50_s": _gauge(metrics, 'cogevol_scoring_latency_seconds{quantile="0.5"}'),
            "service_item_p95_s": _gauge(metrics, 'cogevol_scoring_latency_seconds{quantile="0.95"}')}


def _gauge(text: str, name: str) -> float | None:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return round(float(line.split()[-1]), 3)
    return None


def ray_cluster(limit: int) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        cmd = f"ip link set lo up && exec {sys.executable} -m tests.scoring.ray_cluster --limit {limit} --out {f.name}"
        t = time.perf_counter()
        p = subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "sh", "-c", cmd], cwd=ROOT, capture_output=True, text=True)
        if p.returncode != 0:
            return {"error": p.stderr[-2000:]}
        out = json.loads(Path(f.name).read_text())
        out["total_s"] = round(time.perf_counter() - t, 1)
        return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--queue", type=int, default=16)
    ap.add_argument("--skip-ray", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "scoring_service.json"))
    a = ap.parse_args()
    setup_logging("WARNING")
    items = corpus()
    result = {"overhead": overhead(items, a.workers, a.rounds)}
    print(json.dumps(result["overhead"]), flush=True)
    result["overload"] = overload(items, a.workers, a.requests, a.clients, a.queue)
    print(json.dumps(result["overload"]), flush=True)
    if not a.skip_ray:
        result["ray"] = ray_cluster(limit=len(items))
        print(json.dumps({k: v for k, v in result["ray"].items() if k != "placement"}), flush=True)
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
