"""Arithmetic on screenshots: how much of the first screen is filled, and how many pixels an
input changed once the control's own redraw is masked out.

Kept on its own because it is the only part of the probe that needs PIL and numpy (imported
when first used, so that loading the probe stays cheap), and because the thresholds here are
what the pixel fallback of a verdict rests on.
"""

from __future__ import annotations

from typing import Any


def screen_fill(png: bytes) -> float:
    """Share of the screen that is not background: 8x8-pixel cells whose colour differs from the
    most common cell colour. A blank canvas with one small sprite is near 0; a laid-out page
    or a scene that fills the window is well above 0.2."""
    from io import BytesIO

    from PIL import Image

    im = Image.open(BytesIO(png)).convert("RGB")
    return round(float(_off_mode(im).mean()), 4)


def _off_mode(im: Any) -> Any:
    """Per 8x8-pixel cell of a PIL image, whether its colour differs from the most common cell
    colour (colours compared at 4 bits a channel)."""
    import numpy as np
    from PIL import Image

    cells = (
        np.asarray(im.resize((max(1, im.width // 8), max(1, im.height // 8)), Image.BOX))
        .reshape(-1, 3)
        .astype(np.int32)
        >> 4
    )
    keys = (cells[:, 0] << 8) | (cells[:, 1] << 4) | cells[:, 2]
    mode = cells[np.bincount(keys).argmax() == keys][0]
    return np.abs(cells - mode).max(axis=1) > 1


def ink_in_boxes(png: bytes, boxes: list[list[float]]) -> float:
    """Share of the screen that boxes (canvases) hold drawn on: within each box, the 8x8-pixel
    cells whose colour differs from the box's most common cell colour. An empty or one-colour
    canvas is 0 however large it is; a chart's bars or a sprite count as what they cover."""
    from io import BytesIO

    from PIL import Image

    im = Image.open(BytesIO(png)).convert("RGB")
    inked = 0
    for x, y, w, h in boxes:
        left, top = max(0, int(x)), max(0, int(y))
        right, bottom = min(im.width, int(x + w)), min(im.height, int(y + h))
        if right - left < 8 or bottom - top < 8:
            continue
        inked += int(_off_mode(im.crop((left, top, right, bottom))).sum()) * 64
    return round(inked / max(1, im.width * im.height), 4)


def masked(png: bytes, boxes: list[list[float]]) -> Any:
    """The screenshot as a PIL image with each box (a control and its focus ring) blacked
    out: a control redrawing itself under the input is its echo, not a response."""
    from io import BytesIO

    from PIL import Image, ImageDraw

    im = Image.open(BytesIO(png)).convert("RGB")
    for x, y, w, h in boxes:
        ImageDraw.Draw(im).rectangle([x - 10, y - 10, x + w + 10, y + h + 10], fill=(0, 0, 0))
    return im


def changed_pixels(a: Any, b: Any) -> int:
    """Pixels that differ between two screenshots (PIL images of the same size)."""
    from PIL import ImageChops

    if a.size != b.size:
        return a.size[0] * a.size[1]
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 8 else 0)
    return diff.histogram()[255]
