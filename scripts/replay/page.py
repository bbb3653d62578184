"""The HTML page around an app: three layouts (templates/page/), the shared kit, small widgets.

Each engine builds an App for one prompt (its language, features, colour) in one of a few
variants; a layout turns it into a page, so the two teachers' answers differ in structure and
style. Conventions every engine keeps, because they are what makes a page honest to use: every
control changes something a user can see; canvases take their width from the viewport; state is
only read from controls inside their handlers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .data import fill, frag, js, script, template
from .prompts import Spec


@dataclass
class App:
    """What an engine returns; a layout turns it into a page."""

    title: str
    subtitle: str
    stage: str  # the main panel: canvas / board and its controls
    js: str  # the app's script (after the kit)
    side: list[str] = field(default_factory=list)  # further panels (settings, leaderboard, help)
    tools: str = ""  # header toggles
    css: str = ""
    controls: list[str] = field(default_factory=list)  # ids of operable controls (dead_control renames them)
    T: dict = field(default_factory=dict)  # interface strings, inlined as `const T`


def kit_js(T: dict, broken_bindings: bool = False) -> str:
    """The shared helpers (element lookup, dark mode and sound toggles, leaderboard);
    `broken_bindings` reproduces two classic dead-control bugs: keys bound to an element that
    does not exist, taps bound to touchstart only (a mouse never fires it)."""
    board = [[n, p] for n, p in zip(T["names"], (12, 8, 5))]
    if broken_bindings:
        return script("page/kit.js", board=js(board), onkeys="(fn) => on('game', 'keydown', fn)", tap="'touchstart'")
    return script("page/kit.js", board=js(board), onkeys="(fn) => window.addEventListener('keydown', fn)", tap="'click'")


def board_panel(T: dict) -> str:
    return frag("widgets/leaderboard.html", T)


def feature_tools(spec: Spec, T: dict) -> str:
    """Header toggles the request asked for."""
    out = []
    if "dark" in spec.features:
        out.append(frag("widgets/dark.html", T))
    if "sound" in spec.features:
        out.append(frag("widgets/sound.html", T))
    return "".join(out)


def slider(id_: str, label: str, lo: float, hi: float, step: float, value: float, unit: str = "") -> str:
    return frag("widgets/slider.html", id=id_, label=label, lo=f"{lo:g}", hi=f"{hi:g}", step=f"{step:g}",
                value=f"{value:g}", unit=unit)


def select(id_: str, label: str, options: list[tuple[str, str]], selected: int = 0) -> str:
    opts = "".join(frag("widgets/option.html", value=v, selected=" selected" if k == selected else "", text=t)
                   for k, (v, t) in enumerate(options))
    return frag("widgets/select.html", id=id_, label=label, options=opts)


def stat(label: str, id_: str, value: object, unit: str = "") -> str:
    """`label: <b id>value</b>unit`, one entry of a stats row."""
    return frag("widgets/stat.html", label=label, id=id_, value=value, unit=unit)


def layout(spec: Spec, app: App, style: str, kit: str, extra_css: str = "", with_script: bool = True) -> str:
    """The page: templates/page/<style>.html around the app, its CSS and its script."""
    T = app.T
    a, t, d = spec.palette
    css = fill(template("page/base.css"), accent=a, tint=t, deep=d) + template(f"page/{style}.css") + app.css + extra_css
    side = "".join(frag("widgets/panel.html", content=p) for p in app.side)
    used = set(re.findall(r"\bT\.(\w+)", kit + app.js))  # inline only the strings the script uses
    tail = ""
    if with_script:
        tail = fill(template("page/script.html"), strings=js({k: v for k, v in T.items() if k in used}), kit=kit,
                    code=app.js.strip())
    return fill(template(f"page/{style}.html"), lang=spec.lang, title=app.title, tools=app.tools, subtitle=app.subtitle,
                css=_compact_css(css), stage=app.stage, side=side, script=tail)


def _compact_css(css: str) -> str:
    return "\n".join(line.strip() for line in css.strip().splitlines() if line.strip())
