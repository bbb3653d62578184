"""Charts drawn by our code to SVG, so that chart geometry is a fact the rule engine can measure.

The model only states data (kind, categories, series); we draw axes, marks and labels at fixed
sizes, without rotating or truncating labels. A chart that cannot fit its data in its box (too
many categories for the width, a sliver of a plot area) therefore renders visibly badly, and the
rule engine sees the same overlapping labels and squashed plot area the viewer would.
Classes the measurement reads: plot-area, axis, mark, label, tick.
"""

from __future__ import annotations

import math
from html import escape

from cogevol.slides.contract import Element

PALETTE = ["#2563eb", "#f97316", "#16a34a", "#dc2626", "#9333ea", "#0891b2", "#ca8a04", "#db2777"]
LABEL_PX = 13
TITLE_PX = 16


def nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """Round tick values covering [lo, hi] (0 included for bars)."""
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(1, n)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks, v = [], start
    while v < hi + step * 0.999:
        ticks.append(round(v, 10))
        v += step
    return ticks


def _fmt(v: float) -> str:
    return f"{v:g}" if abs(v) < 1e6 else f"{v:.2g}"


def chart_svg(el: Element, accent: str, text_color: str) -> str:
    p = el.props
    w, h = el.w, el.h
    kind, series = p["chart"], p.get("series") or []
    parts: list[str] = []
    top = 8.0
    if p.get("title"):
        parts.append(
            f'<text class="label" x="{w / 2:.1f}" y="{TITLE_PX + 2}" text-anchor="middle" '
            f'font-size="{TITLE_PX}" font-weight="700" fill="{text_color}">'
            f"{escape(p['title'])}</text>"
        )
        top += TITLE_PX + 8
    named = [s for s in series if isinstance(s, dict) and s.get("name")]
    bottom_legend = 22.0 if len(named) > 1 or (kind == "pie") else 0.0
    colors = [s.get("color") or PALETTE[k % len(PALETTE)] for k, s in enumerate(series)]
    if kind == "pie":
        parts += _pie(series, p.get("categories") or [], w, h, top, bottom_legend)
    else:
        left, right, bottom = 52.0, 14.0, 28.0 + bottom_legend
        plot = (left, top, w - left - right, h - top - bottom)
        parts.append(
            f'<rect class="plot-area" x="{plot[0]:.1f}" y="{plot[1]:.1f}" '
            f'width="{max(plot[2], 0):.1f}" height="{max(plot[3], 0):.1f}" fill="none"/>'
        )
        if kind == "scatter":
            parts += _scatter(series, colors, plot, text_color)
        else:
            parts += _categorical(kind, series, p.get("categories") or [], colors, plot, text_color)
        if bottom_legend:
            parts += _legend([s.get("name", "") for s in series], colors, w, h - 6)
    return (
        f'<svg class="chart" data-chart="{kind}" width="{w:.0f}" height="{h:.0f}" '
        f'viewBox="0 0 {w:.1f} {h:.1f}" font-family="inherit">{"".join(parts)}</svg>'
    )


def _y_axis(lo: float, hi: float, plot: tuple, text_color: str) -> tuple[list[str], callable]:
    x0, y0, pw, ph = plot
    ticks = nice_ticks(lo, hi)
    tlo, thi = ticks[0], ticks[-1]

    def ymap(v: float) -> float:
        return y0 + ph - (v - tlo) / (thi - tlo) * ph

    out = [
        f'<line class="axis" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x0:.1f}" y2="{y0 + ph:.1f}" '
        'stroke="#6b7280"/>'
    ]
    for t in ticks:
        y = ymap(t)
        out.append(
            f'<line x1="{x0:.1f}" y1="{y:.1f}" x2="{x0 + pw:.1f}" y2="{y:.1f}" stroke="#e5e7eb"/>'
        )
        out.append(
            f'<text class="tick" x="{x0 - 6:.1f}" y="{y + 4:.1f}" text-anchor="end" '
            f'font-size="{LABEL_PX - 1}" fill="{text_color}">{_fmt(t)}</text>'
        )
    return out, ymap


def _categorical(
    kind: str, series: list, cats: list, colors: list, plot: tuple, text_color: str
) -> list[str]:
    x0, y0, pw, ph = plot
    values = [v for s in series for v in s.get("values", []) if isinstance(v, (int, float))]
    lo, hi = min([0.0, *values]), max([0.0, *values])
    out, ymap = _y_axis(lo, hi, plot, text_color)
    base = ymap(max(lo, 0.0) if lo >= 0 else 0.0)
    out.append(
        f'<line class="axis" x1="{x0:.1f}" y1="{base:.1f}" x2="{x0 + pw:.1f}" y2="{base:.1f}" '
        'stroke="#6b7280"/>'
    )
    n = max(1, len(cats))
    band = pw / n
    for k, c in enumerate(cats):
        out.append(
            f'<text class="label" x="{x0 + band * (k + 0.5):.1f}" y="{y0 + ph + 18:.1f}" '
            f'text-anchor="middle" font-size="{LABEL_PX}" fill="{text_color}">{escape(c)}</text>'
        )
    m = max(1, len(series))
    for j, s in enumerate(series):
        vals = s.get("values", [])
        if kind == "bar":
            bw = band * 0.8 / m
            for k, v in enumerate(vals):
                x = x0 + band * k + band * 0.1 + bw * j
                y1, y2 = sorted((ymap(v), base))
                out.append(
                    f'<rect class="mark" x="{x:.1f}" y="{y1:.1f}" width="{bw:.1f}" '
                    f'height="{y2 - y1:.1f}" fill="{colors[j]}"/>'
                )
        else:  # line
            pts = [(x0 + band * (k + 0.5), ymap(v)) for k, v in enumerate(vals)]
            if len(pts) > 1:
                out.append(
                    f'<polyline points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in pts)}" '
                    f'fill="none" stroke="{colors[j]}" stroke-width="2.5"/>'
                )
            out += [
                f'<circle class="mark" cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colors[j]}"/>'
                for x, y in pts
            ]
    return out


def _scatter(series: list, colors: list, plot: tuple, text_color: str) -> list[str]:
    x0, y0, pw, ph = plot
    pts = [(j, p[0], p[1]) for j, s in enumerate(series) for p in s.get("points", [])]
    xs, ys = [p[1] for p in pts] or [0.0], [p[2] for p in pts] or [0.0]
    out, ymap = _y_axis(min(ys), max(ys), plot, text_color)
    xt = nice_ticks(min(xs), max(xs))
    out.append(
        f'<line class="axis" x1="{x0:.1f}" y1="{y0 + ph:.1f}" x2="{x0 + pw:.1f}" '
        f'y2="{y0 + ph:.1f}" stroke="#6b7280"/>'
    )

    def xmap(v: float) -> float:
        return x0 + (v - xt[0]) / (xt[-1] - xt[0]) * pw

    for t in xt:
        out.append(
            f'<text class="tick" x="{xmap(t):.1f}" y="{y0 + ph + 18:.1f}" text-anchor="middle" '
            f'font-size="{LABEL_PX - 1}" fill="{text_color}">{_fmt(t)}</text>'
        )
    out += [
        f'<circle class="mark" cx="{xmap(x):.1f}" cy="{ymap(y):.1f}" r="4" fill="{colors[j]}"/>'
        for j, x, y in pts
    ]
    return out


def _pie(series: list, cats: list, w: float, h: float, top: float, legend: float) -> list[str]:
    vals = [
        v for v in (series[0].get("values", []) if series else []) if isinstance(v, (int, float))
    ]
    total = sum(vals)
    r = max(0.0, min(w - 16, h - top - legend - 16) / 2)
    cx, cy = w / 2, top + 8 + r
    out = [
        f'<rect class="plot-area" x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r:.1f}" '
        f'height="{2 * r:.1f}" fill="none"/>'
    ]
    a = -math.pi / 2
    for k, v in enumerate(vals):
        if total <= 0 or v <= 0:
            continue
        b = a + 2 * math.pi * v / total
        color = PALETTE[k % len(PALETTE)]
        if v >= total:
            out.append(
                f'<circle class="mark" cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{color}"/>'
            )
        else:
            large = 1 if b - a > math.pi else 0
            out.append(
                f'<path class="mark" d="M{cx:.1f},{cy:.1f} '
                f"L{cx + r * math.cos(a):.1f},{cy + r * math.sin(a):.1f} "
                f"A{r:.1f},{r:.1f} 0 {large} 1 "
                f'{cx + r * math.cos(b):.1f},{cy + r * math.sin(b):.1f} Z" fill="{color}"/>'
            )
        a = b
    out += _legend(list(cats), PALETTE, w, h - 6)
    return out


def _legend(names: list[str], colors: list[str], w: float, y: float) -> list[str]:
    """One row of swatches centred at the bottom (wide legends overlap: the rules see it)."""
    widths = [22 + 7.5 * len(n) for n in names]
    x = (w - sum(widths)) / 2
    out = []
    for k, (n, wd) in enumerate(zip(names, widths)):
        out.append(
            f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="10" height="10" '
            f'fill="{colors[k % len(colors)]}"/>'
        )
        out.append(
            f'<text class="label" x="{x + 14:.1f}" y="{y:.1f}" font-size="{LABEL_PX - 1}">'
            f"{escape(n)}</text>"
        )
        x += wd
    return out
