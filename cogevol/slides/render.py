"""Contract -> self-contained HTML at the fixed canvas, rendered and measured in Chromium.

All slides of a deck are stacked in one page (one browser context per deck, not per slide).
Element boxes are exactly the contract's boxes; the content inside keeps its natural size and
is not clipped by its box, so overflow is both visible in the screenshot the judge sees and
measurable from the live DOM (measure.js). The canvas itself clips, like a projector does.
Rendering is deterministic: fixed fonts, no animation, no randomness, charts drawn by charts.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from cogevol.browser.pool import PAGE_URL, BrowserPool
from cogevol.slides.charts import chart_svg
from cogevol.slides.contract import CANVAS_H, CANVAS_W, Deck, Element

MEASURE_JS = (Path(__file__).parent / "measure.js").read_text(encoding="utf-8")
FONTS = {
    "sans": (
        '"Liberation Sans", "DejaVu Sans", Arial, "WenQuanYi Zen Hei", "Noto Sans CJK SC", '
        "sans-serif"
    ),
    "serif": '"Liberation Serif", "DejaVu Serif", Georgia, "WenQuanYi Zen Hei", serif',
    "mono": '"Liberation Mono", "DejaVu Sans Mono", monospace',
}
DEFAULT_THEME = {"background": "#ffffff", "text": "#1f2937", "accent": "#2563eb", "font": "sans"}
DEFAULT_SIZE = {"title": 40, "text": 24, "bullets": 24, "table": 18}


@dataclass
class Rendered:
    """Measurements per slide (list of element dicts from measure.js) and optional PNGs."""

    slides: list[list[dict]]
    pngs: list[bytes] = field(default_factory=list)
    seconds: float = 0.0


def deck_html(deck: Deck) -> str:
    theme = {**DEFAULT_THEME, **deck.theme}
    font = FONTS.get(theme["font"], FONTS["sans"])
    css = (
        f"*{{box-sizing:border-box}}html,body{{margin:0;padding:0;background:#888}}"
        f".slide{{position:relative;width:{CANVAS_W}px;height:{CANVAS_H}px;overflow:hidden;"
        f"background:{theme['background']};color:{theme['text']};font-family:{font}}}"
        ".el{position:absolute}.content{width:100%;line-height:1.25;white-space:pre-wrap}"
        ".content ul{margin:0;padding-left:1.3em;white-space:normal}.content li{margin:0 0 .35em}"
        f".content table{{border-collapse:collapse;width:100%;white-space:normal}}"
        f".content th{{background:{theme['accent']};color:#fff;text-align:left}}"
        ".content th,.content td{padding:.3em .5em;border:1px solid #d1d5db}"
        ".placeholder{width:100%;height:100%;background:#e5e7eb;border:2px dashed #9ca3af;"
        "display:flex;align-items:center;justify-content:center;overflow:hidden;color:#6b7280;"
        "font-size:14px;font-style:italic;text-align:center;padding:8px}"
    )
    slides = []
    for s, elements in enumerate(deck.slides):
        body = "".join(_element_html(e, theme) for e in elements)
        slides.append(f'<section class="slide" data-slide="{s}">{body}</section>')
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{css}</style></head>'
        f"<body>{''.join(slides)}</body></html>"
    )


def _element_html(e: Element, theme: dict) -> str:
    p = e.props
    style = f"left:{e.x:.1f}px;top:{e.y:.1f}px;width:{e.w:.1f}px;height:{e.h:.1f}px"
    attrs = f'class="el" data-slide="{e.slide}" data-index="{e.index}" data-type="{e.type}"'
    if e.type in DEFAULT_SIZE:
        size = p.get("size", DEFAULT_SIZE[e.type])
        weight = "700" if e.type == "title" or p.get("bold") else "400"
        color = p.get("color", theme["text"])
        text_style = (
            f"font-size:{size}px;font-weight:{weight};color:{color};"
            f"text-align:{p.get('align', 'left')}"
        )
        inner = _text_inner(e)
        return (
            f'<div {attrs} style="{style}">'
            f'<div class="content" style="{text_style}">{inner}</div></div>'
        )
    if e.type == "image":
        return (
            f'<div {attrs} style="{style}"><div class="placeholder">{escape(p["alt"])}</div></div>'
        )
    if e.type == "shape":
        fill, stroke = p.get("fill", theme["accent"]), p.get("stroke", "none")
        if p["shape"] == "line":
            y = e.h / 2 if e.h <= 8 else 0
            y2 = e.h / 2 if e.h <= 8 else e.h
            svg = (
                f'<svg width="{e.w:.0f}" height="{e.h:.0f}">'
                f'<line x1="0" y1="{y:.1f}" x2="{e.w:.1f}" y2="{y2:.1f}" '
                f'stroke="{p.get("stroke", fill)}" stroke-width="3"/></svg>'
            )
            return f'<div {attrs} style="{style}">{svg}</div>'
        radius = "50%" if p["shape"] == "ellipse" else "0"
        border = f"3px solid {stroke}" if stroke != "none" else "none"
        return (
            f'<div {attrs} style="{style};background:{fill};border-radius:{radius};'
            f'border:{border}"></div>'
        )
    if e.type == "chart":
        return f'<div {attrs} style="{style}">{chart_svg(e, theme["accent"], theme["text"])}</div>'
    # the contract guarantees this never happens
    raise ValueError(f"unknown element type {e.type!r}")


def _text_inner(e: Element) -> str:
    p = e.props
    if e.type == "bullets":
        return "<ul>" + "".join(f"<li>{escape(i)}</li>" for i in p["items"]) + "</ul>"
    if e.type == "table":
        head = "".join(f"<th>{escape(str(c))}</th>" for c in p["header"])
        rows = "".join(
            "<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in r) + "</tr>" for r in p["rows"]
        )
        return f"<table><tr>{head}</tr>{rows}</table>"
    return escape(p["text"])


class SlideRenderer:
    """Renders decks on long-lived pages of a browser pool.

    A deck page is our own escaped HTML with no script from the model, so one page can be reused
    for every deck (`set_content`), which is what keeps render + rules under the 300 ms target; a
    fresh context per deck costs several times more (benchmarks/slide_speed.py). `pages` decks
    render at once. A page that fails is closed and replaced.
    """

    def __init__(self, pool: BrowserPool, pages: int = 1):
        self.pool = pool
        self._free: asyncio.Queue = asyncio.Queue()
        self._opened: list = []
        self._opening = 0  # pages being opened right now: they count against `pages` already
        self._size = max(1, pages)

    async def _open(self):
        cm = self.pool.page(
            "<!DOCTYPE html><html><body></body></html>", viewport=(CANVAS_W, CANVAS_H)
        )
        page = await cm.__aenter__()
        await page.goto(PAGE_URL, wait_until="load")
        self._opened.append((cm, page))
        return cm, page

    async def _acquire(self):
        """A free page, or a new one while fewer than `pages` exist. Pages being opened count at
        once (concurrent renders must not each open one); None in the queue means a page went
        away, and its waiter may open the replacement."""
        while True:
            if self._free.empty() and len(self._opened) + self._opening < self._size:
                self._opening += 1
                try:
                    return await self._open()
                except BaseException:
                    self._free.put_nowait(None)
                    raise
                finally:
                    self._opening -= 1
            slot = await self._free.get()
            if slot is not None:
                return slot

    async def render(self, deck: Deck, screenshots: bool = False) -> Rendered:
        """Measurements of every element, and a PNG per slide on request."""
        t0 = time.perf_counter()
        slot = await self._acquire()
        cm, page = slot
        try:
            await page.set_content(
                deck_html(deck), wait_until="load", timeout=self.pool.cfg.load_timeout_ms * 2
            )
            measured = await page.evaluate(MEASURE_JS)
            pngs = []
            if screenshots:
                for s in range(len(deck.slides)):
                    clip = {"x": 0, "y": s * CANVAS_H, "width": CANVAS_W, "height": CANVAS_H}
                    pngs.append(
                        await page.screenshot(
                            clip=clip, full_page=True, animations="disabled", timeout=5000
                        )
                    )
        except BaseException as e:
            self._opened.remove(slot)
            self._free.put_nowait(None)  # a waiter may open the replacement
            with contextlib.suppress(Exception):
                await cm.__aexit__(type(e), e, None)
            raise
        self._free.put_nowait(slot)
        slides: list[list[dict]] = [[] for _ in deck.slides]
        for m in measured:
            slides[m["slide"]].append(m)
        return Rendered(slides=slides, pngs=pngs, seconds=time.perf_counter() - t0)

    async def close(self) -> None:
        for cm, _ in self._opened:
            with contextlib.suppress(Exception):
                await cm.__aexit__(None, None, None)
        self._opened = []
        self._free = asyncio.Queue()
