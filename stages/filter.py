"""DVC stage `filter`: deduplicated requests -> admissible prompts (seven axes, with reasons)."""

from __future__ import annotations

from cogevol.checklist.planner import planner_from_params
from cogevol.curate.backends import filter_requests
from cogevol.curation import CurationConfig
from cogevol.plots import barh
from cogevol.stage_io import stage_args, start, write_csv, write_metrics
from cogevol.tracking import stage_run


def main() -> None:
    a = stage_args("CSV of drops per reason for `dvc plots`")
    params, allp = start("filter")
    where = CurationConfig.from_params(allp)
    with stage_run("filter", {**params, "curation_backend": where.backend}) as run:
        stats = filter_requests(a.input, a.out, params, planner_from_params(allp), where=where)
        metrics = stats.as_metrics()
        write_metrics(a.metrics, metrics)
        run.log_metrics(metrics)
        write_csv(a.plot, ["reason", "count"], sorted(metrics["dropped_by_reason"].items(), key=lambda kv: -kv[1]))
        if metrics["dropped_by_reason"]:
            run.log_figure(barh(metrics["dropped_by_reason"], "dropped requests by reason"), "filter_reasons.png")


if __name__ == "__main__":
    main()
