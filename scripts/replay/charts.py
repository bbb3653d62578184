"""HTML engines: data visualisation (population bar chart, temperature line chart).

Controls change the data; canvas or SVG per variant. The line chart also makes the `page`
answers: variant 4 puts tabs under the chart, variant 5 accordions.
"""

from __future__ import annotations

from .data import app_data, frag, js, jsbool, script, template, title_sub, ui
from .page import App, feature_tools, select, slider
from .prompts import Spec


def app_barpop(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "barpop")
    svg = v == "2"
    orders = [("size", T["by_size"]), ("name", T["by_name"]), ("growth", T["by_growth"])]
    controls = (slider("years", T["years"], 0, 30, 1, 0) + slider("growth", T["growth"], 0.5, 2, 0.1, 1, "×")
                + select("sort", T["sort"], orders))
    chart = frag(f"apps/barpop/{'svg' if svg else 'canvas'}.html")
    stage = frag("apps/barpop/stage.html", T, chart=chart, controls=controls)
    code = script("apps/barpop/barpop.js", data=js(app_data("barpop")["countries"]), svg=jsbool(svg),
                  horizontal=jsbool(v != "1"))
    title, sub = title_sub("barpop", spec.lang)
    return App(title=title, subtitle=sub, stage=stage, js=code, side=[frag("apps/barpop/side.html", T)],
               css=frag("apps/barpop/barpop.css"), tools=feature_tools(spec, T),
               controls=["years", "growth", "sort", "dark", "sound"], T=T)


def app_linetemp(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "linetemp")
    f = spec.features
    data = app_data("linetemp")
    cities = data["line_cities"][spec.lang]
    svg = v == "2"
    animate = "pause" in f
    stage = frag("apps/linetemp/stage.html", T, city_select=select("city", T["city"], [(c, c) for c in cities]),
                 chart=frag(f"apps/linetemp/{'svg' if svg else 'canvas'}.html"),
                 play_button=frag("apps/linetemp/play.html", T) if animate else "",
                 reset_button=frag("apps/linetemp/reset.html", T) if "reset" in f else "")
    stats = frag("apps/linetemp/stats.html", T)
    side = [stats]
    css = frag("apps/linetemp/linetemp.css")
    if v == "4":  # a page with tabs under the chart
        tabs = "".join(frag("apps/linetemp/tab.html", key=k, on=" on" if i == 0 else "", label=T[f"tab_{k}"])
                       for i, k in enumerate(("table", "stats", "about")))
        side = [frag("apps/linetemp/tabs.html", T, tabs=tabs, stats_list=stats)]
        css += frag("apps/linetemp/tabs.css")
    elif v == "5":  # a page of accordions
        side = [frag("apps/linetemp/accordion.html", T, stats_list=stats)]
        css += frag("apps/linetemp/accordion.css")
    code = script("apps/linetemp/linetemp.js", cities=js({c: data["cities"][c] for c in cities}), svg=jsbool(svg),
                  area=jsbool(v == "3"), animate=jsbool(animate),
                  keys=template("apps/linetemp/keys.js") if "arrows" in f else "")
    title, sub = title_sub("linetemp", spec.lang)
    return App(title=title, subtitle=sub, stage=stage, js=code, side=side, css=css, tools=feature_tools(spec, T),
               controls=["city", "prev", "next", "unit", "play", "reset", "dark", "sound", "tab-table", "tab-stats",
                         "tab-about"], T=T)
