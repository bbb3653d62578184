"""The task-type classifier on the labelled slice, and its throughput (issue 39, items 2 and 5).

    python benchmarks/taxonomy.py [--slice data/taxonomy/slice_test.jsonl] [--source rules]
                                  [--throughput 20000] [--ray] [--out benchmarks/results/taxonomy.json]

Agreement (cogevol_samples.taxonomy_validation): L1, L2, L3, difficulty exact and within one tier, and
language, overall and per language, with the most confused (gold, predicted) pairs. The slice
files are described in data/taxonomy/README.md: tune on slice_dev.jsonl, report
slice_test.jsonl.

Throughput: the slice's requests repeated to --throughput records and labelled offline in this
one process (one core; best and median of 3 passes), and with --ray on Ray Data (map_batches over the same records, this
machine's CPUs). Each record is labelled from scratch (no cache in the offline classifier).

--source replay|openai takes the `taxonomy` group of params.yaml for the endpoint (the LLM
classifier of seed 004 §3.3); seed 004 reports 90.5% L3 agreement for theirs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogevol.core.config import from_dict, load_params  # noqa: E402
from cogevol.taxonomy.classify import TaxonomyConfig, classify, label_one  # noqa: E402
from cogevol.taxonomy.tree import load  # noqa: E402
from cogevol_samples.taxonomy_validation import agreement  # noqa: E402


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def offline_rate(texts: list[str], n: int, passes: int = 3) -> dict:
    """Records/s over `passes` timed passes (this machine is shared: the best and the median)."""
    batch = (texts * (n // len(texts) + 1))[:n]
    label_one(batch[0])  # load the lexicons and the language model first
    rates = []
    for _ in range(passes):
        t0 = time.perf_counter()
        for t in batch:
            label_one(t)
        rates.append(n / (time.perf_counter() - t0))
    return {
        "records": n,
        "passes": passes,
        "records_per_s": round(max(rates)),
        "median_records_per_s": round(sorted(rates)[passes // 2]),
    }


def _label_batch(batch: dict) -> dict:
    from cogevol.taxonomy.classify import label_one as lab

    return {"l3": [lab(t).l3 for t in batch["request"]]}


def ray_rate(texts: list[str], n: int) -> dict:
    import ray

    batch = (texts * (n // len(texts) + 1))[:n]
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False)
    try:
        ds = ray.data.from_items([{"request": t} for t in batch])
        ds.map_batches(_label_batch, batch_size=2000).materialize()  # warm the workers
        t0 = time.perf_counter()
        out = ds.map_batches(_label_batch, batch_size=2000).count()
        dt = time.perf_counter() - t0
    finally:
        ray.shutdown()
    return {
        "records": out,
        "cpus": os.cpu_count(),
        "seconds": round(dt, 2),
        "records_per_s": round(out / dt),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--slice", nargs="+", default=["data/taxonomy/slice_test.jsonl"])
    ap.add_argument("--source", choices=("rules", "replay", "openai"), default="rules")
    ap.add_argument("--throughput", type=int, default=20000, help="records to time (0: skip)")
    ap.add_argument("--ray", action="store_true", help="also time the Ray Data path")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    tax = load()
    cfg = replace(from_dict(TaxonomyConfig, load_params().get("taxonomy")), source=a.source)
    result: dict = {"machine": f"{platform.machine()}, {os.cpu_count()} CPUs"}
    texts: list[str] = []
    for path in a.slice:
        gold = read(ROOT / path)
        t0 = time.perf_counter()
        labels, counts = classify([g["request"] for g in gold], cfg)
        res = agreement(gold, labels, tax)
        res["by"] = counts
        res["seconds"] = round(time.perf_counter() - t0, 3)
        misleading = [(g, lab) for g, lab in zip(gold, labels) if g.get("misleading")]
        if misleading:
            res["misleading_l3"] = round(
                sum(lab.l3 == tax.leaf(g["l3"]).name for g, lab in misleading) / len(misleading), 3
            )
        result[path] = res
        texts += [g["request"] for g in gold]
        print(
            f"{path}: "
            + json.dumps({k: v for k, v in res.items() if k != "by_lang"}, ensure_ascii=False)
        )
        for lang, r in res["by_lang"].items():
            print(f"  {lang}: {r}")
    if a.throughput and texts:
        result["offline"] = offline_rate(texts, a.throughput)
        print("offline, one process:", result["offline"])
        if a.ray:
            result["ray"] = ray_rate(texts, a.throughput)
            print("ray data:", result["ray"])
    if a.out:
        Path(a.out).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
