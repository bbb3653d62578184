"""DVC stage `dedup`: mined requests -> near-duplicate-free requests + audit CSVs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from cogevol.config import from_dict
from cogevol.dedup.pipeline import DedupConfig
from cogevol.dedup.records import dedup_file
from cogevol.plots import histogram
from cogevol.stage_io import stage_args, start, write_csv, write_metrics
from cogevol.tracking import stage_run


def main() -> None:
    a = stage_args("CSV of group sizes for `dvc plots`")
    params, _ = start("dedup")
    params = dict(params)
    field = params.pop("field", "request")  # which record field holds the text; the rest configures dedup
    with stage_run("dedup", params) as run:
        res, summary = dedup_file(a.input, field, a.out, from_dict(DedupConfig, params), survivors=True)
        write_metrics(a.metrics, summary)
        run.log_metrics({k: v for k, v in summary.items() if k != "config"})
        sizes = Counter(res.semantic_rep.tolist()).values()
        write_csv(a.plot, ["group_size", "groups"], sorted(Counter(sizes).items()))
        run.log_figure(histogram(list(sizes), "semantic group sizes", "requests per group"), "dedup_group_sizes.png")
        run.log_artifact(Path(a.out) / "vetoed_links.csv")


if __name__ == "__main__":
    main()
