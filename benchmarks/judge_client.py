"""Judge client throughput against a local OpenAI-compatible server with fixed latency and 429s.

For each concurrency, after an unmeasured warm-up: a cold run (N distinct prompts, each asked
twice, shuffled, all at once, fresh cache), a warm run (a new client on the same cache, the same
requests), a run without cache and a rate-limited run. Reports achieved throughput against the
theoretical max (concurrency / latency), max in flight, lost requests (must be 0) and HTTP calls
of the warm run (must be 0).

The server runs in a child process so its threads do not share our GIL.
Run: python benchmarks/judge_client.py [--concurrency 8 32] [--distinct 200] [--latency 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from cogevol.llm.aclient import AsyncChatClient
from cogevol.llm.cache import DiskCache
from cogevol.llm.client import EndpointConfig

ROOT = Path(__file__).resolve().parents[1]


def server_stats(url: str) -> dict:
    return httpx.get(url + "/stats").json()


async def fire(url: str, prompts: list[str], concurrency: int, cache: DiskCache | None,
               rate: float | None = None) -> dict:
    cfg = EndpointConfig(base_url=url, model="bench", api_key_env="", backoff_s=0.05,
                         timeout_s=10, max_retries=6)
    before = server_stats(url)
    async with AsyncChatClient(cfg, concurrency=concurrency, rate_per_s=rate, cache=cache) as c:
        t, cpu = time.perf_counter(), time.process_time()
        out = await asyncio.gather(*(c.chat([{"role": "user", "content": p}]) for p in prompts),
                                   return_exceptions=True)
        wall, cpu = time.perf_counter() - t, time.process_time() - cpu
        st = c.stats.summary()
    after = server_stats(url)
    lost = sum(1 for p, o in zip(prompts, out) if o != f"echo:{p}")
    http = after["calls"] - before["calls"]
    s429 = after["statuses"].get("429", 0) - before["statuses"].get("429", 0)
    arr = after["arrivals"][len(before["arrivals"]):]
    span = arr[-1] - arr[0] if len(arr) > 1 else 0.0
    return {"requests": len(prompts), "distinct": len(set(prompts)), "wall_s": round(wall, 3),
            "answers_per_s": round(len(prompts) / wall, 1),
            "distinct_per_s": round(len(set(prompts)) / wall, 1), "http_calls": http,
            "http_429": s429, "lost": lost,
            "http_arrivals_per_s": round((len(arr) - 1) / span, 1) if span else None, "client": st,
            "client_cpu_s": round(cpu, 3), "client_cpu_share": round(cpu / wall, 2),
            "server_max_in_flight": after["max_in_flight"]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--concurrency", type=int, nargs="+", default=[8, 32])
    ap.add_argument("--distinct", type=int, default=200)
    ap.add_argument("--latency", type=float, default=0.05)
    ap.add_argument("--every-429", type=int, default=25, help="every k-th server call is a 429")
    ap.add_argument("--retry-after", default="0.05")
    ap.add_argument("--rate", type=float, default=100.0, help="rate limit for the rate run")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "judge_client.json"))
    a = ap.parse_args()
    res: dict = {"machine": f"{os.cpu_count()} cores", "latency_s": a.latency,
                 "every_429": a.every_429, "retry_after_s": float(a.retry_after), "runs": {}}
    rng = random.Random(0)
    for conc in a.concurrency:
        # a fresh server per concurrency so its max_in_flight is this run's
        srv = subprocess.Popen([sys.executable, "-m", "tests.judge.server", "--delay",
                                str(a.latency), "--every-429", str(a.every_429), "--retry-after",
                                a.retry_after], cwd=ROOT, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
        try:
            url = srv.stdout.readline().strip()
            tag = f"c{conc}-{rng.random():.6f}"  # new prompts per concurrency: no cross-run hits
            distinct = [f"{tag} prompt {i}" for i in range(a.distinct)]
            prompts = distinct * 2
            rng.shuffle(prompts)
            # warm-up, not measured: first connections, server threads, first-call code paths
            asyncio.run(fire(url, [f"{tag} warm-up {i}" for i in range(2 * conc)], conc, None))
            with tempfile.TemporaryDirectory() as d:
                cold = asyncio.run(fire(url, prompts, conc, DiskCache(Path(d))))
                warm = asyncio.run(fire(url, prompts, conc, DiskCache(Path(d))))
            nocache = asyncio.run(fire(url, [p + " nc" for p in distinct], conc, None))
            rated = asyncio.run(fire(url, [p + " rl" for p in distinct[:100]], conc, None, a.rate))
        finally:
            srv.stdin.close()
            srv.wait(timeout=10)
        theo = conc / a.latency
        run = {"theoretical_max_per_s": round(theo, 1),
               "cold": cold, "warm": warm, "no_cache": nocache, "rate_limited": rated,
               "efficiency_no_cache": round(nocache["distinct_per_s"] / theo, 3),
               "efficiency_cold": round(cold["distinct_per_s"] / theo, 3),
               "rate_limit_per_s": a.rate,
               "rate_achieved_http_per_s": rated["http_arrivals_per_s"]}
        run["ok"] = (cold["lost"] == warm["lost"] == nocache["lost"] == rated["lost"] == 0
                     and warm["http_calls"] == 0
                     and cold["http_calls"] == a.distinct + cold["http_429"]
                     and cold["server_max_in_flight"] <= conc
                     and run["rate_achieved_http_per_s"] <= a.rate * 1.02)
        res["runs"][str(conc)] = run
        print(conc, json.dumps({k: v for k, v in run.items() if not isinstance(v, dict)}),
              flush=True)
    res["ok"] = all(r["ok"] for r in res["runs"].values())
    Path(a.out).write_text(json.dumps(res, indent=2) + "\n")
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
