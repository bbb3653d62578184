"""DVC stage `mine`: production traffic -> in-scope requests, failures, quarantine."""

from __future__ import annotations

import sys
from pathlib import Path

from cogevol.core.config import from_dict
from cogevol.pipeline.curation import CurationConfig
from cogevol.pipeline.plots import barh
from cogevol.pipeline.stage_io import stage_args, start, write_metrics
from cogevol.pipeline.tracking import stage_run
from cogevol.traffic.engines import mine
from cogevol.traffic.mine import MineConfig


def main() -> None:
    a = stage_args(many_inputs=True)
    params, allp = start("mine")
    where = CurationConfig.from_params(allp)
    with stage_run("mine", {**params, "curation_engine": where.engine}) as run:
        stats = mine(a.input, a.out, from_dict(MineConfig, params), root=Path.cwd(), where=where)
        metrics = stats.as_metrics()
        write_metrics(a.metrics, metrics)
        run.log_metrics(metrics)
        run.log_figure(barh(metrics["subcategories"], "mined requests by category"), "mine_categories.png")
        if metrics["quarantine_reasons"]:
            run.log_figure(barh(metrics["quarantine_reasons"], "quarantined records by reason"), "mine_quarantine.png")
    if stats.valid == 0:
        sys.exit(f"mine: no valid record in {a.input} (see {a.out}/quarantine.jsonl)")


if __name__ == "__main__":
    main()
