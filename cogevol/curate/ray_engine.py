"""The filter stage on Ray Data: the seven axes and the checklist planner as one map step over
the input's chunks, each chunk into its part of prompts / dropped / review.

Nothing in filtering depends on another record, so there is no shuffle: a task reads a chunk,
runs the in-process code on it (pipeline.filter_lines) and writes its parts. Calls to an LLM
(the judge route, the openai checklist planner) stay bounded as configured: at most
`concurrency` requests in flight over the whole cluster, split between the tasks allowed to run
at once, and each answer lands in the disk cache (`cache_dir`: on a shared filesystem when the
cluster has several nodes), so a retried task asks nothing twice.
"""

from __future__ import annotations

import time
from dataclasses import asdict, replace
from pathlib import Path

import orjson
import pyarrow as pa

from cogevol.checklist.planner import PlannerConfig
from cogevol.core import shards
from cogevol.core.config import from_dict
from cogevol.curate.judge import FilterJudgeConfig
from cogevol.curate.pipeline import OUTPUTS, FilterConfig, FilterStats, filter_lines
from cogevol.pipeline.stage_counts import counts_from, counts_json
from cogevol.raydata.chunks import plan_chunks
from cogevol.raydata.session import RayDataConfig, StepLog, ray_data
from cogevol.taxonomy.classify import TaxonomyConfig


def _filter_chunks(
    batch: pa.Table, cfg: dict, planner: PlannerConfig, taxonomy: TaxonomyConfig, out: str
) -> pa.Table:
    """Map over chunks: filter and plan each, write its parts; its counts as JSON."""
    chunks, counts = [], []
    for row in batch.to_pylist():
        stats = FilterStats()
        end = None if row["end"] < 0 else row["end"]
        records = (
            orjson.loads(line)
            for _, _, line in shards.numbered_lines(row["path"], row["start"], end)
            if line.strip()
        )
        for name, body in filter_lines(records, cfg, planner, stats, taxonomy).items():
            if body:
                like = f"{name}.jsonl"
                shards.write_bytes(
                    shards.join(out, like, shards.part_name(row["chunk"], like)), b"".join(body)
                )
        chunks.append(row["chunk"])
        counts.append(counts_json(stats))
    return pa.table({"chunk": pa.array(chunks, pa.int64()), "stats": pa.array(counts, pa.string())})


def _shared_by_tasks(
    cfg: dict, planner: PlannerConfig, taxonomy: TaxonomyConfig, tasks: int
) -> tuple[dict, PlannerConfig, TaxonomyConfig, int]:
    """The settings each task runs with: the LLM endpoints' concurrency split between the tasks
    run at once (fewer tasks when an endpoint allows fewer requests than there are CPUs), and
    file paths made absolute (a worker does not run in the driver's directory)."""
    judge = from_dict(FilterJudgeConfig, cfg["judge"])
    limits = []  # requests in flight each endpoint allows over the whole cluster
    if cfg.get("method") == "llm":
        limits.append(judge.concurrency)
    if planner.source == "openai":
        limits.append(planner.concurrency)
    if taxonomy.source == "openai":
        limits.append(taxonomy.concurrency)
    tasks = max(1, min([tasks, *limits]))
    judge = replace(
        judge,
        concurrency=max(1, judge.concurrency // tasks),
        cache_dir=shards.absolute(judge.cache_dir) if judge.cache_dir else None,
    )
    planner = replace(
        planner,
        concurrency=max(1, planner.concurrency // tasks),
        replay_path=shards.absolute(planner.replay_path),
        cache_dir=shards.absolute(planner.cache_dir),
    )
    taxonomy = replace(
        taxonomy,
        concurrency=max(1, taxonomy.concurrency // tasks),
        replay_path=shards.absolute(taxonomy.replay_path),
        cache_dir=shards.absolute(taxonomy.cache_dir) if taxonomy.cache_dir else None,
    )
    return {**cfg, "judge": asdict(judge)}, planner, taxonomy, tasks


def run_filter_ray(
    input_path: str | Path,
    out_dir: str | Path,
    cfg: dict,
    planner: PlannerConfig | None = None,
    taxonomy: TaxonomyConfig | None = None,
    *,
    ray_cfg: RayDataConfig | None = None,
) -> FilterStats:
    """run_filter on Ray Data: the same prompts, drops and reviews, each output a directory of
    parts (one per input chunk, in input order)."""
    cfg = asdict(from_dict(FilterConfig, cfg))
    planner = planner or PlannerConfig(source="rules")
    taxonomy = taxonomy or TaxonomyConfig()
    files = [shards.absolute(f) for f in shards.parts(input_path)]
    t0 = time.perf_counter()
    with ray_data(ray_cfg) as session:
        import ray

        chunks = plan_chunks([(f, "jsonl") for f in files], int(session.cfg.chunk_mb * 2**20))
        tasks = max(1, min(session.cpus, len(chunks)))
        cfg, planner, taxonomy, tasks = _shared_by_tasks(cfg, planner, taxonomy, tasks)
        out = shards.absolute(out_dir)
        for name in OUTPUTS:
            shards.clear(shards.join(out, f"{name}.jsonl"))
            shards.make_dir(shards.join(out, f"{name}.jsonl"))
        rows = [
            {
                "chunk": c.index,
                "path": c.path,
                "start": c.start,
                "end": -1 if c.end is None else c.end,
            }
            for c in chunks
        ]
        results = (
            ray.data.from_items(rows, override_num_blocks=len(rows))
            .map_batches(
                _filter_chunks,
                fn_kwargs={"cfg": cfg, "planner": planner, "taxonomy": taxonomy, "out": out},
                batch_format="pyarrow",
                batch_size=1,
                concurrency=tasks,
            )
            .take_all()
        )
        stats = FilterStats()
        for r in results:
            stats.merge(counts_from(FilterStats, r["stats"]))
        StepLog("filter[ray]", 1).done(
            "filter",
            f"{stats.input:,} records in {len(chunks)} chunk(s), {stats.kept:,} kept",
            stats.input,
            since=t0,
        )
    return stats
