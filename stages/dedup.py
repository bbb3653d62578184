"""DVC stage `dedup`: mined requests -> near-duplicate-free requests + audit CSVs."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import stage_args, start, write_csv, write_metrics  # noqa: E402

from cogevol.dedup.pipeline import DedupConfig  # noqa: E402
from cogevol.dedup.records import dedup_file  # noqa: E402
from cogevol.plots import histogram  # noqa: E402
from cogevol.tracking import stage_run  # noqa: E402


def main() -> None:
    a = stage_args("CSV of group sizes for `dvc plots`")
    params = dict(start("dedup"))
    field = params.pop("field", "request")
    with stage_run("dedup", params) as run:
        res, summary = dedup_file(a.input, field, a.out, DedupConfig(**params), survivors=True)
        write_metrics(a.metrics, summary)
        run.log_metrics({k: v for k, v in summary.items() if k != "config"})
        sizes = Counter(res.semantic_rep.tolist()).values()
        write_csv(a.plot, ["group_size", "groups"], sorted(Counter(sizes).items()))
        run.log_figure(histogram(list(sizes), "semantic group sizes", "requests per group"), "dedup_group_sizes.png")
        run.log_artifact(Path(a.out) / "vetoed_links.csv")


if __name__ == "__main__":
    main()
