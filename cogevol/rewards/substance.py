"""Does the page show anything? The substance half of the reward's floor.

A title over an empty box, a script that sorts an array and only logs it, a heading and a
"coming soon" line: each renders, lays out well and throws no error, so the defect terms found
little wrong with them (0.5-0.85). What they lack is content. This module prices that from what
the first screen holds and what changes, measured the same way in every language and for every
topic (no word lists):

- text: words of visible text, titles and labels included (a CJK character is half a word),
  outside pre, code and text areas: a title and a button alone are a handful of words, a hero
  card with a title, a sentence and its button a dozen or more;
- drawn: painted leaf shapes (a bar, a board's cell, an SVG shape, a loaded picture) and what
  canvases hold drawn (cogevol.probe.pixels.ink_in_boxes), and text written on canvases;
- change: anything moving on its own, or any control whose input changed what is shown.

A page with too little of all three is empty (the thresholds below). The reward then follows the
request: a request that asks for something to see or do hard-fails it (`substance.empty`); the
rare one that asks for neither (no request text, a page that may stay bare) caps it at
`EMPTY_CAP`.
"""

from __future__ import annotations

import re

from cogevol.core.text import CJK_CHAR
from cogevol.probe.config import ProbeResult

MIN_WORDS = 12  # fewer words of visible text than this ...
MIN_SHAPES = 3  # ... fewer painted shapes than this (an empty box and its frame are two) ...
MIN_CANVAS_INK = 0.01  # ... less of the screen drawn on canvases than this ...
MIN_CANVAS_TEXTS = 3  # ... and fewer canvas texts than this, with nothing changing: empty
EMPTY_CAP = 0.3  # the reward of an empty page whose request asks for nothing to see or do


def words(text: str) -> float:
    """Words in a text: runs of letters or digits, a CJK character counting as half a word."""
    cjk = len(CJK_CHAR.findall(text))
    return len(re.findall(r"\w+", CJK_CHAR.sub(" ", text))) + cjk / 2


def emptiness(result: ProbeResult, live_controls: int) -> str:
    """Why the page shows next to nothing, or "" when it shows something (or was not measured).
    `live_controls`: controls whose input changed what is shown."""
    s = result.shown
    if not s or result.fill is None:
        return ""
    if result.animates or result.moves_later or result.changes or live_controls:
        return ""
    if result.budget_exhausted:  # what its controls do was never measured: the budget is no verdict
        return ""
    n = words(s.get("prose", ""))
    ink = float(s.get("canvasInk", 0.0))
    shapes, texts = int(s.get("shapes", 0)), int(s.get("canvasTexts", 0))
    if n >= MIN_WORDS or shapes >= MIN_SHAPES or ink >= MIN_CANVAS_INK or texts >= MIN_CANVAS_TEXTS:
        return ""
    return (
        f"next to nothing shown: {n:g} words of text, {shapes} painted shapes,"
        f" {ink:.1%} of the screen drawn on canvases, nothing changes"
    )
