"""Dedup speed and memory: 200,000 short zh/en queries end to end (all passes and CSVs), and
the ratio against an all-pairs baseline on a 5,000-query subset.

Targets (issue 2): <= 60 s and <= 4 GB peak on a 2-core machine.
Run: python benchmarks/dedup_speed.py [--n 200000] [--subset 5000]
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import orjson
from querygen import short_queries  # noqa: E402 (a sibling module: run as python benchmarks/dedup_speed.py)

from cogevol.core.text import normalize, shingle_text
from cogevol.dedup import simhash, tfidf
from cogevol.dedup.ngrams import char_ngrams, multi_ngrams
from cogevol.dedup.pipeline import DedupConfig
from cogevol_samples.queries import pairwise_scores


def simhash_all_pairs(fp: np.ndarray, k: int, block: int = 1024) -> set[tuple[int, int]]:
    out = set()
    for s in range(0, len(fp), block):
        d = np.bitwise_count(fp[s : s + block, None] ^ fp[None, :])
        i, j = np.nonzero(d <= k)
        i = i + s
        keep = i < j
        out.update(zip(i[keep].tolist(), j[keep].tolist()))
    return out


def peak_tree_rss(proc: subprocess.Popen, every_s: float = 0.05) -> float:
    """Peak of the summed RSS of a process and its children (forked workers), in GB. Summing
    RSS counts copy-on-write pages once per process, so this is an upper bound."""
    import psutil

    peak = 0
    p = psutil.Process(proc.pid)
    while proc.poll() is None:
        try:
            total = p.memory_info().rss + sum(c.memory_info().rss for c in p.children(recursive=True))
        except psutil.Error:
            total = 0
        peak = max(peak, total)
        time.sleep(every_s)
    return peak / 1024**3


def near_dup_passes(texts: list[str], cfg: DedupConfig, all_pairs: bool) -> tuple[float, set, set]:
    """The two near-duplicate passes on unique normalised texts, indexed or all-pairs."""
    sh = [shingle_text(normalize(t)) for t in dict.fromkeys(texts)]
    t0 = time.perf_counter()
    d, g = char_ngrams(sh, cfg.simhash_ngram)
    fp = simhash.fingerprints(d, g, len(sh))
    if all_pairs:
        sim = simhash_all_pairs(fp, cfg.simhash_max_distance)
    else:
        i, j, _ = simhash.close_pairs(fp, cfg.simhash_max_distance)
        sim = set(zip(i.tolist(), j.tolist()))
    d, g = multi_ngrams(sh, cfg.tfidf_ngrams)
    X, df = tfidf.tfidf_matrix(d, g, len(sh))
    if all_pairs:
        i, j, _ = tfidf.all_pairs_baseline(X, cfg.tfidf_threshold)
    else:
        i, j, _, _ = tfidf.similar_pairs(X, df, cfg.tfidf_threshold, cfg.tfidf_prefix, cfg.tfidf_min_shared,
                                         cfg.tfidf_max_df, workers=1)
    return time.perf_counter() - t0, sim, set(zip(i.tolist(), j.tolist()))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--subset", type=int, default=5_000)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "dedup_speed.json"))
    a = ap.parse_args()

    t = time.perf_counter()
    queries, groups = short_queries(a.n, seed=0)
    gen_s = time.perf_counter() - t
    cfg = DedupConfig()
    result = {"machine": f"{platform.machine()}, {len(__import__('os').sched_getaffinity(0))} cores", "n": a.n}

    with tempfile.TemporaryDirectory() as tmp:
        inp = Path(tmp) / "queries.jsonl"
        inp.write_bytes(b"\n".join(orjson.dumps({"id": f"q{i:07d}", "query": q}) for i, q in enumerate(queries)))
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "cogevol.cli", "--log-level", "WARNING", "dedup", "--input", str(inp),
                                 "--field", "query", "--out", str(Path(tmp) / "out")], stdout=subprocess.PIPE, text=True)
        peak_gb = peak_tree_rss(proc)
        out, _ = proc.communicate()
        wall = time.perf_counter() - t
        if proc.returncode:
            raise SystemExit(f"dedup failed with {proc.returncode}")
        peak_single_gb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024**2
        summary = json.loads(out)
        with open(Path(tmp) / "out" / "semantic_query_groups.csv", encoding="utf-8") as f:
            rep = {r["id"]: r["representative_id"] for r in csv.DictReader(f)}
        quality = pairwise_scores(groups, [rep[f"q{i:07d}"] for i in range(a.n)])
    result["end_to_end"] = {
        "wall_s": round(wall, 1), "peak_rss_gb_tree_sum": round(peak_gb, 2), "peak_rss_gb_largest_process": round(peak_single_gb, 2),
        "generate_s": round(gen_s, 1),
        "planted_duplicates": {k: round(v, 4) if isinstance(v, float) else v for k, v in quality.items()},
        "passes_s": {k: summary[k] for k in ("normalize_s", "exact_s", "simhash_s", "tfidf_s", "total_s")},
        "exact_unique": summary["exact_unique"], "lexical_groups": summary["lexical_groups"],
        "semantic_groups": summary["semantic_groups"], "tfidf": summary["tfidf_links"], "simhash": summary["simhash_links"],
        "meets_60s": wall <= 60, "meets_4gb": peak_gb <= 4,
    }

    sub = queries[: a.subset]
    ours_s, sim_a, tf_a = near_dup_passes(sub, cfg, all_pairs=False)
    base_s, sim_b, tf_b = near_dup_passes(sub, cfg, all_pairs=True)
    result["subset"] = {
        "queries": a.subset, "indexed_s": round(ours_s, 3), "all_pairs_s": round(base_s, 3),
        "speedup": round(base_s / ours_s, 1),
        "simhash_pairs_found": f"{len(sim_a & sim_b)}/{len(sim_b)}", "tfidf_pairs_found": f"{len(tf_a & tf_b)}/{len(tf_b)}",
        "all_pairs_extrapolated_to_n_s": round(base_s * (a.n / a.subset) ** 2),
        "all_pairs_dense_matrix_gb_at_n": round(a.n**2 * 4 / 1024**3, 1),
    }
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
