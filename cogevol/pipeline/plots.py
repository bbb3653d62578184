"""Small matplotlib figures for MLflow artifacts (headless)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import logging  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402

# Requests and labels come in eight languages. DejaVu Sans draws the Latin ones; matplotlib
# falls back glyph by glyph along `font.family` (not along `font.sans-serif`, which picks one
# font), so WenQuanYi Zen Hei (setup installs fonts-wqy-zenhei for Chromium: Han, kana and
# hangul) draws Chinese, Japanese and Korean instead of empty boxes.
FONTS = ["DejaVu Sans", "WenQuanYi Zen Hei"]
plt.rcParams["font.family"] = FONTS
# "weight normal not found, using 500"
logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)


def barh(counts: dict[str, float], title: str, xlabel: str = "count"):
    items = sorted(counts.items(), key=lambda kv: kv[1])
    fig, ax = plt.subplots(figsize=(8, max(2.5, 0.35 * len(items) + 1)))
    ax.barh([k for k, _ in items], [v for _, v in items], color="#3b6ea5")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    fig.tight_layout()
    return fig


def bar_panels(panels: dict[str, dict[str, float]], title: str):
    """One horizontal bar chart per panel, side by side (a distribution along several axes)."""
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4.5), squeeze=False)
    for ax, (name, counts) in zip(axes[0], panels.items()):
        items = sorted(counts.items(), key=lambda kv: kv[1])
        ax.barh([k for k, _ in items], [v for _, v in items], color="#3b6ea5")
        ax.set_title(name)
        ax.tick_params(axis="y", labelsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def heatmaps(panels: dict[str, tuple[list[str], list[str], list[list[float | None]]]], title: str):
    """One annotated heat map per panel: (row names, column names, values; None = no data),
    side by side, one shared 0-100 colour scale (a score per system and stratum)."""
    widths = [max(3.0, 0.55 * len(cols) + 2.0) for _, cols, _ in panels.values()]
    rows_n = max(len(r) for r, _, _ in panels.values())
    fig, axes = plt.subplots(
        1,
        len(panels),
        figsize=(sum(widths), 1.2 + 0.5 * rows_n + 1.8),
        squeeze=False,
        gridspec_kw={"width_ratios": widths},
    )
    for ax, (name, (rows, cols, values)) in zip(axes[0], panels.items()):
        grid = [[float("nan") if v is None else v for v in row] for row in values]
        ax.imshow(grid, cmap="viridis", vmin=0, vmax=100, aspect="auto")
        ax.set_xticks(range(len(cols)), cols, rotation=60, ha="right", fontsize=7)
        ax.set_yticks(range(len(rows)), rows, fontsize=8)
        for i, row in enumerate(values):
            for j, v in enumerate(row):
                if v is not None:
                    ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=7, color="w")
        ax.set_title(name)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def histogram(values, title: str, xlabel: str, log_y: bool = True, bins: int = 30):
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist(values, bins=bins, color="#3b6ea5")
    if log_y:
        ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    fig.tight_layout()
    return fig
