"""Which input each control gets, and in what order the controls are driven.

A control is only judged dead after it got the input a person would give it, so the choice
of input is its own concern: key names read out of the page's handlers translated for
Playwright, the usual game keys after them, five points and the drawn shapes of a canvas, the
pieces of a board, a drag where the page listens for a press. The order spends the page
budget on what the request names first. An Action holds the gesture steps for one control; the
steps actually performed are kept on it, so that a twin rebuilt by replay presses the same
ones.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cogevol.probe.config import Action, Control, ProbeConfig, pointer_end

if TYPE_CHECKING:
    from cogevol.probe.session import Session

KEYS = (
    "ArrowLeft",
    "ArrowRight",
    "ArrowUp",
    "ArrowDown",
    "Space",
    "Enter",
    "KeyW",
    "KeyA",
    "KeyS",
    "KeyD",
)
# where a canvas is clicked (fractions of its box): its centre, then its four quarter points,
# which a pointer moved without a press also crosses
CANVAS_POINTS = ((0.5, 0.5), (0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75))

# key values as handlers compare them -> Playwright key names
_NAMED = {
    "Enter",
    "Escape",
    "Tab",
    "Backspace",
    "Delete",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Shift",
    "Control",
    "Alt",
    "Meta",
    "Space",
    "Insert",
    "ArrowLeft",
    "ArrowRight",
    "ArrowUp",
    "ArrowDown",
    *(f"F{k}" for k in range(1, 13)),
}
_KEYCODES = {
    8: "Backspace",
    9: "Tab",
    13: "Enter",
    27: "Escape",
    32: "Space",
    37: "ArrowLeft",
    38: "ArrowUp",
    39: "ArrowRight",
    40: "ArrowDown",
    46: "Delete",
    **{c: chr(c).lower() for c in range(65, 91)},
    **{c: chr(c) for c in range(48, 58)},
}


def key_name(value: str) -> str | None:
    """A key value read from a handler (`'r'`, `"KeyR"`, `'ArrowUp'`, `'#82'` for keyCode 82)
    as a key Playwright can press, or None."""
    if value.startswith("#"):
        return _KEYCODES.get(int(value[1:]))
    if value in (" ", "Spacebar"):
        return "Space"
    if value in ("Esc",):
        return "Escape"
    if len(value) == 1 and value.isprintable():
        return value
    if value in _NAMED or re.fullmatch(r"(Key[A-Z]|Digit[0-9]|Numpad[0-9])", value):
        return value
    if value.startswith("Arrow") and value.lower() in {k.lower() for k in _NAMED}:
        return next(k for k in _NAMED if k.lower() == value.lower())
    return None


def _words(text: str) -> set[str]:
    """Words of a label or request for matching them against each other (CJK: characters)."""
    text = text.lower()
    return {w for w in re.findall(r"[^\W\d_]{3,}", text) if w.isascii()} | set(
        re.findall(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]", text)
    )


def order_controls(controls: list[Control], request: str) -> list[int]:
    """Operable controls to drive: those whose label the request names first, then the rest in
    document order (so the budget is spent on what the request asks for)."""
    asked = _words(request or "")
    operable = [k for k, c in enumerate(controls) if c.status == "operable"]
    if not asked:
        return operable
    if re.search(
        r"\b(key|keys|keyboard|arrow|wasd|press)\b|键盘|按键|キー|키보드", request.lower()
    ):
        asked |= {"keyboard"}
    named = [k for k in operable if _words(controls[k].label + " " + controls[k].kind) & asked]
    return named + [k for k in operable if k not in named]


async def keyboard_action(
    a: Session, c: Control, key_values: list[str], cfg: ProbeConfig
) -> Action:
    """The keys pseudo-control: first the keys the handlers compare against, then the usual
    game keys, each held across frames (focused on the listener when only it listens)."""
    # its own focus ring is not a response
    box = await a.call("box", c.index) if c.index >= 0 else None
    found = [k for k in key_values if k not in KEYS][: cfg.max_keys]
    steps = [("key", "handler-keys", k) for k in found] + [
        ("key", "default-keys", k) for k in KEYS
    ][: max(0, cfg.max_keys - len(found))]
    return Action("keyboard", c.index, box=box, key_target=c.index, steps=steps)


async def pointer_action(a: Session, c: Control, aim: dict, cfg: ProbeConfig) -> Action | None:
    """The input for a control aimed at (`aim`: its point and box in the viewport); None, with
    the control marked not operable, when there is nothing to do (a select with one option)."""
    x, y, box = aim["x"], aim["y"], aim["box"]
    drag = (
        [("drag", "drag", x, y, x + min(80, box[2] / 3 + 20), y + min(40, box[3] / 3 + 10))]
        if c.drag
        else []
    )
    if c.kind == "select":
        option = await a.call("nextOption", c.index)
        if option < 0:
            c.status, c.reason = "not_operable", "select with a single option"
            return None
        steps = [("select", "select", option)]
    elif c.kind == "text":
        number = await a.page.evaluate(
            "(i) => window.__cogevolProbe.controls[i].type === 'number'", c.index
        )
        steps = [("type", "type", x, y, "42" if number else " hello world")]
    elif c.kind == "range":
        steps = [("click", "range", box[0] + 0.85 * box[2], y)]
    elif c.kind == "canvas":
        x0, y0, w, h = box
        points = [(x0 + fx * w, y0 + fy * h) for fx, fy in CANVAS_POINTS]
        steps = [("tap", "canvas-points", px, py) for px, py in points]
        # drawn shapes are worth clicking only where something listens for the click
        shapes = (
            await a.call("shapeTargets", c.index, cfg.canvas_shapes)
            if cfg.canvas_shapes and c.hears
            else []
        )
        steps += [("tap", "canvas-shapes", sx, sy) for sx, sy in shapes]
        steps += drag
        # a scene that follows the pointer (particles drawn to it, a camera that leans with it,
        # a tooltip over what it points at): the pointer crosses the canvas without a press,
        # only where nothing covers it, and ends as far as it can from where the last step left
        # it; the twin's pointer stays put, the pointer's place being the input here
        px, py = pointer_end(steps[-1])
        own = await a.call("ownPoints", c.index, points[1:])  # the four quarter points
        path = sorted((tuple(p) for p in own), key=lambda p: (p[0] - px) ** 2 + (p[1] - py) ** 2)
        if path:
            steps.append(("hover", "canvas-hover", *path[-1], tuple(path)))
    else:
        # a board's centre may fall between its pieces: then its pieces, as a person plays it
        n = cfg.board_pieces
        pieces = await a.call("pieceTargets", c.index, n) if n else []
        steps = [("click", "click", x, y), *(("click", "pieces", u, v) for u, v in pieces), *drag]
    return Action(c.kind, c.index, x, y, box, steps=steps)
