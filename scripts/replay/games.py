"""HTML engines: games (snake, breakout, flappy bird, memory)."""

from __future__ import annotations

from .data import app_data, frag, js, jsbool, script, title_sub, ui
from .page import App, board_panel, feature_tools, select, stat
from .prompts import Spec


def _board(spec: Spec, T: dict) -> list[str]:
    return [board_panel(T)] if "leaderboard" in spec.features else []


def app_snake(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "snake")
    countdown = 60 if "countdown" in spec.features else 0
    stage = frag("apps/snake/stage.html", T, time_stat=stat(T["time"], "time", countdown, " s") if countdown else "")
    code = script("apps/snake/snake.js", countdown=countdown, look={"1": "grid", "2": "dots", "3": "neon"}.get(v, "grid"))
    title, sub = title_sub("snake", spec.lang)
    return App(title=title, subtitle=sub, stage=stage, js=code, side=_board(spec, T), tools=feature_tools(spec, T),
               controls=["start", "pause", "save", "dark", "sound"], T=T)


def app_breakout(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "breakout")
    levels = [("easy", T["easy"]), ("normal", T["normal"]), ("hard", T["hard"])]
    settings = select("level", T["difficulty"], levels, 1) if "difficulty" in spec.features or v != "1" else ""
    stage = frag("apps/breakout/stage.html", T, settings=settings)
    code = script("apps/breakout/breakout.js", rounded=jsbool(v == "2"))
    title, sub = title_sub("breakout", spec.lang)
    return App(title=title, subtitle=sub, stage=stage, js=code, side=_board(spec, T), tools=feature_tools(spec, T),
               controls=["start", "pause", "level", "save", "dark", "sound"], T=T)


def app_flappy(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "flappy")
    countdown = 60 if "countdown" in spec.features else 0
    stage = frag("apps/flappy/stage.html", T, time_stat=stat(T["time"], "time", countdown, " s") if countdown else "")
    code = script("apps/flappy/flappy.js", countdown=countdown, night=jsbool(v == "2"))
    title, sub = title_sub("flappy", spec.lang)
    return App(title=title, subtitle=sub, stage=stage, js=code, side=_board(spec, T), tools=feature_tools(spec, T),
               controls=["start", "flap", "save", "dark", "sound"], T=T)


def app_memory(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "memory")
    data = app_data("memory")
    css = frag("apps/memory/memory.css") + (frag("apps/memory/rounded.css") if v == "2" else "")
    code = script("apps/memory/memory.js", symbols=js(data["letters"] if v == "2" else data["symbols"]))
    title, sub = title_sub("memory", spec.lang)
    return App(title=title, subtitle=sub, stage=frag("apps/memory/stage.html", T), js=code, side=_board(spec, T),
               tools=feature_tools(spec, T), css=css, controls=["new", "dark", "sound", "save"], T=T)
