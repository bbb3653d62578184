"""What a manager sees on the evaluate run's MLflow page, at a glance:

* the comparison table (with the reference row) as a picture and as a table artifact;
* reward per step of both GRPO stages, from their DVC plot files, as a figure and as metrics;
* a gallery of each system's best and worst HTML answers: first screenshot, verdict, reason,
  and the request;
* every evaluated checkpoint registered as a version of `cogevol-policy` with its scores, the best
  aliased `best`; the suites and the reference set logged as MLflow datasets.
"""

from __future__ import annotations

import csv
import io
import logging
from pathlib import Path

from cogevol.pipeline.plots import plt

log = logging.getLogger(__name__)
HEADLINE = ("overall", "html_score", "slide_score", "hard_fails", "render_failures")


def table_figure(summary: dict):
    """The comparison table as a picture (the run page shows images, not markdown)."""
    cols = ["system", "overall", "html", "slides", "hard fails", "render fails", "items"]
    rows = [
        [
            name,
            f"{s['overall']:.1f}",
            "-" if s["html_score"] is None else f"{s['html_score']:.1f}",
            "-" if s["slide_score"] is None else f"{s['slide_score']:.1f}",
            f"{s['hard_fails']}/{s['html_items']}",
            str(s["render_failures"]),
            str(s["items"]),
        ]
        for name, s in summary.items()
    ]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.2))
    ax.axis("off")
    t = ax.table(cellText=rows, colLabels=cols, loc="center", cellLoc="center")
    t.scale(1, 1.4)
    ax.set_title(
        "evaluation: score 0-100 (reference: admitted teacher answers on the distilled prompts)",
        fontsize=9,
    )
    fig.tight_layout()
    return fig


def read_curve(path: str | Path) -> list[tuple[int, float]]:
    p = Path(path)
    if not p.is_file():
        return []
    with p.open(encoding="utf-8") as f:
        return [
            (int(float(r["step"])), float(r["reward"]))
            for r in csv.DictReader(f)
            if r.get("reward") not in (None, "")
        ]


def curves_figure(curves: dict[str, list[tuple[int, float]]]):
    fig, ax = plt.subplots(figsize=(7, 3.8))
    for name, pts in curves.items():
        if pts:
            ax.plot([s for s, _ in pts], [r for _, r in pts], marker="o", label=name)
    ax.set_xlabel("GRPO step")
    ax.set_ylabel("mean reward (0..1)")
    ax.set_title("reward per step")
    ax.legend()
    fig.tight_layout()
    return fig


def gallery_figure(picks: list[tuple[str, str, object]]):
    """picks: (system, "best" | "worst", ItemResult with .image). One row per system."""
    from PIL import Image

    systems = list(dict.fromkeys(s for s, _, _ in picks))
    fig, axes = plt.subplots(len(systems), 2, figsize=(11, 3.4 * len(systems)), squeeze=False)
    for ax in axes.flat:
        ax.axis("off")
    for system, which, r in picks:
        ax = axes[systems.index(system)][0 if which == "best" else 1]
        if r.image:
            ax.imshow(Image.open(io.BytesIO(r.image)))
        else:
            ax.text(0.5, 0.5, "no screenshot\n(not rendered)", ha="center", va="center")
        verdict = "hard fail" if r.hard_fail else f"reward {r.reward:.2f}"
        ax.set_title(
            f"{system} · {which}: {verdict}\nasked: {r.item.prompt[:70]}\n{r.reason[:90]}",
            fontsize=7,
            loc="left",
        )
    fig.tight_layout()
    return fig


def gallery_picks(results: list) -> list[tuple[str, str, object]]:
    """Each system's best and worst HTML answer (ties: suite order)."""
    by_system: dict[str, list] = {}
    for r in results:
        if r.item.kind == "html":
            by_system.setdefault(r.system, []).append(r)
    picks = []
    for system, rs in by_system.items():
        ranked = sorted(rs, key=lambda r: -r.reward)
        picks += [(system, "best", ranked[0]), (system, "worst", ranked[-1])]
    return picks


def log_manager_view(
    run,
    summary: dict,
    results: list,
    checkpoints: dict[str, str],
    curves: dict[str, str],
    datasets: dict[str, tuple[list[dict], str]],
) -> None:
    """Everything above on `run` (a cogevol.pipeline.tracking.StageRun). `checkpoints`: system ->
    path; `curves`: GRPO stage -> its reward CSV; `datasets`: name -> (rows, source)."""
    if run is None or not run.active:
        return
    run.log_figure(table_figure(summary), "evaluate/0_comparison.png")
    pts = {stage: read_curve(path) for stage, path in curves.items()}
    if any(pts.values()):
        run.log_figure(curves_figure(pts), "evaluate/1_grpo_reward_per_step.png")
        for stage, series in pts.items():
            for step, reward in series:
                run.log_metrics({f"{stage}_reward": reward}, step=step)
    picks = gallery_picks(results)
    if picks:
        run.log_figure(gallery_figure(picks), "evaluate/2_best_and_worst_html.png")
    for name, (rows, source) in datasets.items():
        run.log_dataset(rows, source, name, context="evaluation")
    versions = {}
    for system, path in checkpoints.items():
        scores = {k: summary[system][k] for k in HEADLINE if summary[system].get(k) is not None}
        version = run.register_checkpoint(path, system.replace(".", "-"), scores)
        if version:
            versions[system] = version
    if versions:
        best = max(versions, key=lambda s: summary[s]["overall"])
        run.set_model_alias("best", versions[best])
        log.info(
            "evaluate: registered %d checkpoints; best: %s (overall %.1f)",
            len(versions),
            best,
            summary[best]["overall"],
        )
    plt.close("all")
