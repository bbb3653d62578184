"""DVC stage `dedup`: mined requests -> near-duplicate-free requests + audit CSVs."""

from __future__ import annotations

from cogevol.core import shards
from cogevol.core.config import from_dict
from cogevol.dedup.engines import dedup
from cogevol.dedup.pipeline import DedupConfig
from cogevol.pipeline.curation import CurationConfig
from cogevol.pipeline.plots import histogram
from cogevol.pipeline.stage_io import stage_args, start, write_csv, write_metrics
from cogevol.pipeline.tracking import stage_run


def main() -> None:
    a = stage_args("CSV of group sizes for `dvc plots`")
    params, allp = start("dedup")
    params = dict(params)
    field = params.pop("field", "request")  # which record field holds the text; the rest configures dedup
    where = CurationConfig.from_params(allp)
    with stage_run("dedup", {**params, "curation_engine": where.engine}) as run:
        summary, sizes = dedup(a.input, field, a.out, from_dict(DedupConfig, params), survivors=True, where=where)
        write_metrics(a.metrics, summary)
        run.log_metrics({k: v for k, v in summary.items() if k != "config"})
        write_csv(a.plot, ["group_size", "groups"], sorted(sizes.items()))
        expanded = [size for size, groups in sizes.items() for _ in range(groups)]
        run.log_figure(histogram(expanded, "semantic group sizes", "requests per group"), "dedup_group_sizes.png")
        run.log_artifact(shards.join(a.out, "vetoed_links.csv"))  # a file, or a Ray run's parts


if __name__ == "__main__":
    main()
