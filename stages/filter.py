"""DVC stage `filter`: deduplicated requests -> admissible prompts (seven axes, with reasons)."""

from __future__ import annotations

from cogevol.curate.pipeline import run_filter
from cogevol.plots import barh
from cogevol.rewards.checklist_planner import planner_from_params
from cogevol.stage_io import stage_args, start, write_csv, write_metrics
from cogevol.tracking import stage_run


def main() -> None:
    a = stage_args("CSV of drops per reason for `dvc plots`")
    params, allp = start("filter")
    with stage_run("filter", params) as run:
        stats = run_filter(a.input, a.out, params, planner_from_params(allp))
        metrics = stats.as_metrics()
        write_metrics(a.metrics, metrics)
        run.log_metrics(metrics)
        write_csv(a.plot, ["reason", "count"], sorted(metrics["dropped_by_reason"].items(), key=lambda kv: -kv[1]))
        if metrics["dropped_by_reason"]:
            run.log_figure(barh(metrics["dropped_by_reason"], "dropped requests by reason"), "filter_reasons.png")


if __name__ == "__main__":
    main()
