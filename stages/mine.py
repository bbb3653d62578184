"""DVC stage `mine`: production traffic -> in-scope requests, failures, quarantine."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import stage_args, start, write_metrics  # noqa: E402

from cogevol.plots import barh  # noqa: E402
from cogevol.tracking import stage_run  # noqa: E402
from cogevol.traffic.mine import MineConfig, run_mine  # noqa: E402


def main() -> None:
    a = stage_args(many_inputs=True)
    params = start("mine")
    with stage_run("mine", params) as run:
        stats = run_mine(a.input, a.out, MineConfig(**params), root=Path.cwd())
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
