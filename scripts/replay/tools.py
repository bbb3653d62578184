"""HTML engines: tools (scientific calculator with a parser, no `eval`; pomodoro timer; unit
converter with tabs, accordions or a quantity picker)."""

from __future__ import annotations

from .data import app_data, frag, js, script, title_sub, ui
from .page import App, board_panel, feature_tools, select, slider
from .prompts import Spec


def app_calculator(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "calculator")
    data = app_data("calculator")
    keys = "".join(frag("apps/calculator/key.html", key=k, op=" op" if k in "÷×−+=^" else "")
                   for row in data["keys"] for k in row)
    side = [frag("apps/calculator/challenge.html", T)]
    if "leaderboard" in spec.features:
        side.append(board_panel(T))
    css = frag("apps/calculator/calculator.css") + (frag("apps/calculator/night.css") if v == "2" else "")
    title, sub = title_sub("calculator", spec.lang)
    return App(title=title, subtitle=sub, stage=frag("apps/calculator/stage.html", T, key_buttons=keys),
               js=script("apps/calculator/calculator.js", tasks=js(data["tasks"])), side=side, css=css,
               tools=feature_tools(spec, T), controls=["angle", "submit", "skip", "save", "dark", "sound"], T=T)


def app_pomodoro(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "pomodoro")
    dial = "ring" if v != "2" else "bar"
    sliders = (slider("work", T["work_len"], 5, 60, 1, 25, " " + T["minutes"])
               + slider("rest", T["break_len"], 1, 30, 1, 5, " " + T["minutes"]))
    stage = frag("apps/pomodoro/stage.html", T, dial=frag(f"apps/pomodoro/{dial}.html"), sliders=sliders)
    css = frag("apps/pomodoro/pomodoro.css") + frag(f"apps/pomodoro/{dial}.css")
    title, sub = title_sub("pomodoro", spec.lang)
    return App(title=title, subtitle=sub, stage=stage, js=script("apps/pomodoro/pomodoro.js"), css=css,
               side=[board_panel(T)] if "leaderboard" in spec.features else [], tools=feature_tools(spec, T),
               controls=["work", "rest", "start", "reset", "skip", "dark", "sound", "save"], T=T)


def _converter_form(T: dict, cat: str, suffix: str = "") -> str:
    units = app_data("converter")["units"][cat]

    def opts(sel: int) -> str:
        return "".join(frag("widgets/option.html", value=u, selected=" selected" if k == sel else "",
                            text=f"{T['names'][u]} ({u})") for k, (u, _) in enumerate(units))

    return frag("apps/converter/form.html", T, cat=cat, suffix=suffix, from_options=opts(0), to_options=opts(1))


def app_converter(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "converter")
    cats = list(app_data("converter")["units"])
    if v == "1":  # tabs switch the quantity of one form
        tabs = "".join(frag("apps/converter/tab.html", on=" on" if k == 0 else "", cat=c, label=T["cats"][c])
                       for k, c in enumerate(cats))
        stage = frag("apps/converter/tabs.html", tabs=tabs) + _converter_form(T, "length")
    elif v == "2":  # an accordion with one form per quantity
        stage = "".join(frag("apps/converter/section.html", open=" open" if k == 0 else "", label=T["cats"][c],
                             form=_converter_form(T, c, "-" + c)) for k, c in enumerate(cats))
    else:  # a quantity picker above one form
        stage = select("cat", T["category"], [(c, T["cats"][c]) for c in cats]) + _converter_form(T, "length")
    stage += frag("apps/converter/reset.html", T)
    title, sub = title_sub("converter", spec.lang)
    code = script("apps/converter/converter.js", units=js(app_data("converter")["units"]))
    return App(title=title, subtitle=sub, stage=stage, js=code, side=[frag("apps/converter/side.html", T)],
               css=frag("apps/converter/converter.css"), tools=feature_tools(spec, T),
               controls=["reset", "cat", "value", "from", "to", "swap", "dark", "sound"], T=T)
