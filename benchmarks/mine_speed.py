"""Mining throughput: parse, validate and scrub (target >= 50,000 records/s), and the whole
mine stage, against a parse-only baseline measured in the same run.

Run: python benchmarks/mine_speed.py [--n 200000]
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path

import orjson

from cogevol.traffic import pii
from cogevol.traffic.mine import run_mine
from cogevol.traffic.readers import read_jsonl
from cogevol.traffic.schema import validate
from cogevol_samples.traffic import generate_traffic

ROOT = Path(__file__).resolve().parents[1]


def best_of(fn, repeats: int = 3) -> float:
    return min(_timed(fn) for _ in range(repeats))


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "mine_speed.json"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "traffic.jsonl"
        src.write_bytes(b"\n".join(orjson.dumps(r) for r in generate_traffic(a.n, seed=9)) + b"\n")
        mb = src.stat().st_size / 1e6

        def parse_only():
            for _ in read_jsonl(str(src)):
                pass

        def parse_validate_scrub():
            for raw in read_jsonl(str(src)):
                conv = validate(raw.obj)
                for m in conv.messages:
                    pii.scrub(m["content"])

        base = best_of(parse_only)
        pvs = best_of(parse_validate_scrub)
        full = best_of(lambda: run_mine([str(src)], Path(tmp) / "out"), repeats=1)
    result = {
        "machine": f"{platform.machine()}, 1 process", "records": a.n, "input_mb": round(mb, 1),
        "parse_only_rps": round(a.n / base), "parse_validate_scrub_rps": round(a.n / pvs),
        "full_mine_stage_rps": round(a.n / full), "scrub_validate_cost_vs_parse": round(pvs / base, 2),
        "meets_50k": a.n / pvs >= 50_000,
    }
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
