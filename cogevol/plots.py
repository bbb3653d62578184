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


def histogram(values, title: str, xlabel: str, log_y: bool = True, bins: int = 30):
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist(values, bins=bins, color="#3b6ea5")
    if log_y:
        ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    fig.tight_layout()
    return fig
