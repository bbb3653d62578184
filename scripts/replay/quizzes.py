"""HTML engines: quizzes (multiple choice, spelling), with feedback that names the chosen answer.

Their questions are per topic and language (apps/mcq/app.yaml banks, apps/spelling/app.yaml words).
"""

from __future__ import annotations

from cogevol_samples import traffic_lexicon as LEX

from .data import app_data, frag, js, jsbool, script, title_sub, ui
from .page import App, board_panel, feature_tools, select
from .prompts import Spec


def _topic(spec: Spec) -> tuple[str, str]:
    """The prompt's topic: its English name (the data tables' key) and its name in the prompt."""
    return LEX.TOPICS[spec.topic]["en"], LEX.TOPICS[spec.topic][spec.lang]


def app_mcq(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "mcq")
    key, topic = _topic(spec)
    bank = app_data("mcq")["banks"][key][spec.lang]
    levels = list(bank)
    f = spec.features
    radios = v == "2"
    settings = ""
    if len(levels) > 1:
        settings = select("level", T["difficulty"], [(k, T[k]) for k in levels])
    stage = frag("apps/mcq/stage.html", T, settings=settings, total=len(bank[levels[0]]),
                 check_button=frag("apps/mcq/check.html", T) if radios else "",
                 reset_label=T["reset"] if "reset" in f else T["restart"])
    title, sub = title_sub("mcq", spec.lang)
    return App(title=f"{title}: {topic}", subtitle=sub, stage=stage, css=frag("apps/mcq/mcq.css"),
               js=script("apps/mcq/mcq.js", bank=js(bank), radios=jsbool(radios)),
               side=[board_panel(T)] if "leaderboard" in f else [], tools=feature_tools(spec, T),
               controls=["check", "next", "reset", "level", "dark", "sound", "save"], T=T)


def app_spelling(spec: Spec, v: str) -> App:
    T = ui(spec.lang, "spelling")
    key, topic = _topic(spec)
    words = app_data("spelling")["words"][key][spec.lang]
    tiles = v == "2"
    stage = frag("apps/spelling/stage.html", T, total=len(words),
                 entry=frag("apps/spelling/tiles.html") if tiles else frag("apps/spelling/typing.html", T),
                 erase_button=frag("apps/spelling/erase.html", T) if tiles else "")
    title, sub = title_sub("spelling", spec.lang)
    return App(title=f"{title} : {topic}", subtitle=sub, stage=stage, css=frag("apps/spelling/spelling.css"),
               js=script("apps/spelling/spelling.js", words=js(words), tiles=jsbool(tiles)),
               side=[board_panel(T)] if "leaderboard" in spec.features else [], tools=feature_tools(spec, T),
               controls=["answer", "check", "hint", "next", "erase", "dark", "sound", "save"], T=T)
