"""HTML candidates, good and defective, and the assistant message around them.

  good               the app in the variant's layout
  dead_control       the markup's ids differ from the ones the script binds, keys bound to a
                     missing element, taps on touchstart only
  static_shell       markup and styles only, the script never written
  script_error       the whole script dies at parse time
  self_running_dead  the canvas animates by itself; the handlers write settings the loop never reads
  mobile_break       a working page with fixed desktop widths
"""

from __future__ import annotations

import re

from . import charts, games, quizzes, scenes, sims, tools
from .data import app_data, js, plans, script, strings, template
from .page import App, kit_js, layout
from .prompts import Spec

ENGINES = {  # app key -> engine
    "snake": games.app_snake, "breakout": games.app_breakout, "flappy": games.app_flappy,
    "memory": games.app_memory, "pendulum": sims.app_pendulum, "projectile": sims.app_projectile,
    "predprey": sims.app_predprey, "wave": sims.app_wave, "mcq": quizzes.app_mcq,
    "spelling": quizzes.app_spelling, "barpop": charts.app_barpop, "linetemp": charts.app_linetemp,
    "solar3d": scenes.app_solar3d, "molecule3d": scenes.app_molecule3d, "calculator": tools.app_calculator,
    "pomodoro": tools.app_pomodoro, "converter": tools.app_converter,
}


def rename_controls(markup: str, ids: list[str]) -> str:
    """The markup's controls get ids the script never looks up (`start` -> `startBtn`)."""
    for i in ids:
        markup = markup.replace(f'id="{i}"', f'id="{i}Btn"').replace(f'for="{i}"', f'for="{i}Btn"')
    return markup


def break_script(code: str, flavour: int) -> str:
    """Two ways a page's whole script dies before running a line (the kit shares its <script>)."""
    if flavour % 2 == 0:  # a top-level name declared twice: SyntaxError at parse time
        name = re.search(r"^let (\w+)", code, re.M).group(1)
        return code + f"\n// keep the state in one place\nlet {name} = null;\n"
    # cut off mid-function (the answer ran out of tokens): SyntaxError: Unexpected end of input
    lines = code.splitlines()
    cut = next(k for k in range(len(lines) * 2 // 3, len(lines)) if lines[k].rstrip().endswith("{"))
    return "\n".join(lines[: cut + 1]) + "\n"


def self_running_page(spec: Spec, app_key: str, variant: str) -> str:
    """The app's markup, with a script that animates by itself and whose handlers only write
    settings the animation never reads: a user clicking around sees nothing respond."""
    app: App = ENGINES[app_key](spec, variant)
    if app_key == "linetemp":
        data = app_data("linetemp")
        app.js = script("apps/linetemp/self_running.js", temps=js(data["cities"][data["line_cities"][spec.lang][0]]))
    elif app_key == "solar3d":
        app.js = script("apps/gl.js") + script("apps/solar3d/self_running.js")
    else:
        app.js = script(f"apps/{app_key}/self_running.js")
    return layout(spec, app, plans()["layouts"][variant], kit="", extra_css=template("page/no_focus.css"))


def html_candidate(spec: Spec, app_key: str, intended: str, variant: str, n: int) -> str:
    """The document for one candidate; `n` varies details between defective candidates."""
    if intended == "self_running_dead":
        return self_running_page(spec, app_key, variant)
    app = ENGINES[app_key](spec, variant)
    style = plans()["layouts"][variant]
    if intended == "good":
        return layout(spec, app, style, kit_js(app.T))
    if intended == "mobile_break":  # fixed desktop widths: a phone gets a horizontal scrollbar
        return layout(spec, app, style, kit_js(app.T), extra_css="\n" + template("page/desktop_only.css"))
    if intended == "static_shell":  # markup and styles only: the script was never written
        return layout(spec, app, style, "", with_script=False)
    if intended == "script_error":
        app.js = break_script(app.js, n)
        return layout(spec, app, style, kit_js(app.T))
    if intended == "dead_control":
        app.stage, app.tools = rename_controls(app.stage, app.controls), rename_controls(app.tools, app.controls)
        app.side = [rename_controls(p, app.controls) for p in app.side]
        return layout(spec, app, style, kit_js(app.T, broken_bindings=True))
    raise ValueError(f"unknown intended label {intended!r}")


def html_response(spec: Spec, doc: str, k: int) -> str:
    """The assistant message: the document in an html fence, sometimes after one sentence."""
    fence = f"```html\n{doc}```"
    if k % 3 == 1:
        return fence
    intros = strings()["intros"]
    return intros.get(spec.lang, intros["en"])[k % 2] + "\n\n" + fence
