"""DVC stage `filter`: deduplicated requests -> admissible prompts (seven axes, with reasons)."""

from __future__ import annotations

from pathlib import Path

from cogevol.checklist.planner import planner_from_params
from cogevol.core.config import from_dict
from cogevol.curate.engines import filter_requests
from cogevol.pipeline.curation import CurationConfig
from cogevol.pipeline.plots import bar_panels, barh
from cogevol.pipeline.stage_io import stage_args, start, write_csv, write_metrics
from cogevol.pipeline.tracking import stage_run
from cogevol.taxonomy.classify import TaxonomyConfig

STRATA_CSV = (
    "filter_strata.csv"  # beside the reasons CSV: kept prompts per L1, L2, difficulty, language
)


def main() -> None:
    a = stage_args("CSV of drops per reason for `dvc plots`")
    params, allp = start("filter")
    where = CurationConfig.from_params(allp)
    taxonomy = from_dict(TaxonomyConfig, allp.get("taxonomy"))
    run_params = {**params, "curation_engine": where.engine, "taxonomy_source": taxonomy.source}
    with stage_run("filter", run_params) as run:
        stats = filter_requests(
            a.input, a.out, params, planner_from_params(allp), where=where, taxonomy=taxonomy
        )
        metrics = stats.as_metrics()
        write_metrics(a.metrics, metrics)
        run.log_metrics(metrics)
        write_csv(
            a.plot,
            ["reason", "count"],
            sorted(metrics["dropped_by_reason"].items(), key=lambda kv: -kv[1]),
        )
        if metrics["dropped_by_reason"]:
            run.log_figure(
                barh(metrics["dropped_by_reason"], "dropped requests by reason"),
                "filter_reasons.png",
            )
        write_csv(
            Path(a.plot).with_name(STRATA_CSV),
            ["stratum", "prompts"],
            [(f"{axis}: {value}", n) for axis, value, n in stats.strata_rows()],
        )
        if stats.kept:
            panels = {
                axis: metrics[f"kept_by_{axis}"] for axis in ("l1", "l2", "difficulty", "lang")
            }
            run.log_figure(bar_panels(panels, "kept prompts by stratum"), "filter_strata.png")


if __name__ == "__main__":
    main()
