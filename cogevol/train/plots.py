"""Training curves for MLflow (headless matplotlib; cogevol.pipeline.plots has the bar charts)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def curves(history: list[dict], keys: list[str], title: str, ylabel: str = ""):
    """One line per key over `step`, skipping rows without that key."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for key in keys:
        pts = [(h["step"], h[key]) for h in history if key in h and "step" in h]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3, label=key)
    ax.set_title(title)
    ax.set_xlabel("step")
    ax.set_ylabel(ylabel)
    if ax.lines:
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def time_split(steps: list[dict], title: str):
    """Stacked bars: generate / reward / update seconds of each optimizer step."""
    fig, ax = plt.subplots(figsize=(7, 4))
    x = [s["step"] for s in steps]
    bottom = [0.0] * len(steps)
    for part, color in (
        ("generate_s", "#3b6ea5"),
        ("reward_s", "#e07b39"),
        ("update_s", "#6aa84f"),
    ):
        vals = [s.get(part, 0.0) for s in steps]
        ax.bar(x, vals, bottom=bottom, color=color, label=part[:-2])
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_title(title)
    ax.set_xlabel("step")
    ax.set_ylabel("seconds")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
