"""HTML engines: 3D scenes drawn with a real WebGL context (solar system, molecule viewer).

Both start with the small WebGL toolkit templates/apps/gl.js (one lit shader, sphere / cylinder
/ ring meshes, 4x4 matrices).
"""

from __future__ import annotations

from .data import app_data, frag, js, jsbool, script, title_sub, ui
from .page import App, feature_tools, select, slider, stat
from .prompts import Spec


def app_solar3d(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "solar3d")
    countdown = "countdown" in spec.features
    stage = frag("apps/solar3d/stage.html", T, time_stat=stat(T["time"], "time", 60, " s") if countdown else "")
    settings = (slider("speed", T["speed"], 0.2, 3, 0.1, 1, "×") + slider("tilt", T["tilt"], 5, 80, 1, 25, "°")
                + frag("apps/solar3d/buttons.html", T, tour_button=frag("apps/solar3d/tour.html", T) if countdown else ""))
    code = script("apps/gl.js") + script("apps/solar3d/solar3d.js", planets=js(app_data("solar3d")["planets"]),
                                         stars=jsbool(v == "2"), countdown=jsbool(countdown), seg=10 if v == "3" else 12)
    title, sub = title_sub("solar3d", spec.lang)
    return App(title=title, subtitle=sub, stage=stage, js=code, side=[settings], tools=feature_tools(spec, T),
               controls=["run", "tour", "turn-left", "turn-right", "speed", "tilt", "dark", "sound"], T=T)


def app_molecule3d(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "molecule3d")
    stage = frag("apps/molecule3d/stage.html", T, first=T["mols"][0],
                 mol_select=select("mol", T["molecule"], [(str(k), n) for k, n in enumerate(T["mols"])]))
    settings = (select("look", T["style"], [("sticks", T["sticks"]), ("spheres", T["spheres"])])
                + select("colours", T["colours"], [("cpk", T["cpk"]), ("mono", T["mono"])])
                + slider("zoom", T["zoom"], 0.6, 1.8, 0.1, 1, "×") + frag("apps/molecule3d/buttons.html", T))
    code = script("apps/gl.js") + script("apps/molecule3d/molecule3d.js", mols=js(app_data("molecule3d")["molecules"]))
    title, sub = title_sub("molecule3d", spec.lang)
    return App(title=title, subtitle=sub, stage=stage, js=code, side=[settings], tools=feature_tools(spec, T),
               controls=["mol", "spin", "turn-left", "turn-right", "reset", "look", "colours", "zoom", "dark",
                         "sound"], T=T)
