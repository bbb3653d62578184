"""Curation on Ray Data against the local backend (issue 25): identical output, wall time and
peak memory per process, the largest set each backend finishes on this machine, and the
throughput of 1 and 2 workers.

Every run is `cogevol dedup` in a child process, sampled every second: for each process of its
tree (the CLI, and on the ray backend the Ray instance it starts: raylet, GCS, workers) its RSS,
its USS, and its heap (the USS without pages of Ray's shared object store, which is the node's,
capped, and spills to disk), their sums, and /dev/shm (the object store). A run is stopped when the machine has less than --reserve-gb available: that is where a
backend stops here, measured, not extrapolated. Outputs of both backends are compared part by
part (benchmarks/results/curation_ray.json; docs/curation_ray.md).

    python benchmarks/curation_ray.py equal --n 200000
    python benchmarks/curation_ray.py sizes --sizes 1000000 2000000 5000000
    python benchmarks/curation_ray.py workers --n 200000
    python benchmarks/curation_ray.py quality
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import orjson
import psutil
import yaml
from querygen import short_queries  # noqa: E402 (a sibling module: run as python benchmarks/curation_ray.py)

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "curation_ray.json"
WORK = ROOT / "benchmarks" / "out" / "curation_ray"
OUTPUTS = ("deduped_queries.csv", "query_groups.csv", "semantic_deduped_queries.csv",
           "semantic_query_groups.csv", "vetoed_links.csv")


def queries_file(n: int) -> Path:
    """The generated set of n queries (querygen, seed 0), written once and reused."""
    p = WORK / f"queries_{n}.jsonl"
    if not p.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
        queries, _ = short_queries(n, seed=0)
        tmp = p.with_suffix(".tmp")
        with open(tmp, "wb") as f:
            for i, q in enumerate(queries):
                f.write(orjson.dumps({"id": f"q{i:08d}", "query": q}) + b"\n")
        tmp.replace(p)
    return p


def private_memory(p: psutil.Process) -> tuple[int, int]:
    """(USS, the part of it that is the process's own heap): USS minus the pages of shared-memory
    files (Ray's object store lives in /dev/shm and is mapped by every worker; a page only one
    worker has touched counts in that worker's USS, but it is the node's store, not the worker's
    memory, and spills to disk when the store is full)."""
    uss = shm = 0
    for m in p.memory_maps(grouped=True):
        own = m.private_clean + m.private_dirty
        uss += own
        if m.path.startswith("/dev/shm") or "plasma" in m.path:
            shm += own
    return uss, uss - shm


class Sampler(threading.Thread):
    """Peak memory of a process tree, per process and summed, every `every_s` seconds."""

    def __init__(self, pid: int, reserve_gb: float, every_s: float = 1.0):
        super().__init__(daemon=True)
        self.root, self.reserve, self.every = psutil.Process(pid), reserve_gb * 2**30, every_s
        self.peak_rss = self.peak_uss = self.peak_heap = self.sum_rss = self.sum_heap = self.shm = 0
        self.peak_driver = self.peak_worker = 0  # heap of the CLI process; of any other process
        self.peak_name = ""
        self.stopped_low_memory = False
        self.done = threading.Event()

    def run(self) -> None:
        base_shm = psutil.disk_usage("/dev/shm").used
        while not self.done.is_set():
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.NoSuchProcess:
                break
            rss = heap = 0
            for p in procs:
                try:
                    r = p.memory_info().rss
                    u, h = private_memory(p)
                except (psutil.NoSuchProcess, psutil.AccessDenied, FileNotFoundError):
                    continue
                rss, heap = rss + r, heap + h
                if p.pid == self.root.pid:
                    self.peak_driver = max(self.peak_driver, h)
                else:
                    self.peak_worker = max(self.peak_worker, h)
                if h > self.peak_heap:
                    self.peak_heap, self.peak_name = h, p.name()
                self.peak_rss, self.peak_uss = max(self.peak_rss, r), max(self.peak_uss, u)
            self.sum_rss, self.sum_heap = max(self.sum_rss, rss), max(self.sum_heap, heap)
            self.shm = max(self.shm, psutil.disk_usage("/dev/shm").used - base_shm)
            if psutil.virtual_memory().available < self.reserve:
                self.stopped_low_memory = True
                for p in reversed(procs):
                    try:
                        p.kill()
                    except psutil.NoSuchProcess:
                        pass
                break
            time.sleep(self.every)

    def report(self) -> dict:
        gb = 2**30
        return {"peak_process_heap_gb": round(self.peak_heap / gb, 2), "peak_process": self.peak_name,
                "peak_driver_heap_gb": round(self.peak_driver / gb, 2),
                "peak_worker_heap_gb": round(self.peak_worker / gb, 2),
                "peak_process_uss_gb": round(self.peak_uss / gb, 2),
                "peak_process_rss_gb": round(self.peak_rss / gb, 2),
                "peak_tree_heap_gb": round(self.sum_heap / gb, 2),
                "peak_tree_rss_gb": round(self.sum_rss / gb, 2),
                "peak_object_store_shm_gb": round(self.shm / gb, 2)}


def run_dedup(inp: Path, out: Path, backend: str, reserve_gb: float, cpus: int = 0,
              object_store_mb: int = 0, rows_per_partition: int = 100_000, cores: str = "") -> dict:
    """One `cogevol dedup` run in a child process, measured; `cores` pins the whole process tree
    (the driver and the Ray it starts) to those cores (taskset), as on a smaller machine."""
    params = yaml.safe_load((ROOT / "params.yaml").read_text())
    params["curation"]["ray"].update(num_cpus=cpus, object_store_mb=object_store_mb,
                                     rows_per_partition=rows_per_partition)
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        yaml.safe_dump(params, f)
    env = {**os.environ, "COGEVOL_PARAMS": f.name, "RAY_AUTH_MODE": "disabled"}
    log = out.with_suffix(".log")
    out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with open(log, "w") as lf:
        pin = ["taskset", "-c", cores] if cores else []
        proc = subprocess.Popen([*pin, sys.executable, "-m", "cogevol.cli", "--log-level", "INFO", "dedup", "--input", str(inp),
                                 "--field", "query", "--out", str(out), "--engine", backend],
                                stdout=subprocess.PIPE, stderr=lf, text=True, env=env, cwd=ROOT)
        sampler = Sampler(proc.pid, reserve_gb)
        sampler.start()
        stdout, _ = proc.communicate()
        sampler.done.set()
        sampler.join()
    os.unlink(f.name)
    wall = time.perf_counter() - t0
    result = {"backend": backend, "wall_s": round(wall, 1), **sampler.report(), "exit": proc.returncode}
    if cpus:
        result["cpus"] = cpus
    if cores:
        result["cores"] = cores
    if sampler.stopped_low_memory:
        result["stopped"] = f"less than {reserve_gb} GB of memory left after {wall:.0f} s"
        result["last_step"] = last_step(log)
    elif proc.returncode == 0:
        summary = json.loads(stdout.strip().splitlines()[-1])
        result.update(groups=summary["semantic_groups"], exact_unique=summary["exact_unique"],
                      tfidf_candidates=summary["tfidf_links"]["candidates"])
    else:
        result["stopped"] = f"exit {proc.returncode}: {log.read_text()[-400:]}"
    return result


def last_step(log: Path) -> str:
    lines = [x for x in log.read_text(errors="replace").splitlines() if "cogevol." in x]
    return lines[-1][-200:] if lines else ""


def joined(path: Path) -> bytes:
    """A file, or a part directory's parts in order with each CSV header kept once."""
    if path.is_file():
        return path.read_bytes()
    out = b""
    for k, part in enumerate(sorted(p for p in path.iterdir() if p.name.startswith("part-"))):
        data = part.read_bytes()
        out += data if k == 0 or part.suffix != ".csv" else data.split(b"\r\n", 1)[1]
    return out


def same_outputs(a: Path, b: Path) -> dict:
    return {name: joined(a / name) == joined(b / name) for name in OUTPUTS}


def save(section: str, value) -> None:
    data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    data["machine"] = f"{platform.machine()}, {len(os.sched_getaffinity(0))} cores, {psutil.virtual_memory().total / 2**30:.0f} GiB"
    data[section] = value
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=2) + "\n")
    print(json.dumps({section: value}, indent=2))


def cmd_equal(a) -> None:
    inp = queries_file(a.n)
    runs = {b: run_dedup(inp, WORK / f"equal_{a.n}_{b}", b, a.reserve_gb) for b in ("local", "ray")}
    runs["identical_files"] = same_outputs(WORK / f"equal_{a.n}_local", WORK / f"equal_{a.n}_ray")
    save(f"equal_{a.n}", runs)


def cmd_sizes(a) -> None:
    """Each size on each backend; runs of other sizes or backends already saved are kept."""
    out = json.loads(RESULTS.read_text()).get("sizes", {}) if RESULTS.exists() else {}
    for n in a.sizes:
        inp = queries_file(n)
        row = out.get(str(n), {})
        row.pop("identical_files", None)
        for b in a.backends:
            row[b] = run_dedup(inp, WORK / f"size_{n}_{b}", b, a.reserve_gb,
                               object_store_mb=a.object_store_mb if b == "ray" else 0)
        if all(row.get(b, {}).get("exit") == 0 and "stopped" not in row[b] for b in ("local", "ray")):
            row["identical_files"] = same_outputs(WORK / f"size_{n}_local", WORK / f"size_{n}_ray")
        out[str(n)] = row
        save("sizes", out)


def cmd_workers(a) -> None:
    """One worker on one core (the driver and Ray's own processes pinned there too, as on a
    one-core node) against two workers on two cores, alternated --rounds times; and one worker
    with the second core left to Ray's own processes (what `num_cpus=1` alone measures)."""
    inp = queries_file(a.n)
    rounds = []
    for _r in range(a.rounds):
        one = run_dedup(inp, WORK / f"workers_{a.n}_1", "ray", a.reserve_gb, cpus=1, cores="0")
        two = run_dedup(inp, WORK / f"workers_{a.n}_2", "ray", a.reserve_gb, cpus=2)
        rounds.append({"one_core": one, "two_cores": two, "speedup": round(one["wall_s"] / two["wall_s"], 2)})
        save(f"workers_{a.n}", {"rounds": rounds})
    loose = run_dedup(inp, WORK / f"workers_{a.n}_1free", "ray", a.reserve_gb, cpus=1)
    speedups = sorted(x["speedup"] for x in rounds)
    best_two = min(x["two_cores"]["wall_s"] for x in rounds)
    save(f"workers_{a.n}", {
        "rounds": rounds, "speedup_median": speedups[len(speedups) // 2],
        "one_worker_with_a_free_core": loose,
        "speedup_against_it": round(loose["wall_s"] / best_two, 2),
        "rows_per_s_two_cores": round(a.n / best_two),
        "per_core_rows_per_s": round(a.n / best_two / 2)})


def cmd_quality(a) -> None:
    """Pairwise precision and recall of the ray backend on the labelled sets, beside local."""
    sys.path.insert(0, str(ROOT))
    from cogevol.dedup.engines import dedup
    from cogevol.pipeline.curation import CurationConfig
    from cogevol.raydata.session import RayDataConfig
    from cogevol_samples.queries import labelled_set, pairwise_scores

    webgen = ROOT / "data" / "external" / "webgen-bench" / "test.jsonl"
    rows = {}
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    for seed in a.seeds:
        recs = labelled_set(a.groups, seed=seed, webgen=webgen if webgen.exists() else None)
        with tempfile.TemporaryDirectory() as tmp:
            inp = Path(tmp) / "in.jsonl"
            inp.write_bytes(b"".join(orjson.dumps({"id": r["id"], "text": r["text"]}) + b"\n" for r in recs))
            for b in ("local", "ray"):
                where = CurationConfig(b, RayDataConfig())
                dedup(inp, "text", Path(tmp) / b, where=where)
                reps = {r["id"]: r["representative_id"] for r in _csv_rows(Path(tmp) / b / "semantic_query_groups.csv")}
                s = pairwise_scores([r["group"] for r in recs], [reps[r["id"]] for r in recs])
                rows.setdefault(b, []).append({"seed": seed, "precision": round(s["precision"], 4),
                                               "recall": round(s["recall"], 4)})
            rows.setdefault("identical_files", []).append(all(same_outputs(Path(tmp) / "local", Path(tmp) / "ray").values()))
    save("quality", rows)


def _csv_rows(path: Path):
    import csv
    import io

    return list(csv.DictReader(io.StringIO(joined(path).decode("utf-8"))))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reserve-gb", type=float, default=1.5, help="stop a run when less memory is left")
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("equal")
    e.add_argument("--n", type=int, default=200_000)
    s = sub.add_parser("sizes")
    s.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 2_000_000, 5_000_000])
    s.add_argument("--backends", nargs="+", default=["local", "ray"])
    s.add_argument("--object-store-mb", type=int, default=4096)
    w = sub.add_parser("workers")
    w.add_argument("--n", type=int, default=200_000)
    w.add_argument("--rounds", type=int, default=2)
    q = sub.add_parser("quality")
    q.add_argument("--groups", type=int, default=3000)
    q.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    a = ap.parse_args()
    {"equal": cmd_equal, "sizes": cmd_sizes, "workers": cmd_workers, "quality": cmd_quality}[a.cmd](a)


if __name__ == "__main__":
    main()
