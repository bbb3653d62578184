"""Compact answers (`intended: compact`): the shortest page or deck that still does the request.

Why: a small student writes a few hundred tokens. The full answers (8-15 kB pages, 4 kB decks)
do not fit its completion budget, so SFT on them teaches pages that never reach `</html>`. The
compact teacher (`replay-c`) answers every prompt with one of a few ~1 kB skeletons, tailored to
the prompt (language, app, colour, topic), in which every control changes something visible:

  game   a block to steer (arrow keys, buttons, a tap) under falling blocks, a score, pause
  sim    a pendulum: a speed slider (value shown), pause, reset, a tap nudges it
  scene  a rotating 3D point cloud (projected on a 2D canvas): speed slider, pause, a tap turns it
  chart  bars of the app's data: `next` (or a tap) reshuffles them, reset
  quiz   the topic's first question, answer buttons with feedback, a score
  spell  a definition, a word to type, check
  tool   a number times the unit's factor; timer: a countdown; calc: two numbers, four operators

Slides: one slide with the lesson's title, subtitle and key points, as one line of JSON.
`distill.max_answer_chars` then decides, per profile, whether the full answers are admissible.
"""

from __future__ import annotations

import json

from .data import app_data, fill, js, lessons, template, title_sub, ui
from .prompts import Spec
from .quizzes import _topic
from .slides import _points_a

KIND = {  # app -> skeleton (templates/compact/<kind>.html and .js)
    "snake": "game", "breakout": "game", "flappy": "game", "memory": "game",
    "pendulum": "sim", "projectile": "sim", "predprey": "sim", "wave": "sim",
    "solar3d": "scene", "molecule3d": "scene", "barpop": "chart", "linetemp": "chart",
    "mcq": "quiz", "spelling": "spell", "converter": "tool", "pomodoro": "timer", "calculator": "calc",
}


def _fields(spec: Spec, kind: str) -> dict:
    """The per-kind values the skeleton's placeholders take, beyond the interface strings."""
    app = app_data(spec.app)
    if kind == "chart":
        if spec.app == "barpop":
            rows = app["countries"][:5]
            return {"names": js([r[0] for r in rows]), "values": js([r[1] for r in rows])}
        city = app["line_cities"].get(spec.lang, next(iter(app["line_cities"].values())))[0]
        return {"names": js(["1", "3", "5", "7", "9"]), "values": js([round(t + 10) for t in app["cities"][city][::2][:5]])}
    if kind == "quiz":
        key, _ = _topic(spec)
        bank = app["banks"][key][spec.lang]
        q, options, right = next(iter(bank.values()))[0]
        buttons = "".join(f'<button class="opt">{o}</button>' for o in options)
        return {"question": q, "options": buttons, "right": right}
    if kind == "spell":
        key, _ = _topic(spec)
        word, hint = app["words"][key][spec.lang][0]
        return {"hint": hint, "answer": js(word.lower())}
    if kind == "tool":
        units = app["units"]["length"]
        return {"options": "".join(f'<option value="{f:g}">{u}</option>' for u, f in units[:4])}
    return {}


def compact_response(spec: Spec, lesson: str) -> str:
    """The assistant message: the page in an html fence, or the deck's JSON, with no prose."""
    if spec.modality == "html":
        return f"```html\n{compact_page(spec)}\n```"
    return compact_deck(lesson)


def compact_page(spec: Spec) -> str:
    kind = KIND[spec.app]
    title, _ = title_sub(spec.app, spec.lang)
    if kind in ("quiz", "spell"):
        title = f"{title}: {_topic(spec)[1]}"
    accent, tint, deep = spec.palette
    T = ui(spec.lang, spec.app)
    values = {**T, **_fields(spec, kind), "accent": accent, "deep": deep}
    body, code = template(f"compact/{kind}.html"), template(f"compact/{kind}.js")
    return fill(template("compact/page.html"), lang=spec.lang, title=title, accent=accent, tint=tint, deep=deep,
                body=_fill_used(body, values).strip(), code=_fill_used(code, values).strip())


def _fill_used(text: str, values: dict) -> str:
    """`fill` with the values whose placeholder `text` has (`fill` refuses none, only leftovers)."""
    return fill(text, **{k: v for k, v in values.items() if f"@@{k}@@" in text})


def compact_deck(lesson: str) -> str:
    L = lessons()[lesson]
    d = {"version": "cogevol-slides/1", "theme": dict(L["theme"]), "slides": [{"elements": _points_a(L, subtitle=True)[:3]}]}
    return json.dumps(d, ensure_ascii=False, separators=(",", ":"))
