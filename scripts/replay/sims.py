"""HTML engines: simulations (pendulum, projectile motion, predator-prey, wave interference).

They start still; sliders and buttons change the canvas animation, `Reset` stops it.
"""

from __future__ import annotations

from .data import frag, jsbool, script, title_sub, ui
from .page import App, feature_tools, select, slider, stat
from .prompts import Spec


def _gravity(T: dict) -> str:
    return select("grav", T["gravity"], [("9.81", T["earth"]), ("1.62", T["moon"]), ("3.71", T["mars"])])


def app_pendulum(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "pendulum")
    settings = _gravity(T) + slider("len", T["length"], 0.5, 3, 0.1, 1.5, " m") + slider("amp", T["amp"], 5, 80, 1, 30, "°")
    code = script("apps/pendulum/pendulum.js", view={"1": "plain", "2": "energy", "3": "trace"}.get(v, "plain"))
    title, sub = title_sub("pendulum", spec.lang)
    return App(title=title, subtitle=sub, stage=frag("apps/pendulum/stage.html", T), js=code, side=[settings],
               tools=feature_tools(spec, T), controls=["run", "reset", "len", "amp", "grav", "dark", "sound"], T=T)


def app_projectile(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "projectile")
    target = v == "3"
    stage = frag("apps/projectile/stage.html", T, target_stat=frag("apps/projectile/target.html", T) if target else "")
    settings = (_gravity(T) + slider("angle", T["angle"], 10, 80, 1, 45, "°")
                + slider("speed", T["speed"], 5, 30, 0.5, 18, " m/s"))
    title, sub = title_sub("projectile", spec.lang)
    return App(title=title, subtitle=sub, stage=stage, js=script("apps/projectile/projectile.js", target=jsbool(target)),
               side=[settings], tools=feature_tools(spec, T),
               controls=["launch", "clear", "angle", "speed", "grav", "dark", "sound"], T=T)


def app_predprey(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "predprey")
    settings = slider("alpha", T["birth"], 0.4, 2, 0.05, 1.1) + slider("gamma", T["death"], 0.1, 1.2, 0.05, 0.4)
    title, sub = title_sub("predprey", spec.lang)
    return App(title=title, subtitle=sub, stage=frag("apps/predprey/stage.html", T),
               js=script("apps/predprey/predprey.js", phase=jsbool(v == "2")), side=[settings],
               tools=feature_tools(spec, T), controls=["run", "reset", "add", "alpha", "gamma", "dark", "sound"], T=T)


def app_wave(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "wave")
    score = stat(T["score"], "score", 0) if "score" in spec.features else ""
    settings = (select("view", T["view"], [("field", T["field"]), ("rings", T["rings"])], 1 if v == "2" else 0)
                + slider("lambda", T["wavelength"], 10, 60, 1, 28, " px") + slider("gap", T["gap"], 20, 200, 5, 90, " px"))
    title, sub = title_sub("wave", spec.lang)
    return App(title=title, subtitle=sub, stage=frag("apps/wave/stage.html", T, score_stat=score),
               js=script("apps/wave/wave.js"), side=[settings], tools=feature_tools(spec, T),
               controls=["run", "reset", "lambda", "gap", "view", "dark", "sound"], T=T)
