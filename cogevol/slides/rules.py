"""The geometric rule engine: truths about a rendered slide, each scored 0-5 with named violations.

Every rule reads the measurements of the live DOM (render.py / measure.js), not the contract's
numbers alone: a text box that is big enough on paper but whose text wraps past its bottom edge
overflows, and overlaps are computed on what each element actually paints ("ink"). Rules start
at 5 and lose points per violation; a rule that does not apply (no chart on the slide, a
one-slide deck for theme consistency) is left out and the weights renormalised, and the report
says which rules were used. Seed 000 gives the slide reward 40% to this engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from cogevol.slides.contract import CANVAS_H, CANVAS_W, Deck, Element

RULES = (
    "canvas_use",
    "collisions",
    "text_fit",
    "legibility",
    "chart_geometry",
    "theme_consistency",
)


@dataclass
class RuleConfig:
    """Weights and thresholds of the rule engine (params.yaml: slides.rules)."""

    weights: dict[str, float] = field(
        default_factory=lambda: {
            "canvas_use": 1.0,
            "collisions": 1.0,
            "text_fit": 1.0,
            "legibility": 1.0,
            "chart_geometry": 1.0,
            "theme_consistency": 0.5,
        }
    )
    min_fill: float = 0.15
    max_fill: float = 0.85
    edge_margin_px: float = 12.0
    overlap_tolerance: float = 0.02
    overflow_tolerance_px: float = 2.0
    min_font_px: float = 14.0
    min_title_px: float = 24.0
    max_line_chars: float = 90.0
    max_words: int = 120
    chart_aspect: tuple[float, float] = (0.4, 4.0)
    min_plot_px: tuple[float, float] = (160.0, 90.0)


def rule_config(d: dict) -> RuleConfig:
    """RuleConfig from params (YAML lists become the tuples the config holds)."""
    d = dict(d)
    for k in ("chart_aspect", "min_plot_px"):
        if k in d:
            d[k] = tuple(d[k])
    if "weights" in d:
        d["weights"] = {**RuleConfig().weights, **d["weights"]}
    return RuleConfig(**d)


@dataclass
class RuleReport:
    score: float  # 0-5, weighted over the rules that applied
    rules: dict[str, float | None]  # per-rule 0-5, None when not applicable
    violations: list[str]


def evaluate(deck: Deck, measured: list[list[dict]], cfg: RuleConfig | None = None) -> RuleReport:
    cfg = cfg or RuleConfig()
    per_rule: dict[str, list[float]] = {r: [] for r in RULES}
    violations: list[str] = []
    for s, (elements, meas) in enumerate(zip(deck.slides, measured)):
        by_index = {m["index"]: m for m in meas}
        items = [(e, by_index[e.index]) for e in elements if e.index in by_index]
        for name, fn in _SLIDE_RULES.items():
            result = fn(items, cfg, f"slide {s + 1}")
            if result is not None:
                score, found = result
                per_rule[name].append(score)
                violations += [f"{name}: {v}" for v in found]
    theme = _theme_consistency(deck, measured, cfg)
    if theme is not None:
        per_rule["theme_consistency"].append(theme[0])
        violations += [f"theme_consistency: {v}" for v in theme[1]]
    # a deck is as good as its slides on average, but
    # one broken slide must show: half mean, half worst
    rules = {
        r: (round(float(np.mean(v) + np.min(v)) / 2, 3) if v else None) for r, v in per_rule.items()
    }
    used = {
        r: cfg.weights.get(r, 0.0)
        for r, v in rules.items()
        if v is not None and cfg.weights.get(r, 0.0) > 0
    }
    total = sum(used.values())
    score = sum(rules[r] * w for r, w in used.items()) / total if total else 0.0
    return RuleReport(score=round(score, 3), rules=rules, violations=violations)


# --- geometry ---------------------------------------------------------------------------------


def _area(r: list[float]) -> float:
    return max(0.0, r[2]) * max(0.0, r[3])


def _intersection(a: list[float], b: list[float]) -> float:
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def _canvas_share(r: list[float]) -> float:
    area = _area(r)
    return _intersection(r, [0, 0, CANVAS_W, CANVAS_H]) / area if area else 1.0


def _coverage(rects: list[list[float]], cell: int = 8) -> float:
    """Share of the canvas covered by the union of rects (on an 8 px grid: fast and exact
    enough)."""
    grid = np.zeros((CANVAS_H // cell, CANVAS_W // cell), dtype=bool)
    for x, y, w, h in rects:
        x0, y0 = max(0, int(x // cell)), max(0, int(y // cell))
        x1, y1 = (
            min(grid.shape[1], int(np.ceil((x + w) / cell))),
            min(grid.shape[0], int(np.ceil((y + h) / cell))),
        )
        if x1 > x0 and y1 > y0:
            grid[y0:y1, x0:x1] = True
    return float(grid.mean())


def _edges(r: list[float]) -> str:
    sides = [
        ("left", -r[0]),
        ("top", -r[1]),
        ("right", r[0] + r[2] - CANVAS_W),
        ("bottom", r[1] + r[3] - CANVAS_H),
    ]
    side, px = max(sides, key=lambda s: s[1])
    return f"{px:.0f} px past the {side} edge"


# --- per-slide rules: each returns (score, violations) or None when it does not apply -----------


def _canvas_use(items: list[tuple[Element, dict]], cfg: RuleConfig, slide: str):
    content = [(e, m) for e, m in items if e.type != "shape"]
    if not content:
        return 0.0, [f"{slide} has no content"]
    score, found = 5.0, []
    fill = _coverage([m["ink"] for _, m in content])
    if fill < cfg.min_fill:
        score -= 3.0 * (1 - fill / cfg.min_fill)
        found.append(f"{slide} uses {fill:.0%} of the canvas (under {cfg.min_fill:.0%})")
    elif fill > cfg.max_fill:
        score -= min(2.5, 2.5 * (fill - cfg.max_fill) / (1 - cfg.max_fill) + 1)
        found.append(f"{slide} is crammed: {fill:.0%} of the canvas covered")
    for e, m in items:
        share = _canvas_share(m["ink"])
        if share < 0.99:
            score -= 1.0 + 3.0 * (1 - share)
            found.append(f"{e.label} is {1 - share:.0%} outside the canvas ({_edges(m['ink'])})")
        elif e.type != "shape":
            x, y, w, h = m["ink"]
            if min(x, y, CANVAS_W - x - w, CANVAS_H - y - h) < cfg.edge_margin_px:
                score -= 0.25
                found.append(f"{e.label} touches the canvas edge")
    return max(0.0, score), found


def _collisions(items: list[tuple[Element, dict]], cfg: RuleConfig, slide: str):
    solid = [(e, m) for e, m in items if e.type != "shape"]
    if len(solid) < 2:
        return (5.0, []) if solid else None
    score, found = 5.0, []
    for k, (a, ma) in enumerate(solid):
        for b, mb in solid[k + 1 :]:
            inter = _intersection(ma["ink"], mb["ink"])
            smaller = min(_area(ma["ink"]), _area(mb["ink"])) or 1.0
            frac = inter / smaller
            if frac > cfg.overlap_tolerance:
                what = "text over text" if a.is_text and b.is_text else f"{a.type} over {b.type}"
                score -= min(3.0, 1.0 + 3.0 * frac)
                found.append(f"{a.label} and {b.label} overlap ({what}, {frac:.0%} of the smaller)")
    return max(0.0, score), found


def _text_fit(items: list[tuple[Element, dict]], cfg: RuleConfig, slide: str):
    texts = [(e, m) for e, m in items if e.is_text]
    if not texts:
        return None
    score, found = 5.0, []
    tol = cfg.overflow_tolerance_px
    for e, m in texts:
        ox, oy = m["overflow_x"], m["overflow_y"]
        if oy > tol:
            score -= 1.0 + 2.0 * min(1.0, oy / max(e.h, 1.0))
            found.append(f"{e.label} overflows its box by {oy:.0f} px at the bottom")
        if ox > tol:
            score -= 1.0 + 2.0 * min(1.0, ox / max(e.w, 1.0))
            found.append(f"{e.label} overflows its box by {ox:.0f} px at the right")
    return max(0.0, score), found


def _legibility(items: list[tuple[Element, dict]], cfg: RuleConfig, slide: str):
    texts = [(e, m) for e, m in items if e.is_text and m["blocks"]]
    if not texts:
        return None
    score, found = 5.0, []
    words = 0
    for e, m in texts:
        floor = cfg.min_title_px if e.type == "title" else cfg.min_font_px
        size = m["font_min"]
        if size is not None and size < floor:
            score -= 1.0 + 2.0 * (floor - size) / floor
            found.append(f"{e.label} font {size:.0f} px is under {floor:.0f} px")
        prose = [b for b in m["blocks"] if not b["cell"]]
        longest = max((b["chars"] / b["lines"] for b in prose), default=0.0)
        if longest > cfg.max_line_chars:
            score -= 0.75
            found.append(
                f"{e.label} lines average {longest:.0f} characters (over {cfg.max_line_chars:.0f})"
            )
        if any(b["lines"] >= 4 and b["chars"] / b["lines"] < 10 for b in prose):
            score -= 0.5
            found.append(f"{e.label} is squeezed into a narrow column")
        words += sum(_words(str(t)) for t in _texts(e))
    if words > cfg.max_words:
        score -= 1.0
        found.append(f"{slide} has {words} words (over {cfg.max_words})")
    return max(0.0, score), found


def _chart_geometry(items: list[tuple[Element, dict]], cfg: RuleConfig, slide: str):
    charts = [(e, m) for e, m in items if e.type == "chart" and m.get("chart")]
    if not charts:
        return None
    score, found = 5.0, []
    for e, m in charts:
        c, kind = m["chart"], e.props["chart"]
        data = [
            v
            for s in e.props.get("series", [])
            for v in s.get("points" if kind == "scatter" else "values", [])
        ]
        flat = [abs(v[1]) if isinstance(v, list) else abs(v) for v in data]
        if not data or not any(flat):
            score -= 3.0
            found.append(f"{e.label} has no data (empty or all-zero series)")
        elif len(data) < 2:
            score -= 1.5
            found.append(f"{e.label} shows a single value")
        if kind != "pie" and c["axes"] < 2:
            score -= 1.0
            found.append(f"{e.label} has no axes")
        aspect = e.w / max(e.h, 1.0)
        if not cfg.chart_aspect[0] <= aspect <= cfg.chart_aspect[1]:
            score -= 1.5
            found.append(
                f"{e.label} has aspect ratio {aspect:.1f} "
                f"(outside {cfg.chart_aspect[0]}-{cfg.chart_aspect[1]})"
            )
        plot = c["plot"]
        if plot is None or plot[2] < cfg.min_plot_px[0] or plot[3] < cfg.min_plot_px[1]:
            score -= 1.5
            size = f"{plot[2]:.0f}x{plot[3]:.0f} px" if plot else "none"
            found.append(f"{e.label} plot area {size} is too small to read")
        elif any(not _inside(mk, plot, 5.0) for mk in c["marks"]):  # point marks have a 4 px radius
            score -= 1.5
            found.append(f"{e.label} draws marks outside its plot area")
        labels = c["labels"]
        clashes = sum(
            1 for k, a in enumerate(labels) for b in labels[k + 1 :] if _intersection(a, b) > 1.0
        )
        if clashes:
            score -= min(2.5, 0.5 + 0.25 * clashes)
            found.append(f"{e.label} has {clashes} overlapping label pair(s)")
        if any(not _inside(lb, m["box"], 2.0) for lb in labels):
            score -= 0.5
            found.append(f"{e.label} has labels outside its box")
    return max(0.0, score), found


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _words(text: str) -> int:
    """Words, counting two CJK characters as one word (the usual reading-load equivalence)."""
    return len(_CJK.sub(" ", text).split()) + len(_CJK.findall(text)) // 2


def _inside(r: list[float], box: list[float], tol: float) -> bool:
    return (
        r[0] >= box[0] - tol
        and r[1] >= box[1] - tol
        and r[0] + r[2] <= box[0] + box[2] + tol
        and r[1] + r[3] <= box[1] + box[3] + tol
    )


def _texts(e: Element) -> list:
    p = e.props
    if e.type == "bullets":
        return p["items"]
    if e.type == "table":
        return [*p["header"], *(c for r in p["rows"] for c in r)]
    return [p["text"]]


_SLIDE_RULES = {
    "canvas_use": _canvas_use,
    "collisions": _collisions,
    "text_fit": _text_fit,
    "legibility": _legibility,
    "chart_geometry": _chart_geometry,
}


def _theme_consistency(deck: Deck, measured: list[list[dict]], cfg: RuleConfig):
    """Across a deck: one title size and position, few text colours and body sizes."""
    if len(deck.slides) < 2:
        return None
    score, found = 5.0, []
    titles = [e for s in deck.slides for e in s if e.type == "title"]
    sizes = {e.props.get("size", 40) for e in titles}
    if len(sizes) > 1:
        score -= 1.0
        found.append(f"titles use {len(sizes)} sizes: {sorted(sizes)}")
    if len(titles) > 1 and np.std([e.y for e in titles]) > 24:
        score -= 1.0
        found.append("titles jump around between slides (y spread over 24 px)")
    colors = {e.props["color"] for s in deck.slides for e in s if e.is_text and "color" in e.props}
    if len(colors) > 3:
        score -= 1.0
        found.append(f"text uses {len(colors)} colours")
    body = {
        e.props.get("size", 24) for s in deck.slides for e in s if e.type in ("text", "bullets")
    }
    if len(body) > 3:
        score -= 1.0
        found.append(f"body text uses {len(body)} sizes")
    return max(0.0, score), found
