"""Which prompts get answers: the plans in data/teachers/plans.yaml and the rule that selects them.

A plan names no prompt id. Its `select` describes the prompt (category from the plan's section,
subcategory, language, app, requested features, topic, grade, slide extra), recovered with the
lexicon the prompts were generated from (cogevol_samples/traffic_lexicon.py). The plan answers the first
prompt of prompts.jsonl, in file order, that matches every field of its `select` and that no
earlier plan took; requests carrying redacted personal data are skipped (the placeholders
filter's `drop_redacted` looks for).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from cogevol_samples import traffic_lexicon as LEX

from .data import app_data, plans

REDACTED = re.compile(r"<(EMAIL|PHONE|NAME|NATIONAL_ID|CARD|IP)>")  # cogevol/curate/rules.py


@dataclass
class Spec:
    """One prompt and what it asks for."""

    pid: str
    request: str
    lang: str
    sub: str
    modality: str
    app: str = ""
    features: list[str] = field(default_factory=list)
    palette: list[str] = field(default_factory=list)  # accent, tint, deep
    topic: int | None = None  # index into lexicon.TOPICS


@dataclass
class Plan:
    """A selected prompt and the candidates the two teachers answer it with."""

    spec: Spec
    answers: list[tuple[str, str, str]]  # (teacher, intended, variant); index = position within the teacher
    lesson: str = ""  # slides: the key in lessons.yaml


def _has(text: str, phrase: str) -> bool:
    return phrase.lower() in text.lower()


def make_spec(rec: dict) -> Spec:
    lex, palettes = plans()["lexicon"], plans()["palettes"]
    lang, text = rec["lang"], rec["prompt"]
    s = Spec(rec["id"], text, lang, rec["subcategory"], rec["category"], palette=palettes[0])
    topics = [k for k, t in enumerate(LEX.TOPICS) if _has(text, t[lang])]
    s.topic = topics[0] if topics else None
    if s.modality == "html":
        apps = [lex["apps"][k] for k, (_, a) in enumerate(LEX.APPS) if _has(text, a[lang])]
        s.app = apps[0] if apps else ""
        s.features = [lex["features"][k] for k, f in enumerate(LEX.FEATURES) if _has(text, f[lang])]
        colours = [k for k, c in enumerate(LEX.COLORS[lang]) if c in text]
        s.palette = palettes[colours[-1] if colours else app_data(s.app)["palette"] if s.app else 0]
    return s


def matches(s: Spec, select: dict) -> bool:
    """Whether the prompt is what a plan's `select` describes (every field must hold)."""
    for key, want in select.items():
        if key == "subcategory":
            ok = s.sub == want
        elif key == "lang":
            ok = s.lang == want
        elif key == "app":
            ok = s.app == want
        elif key == "features":  # exactly these, in any order
            ok = sorted(s.features) == sorted(want)
        elif key == "topic":  # the lexicon topic, by its English name
            ok = s.topic is not None and LEX.TOPICS[s.topic]["en"] == want
        elif key == "grade":  # as the lexicon spells it in the prompt's language
            ok = _has(s.request, want)
        elif key == "extra":  # the slide extra, by its name in plans.yaml lexicon.extras
            ok = _has(s.request, LEX.SLIDE_EXTRAS[plans()["lexicon"]["extras"].index(want)][s.lang])
        else:
            raise KeyError(f"unknown select field {key!r}")
        if not ok:
            return False
    return True


def _answers(items: list[str]) -> list[tuple[str, str, str]]:
    """'a:good:1' -> ('replay-a', 'good', '1')."""
    out = []
    for it in items:
        t, intended, variant = (it.split(":") + [""])[:3]
        out.append(("replay-" + t, intended, variant))
    return out


def select_plans(prompts_path: Path) -> list[Plan]:
    """Every plan of plans.yaml with the prompt it answers."""
    if not prompts_path.exists():
        raise SystemExit(f"{prompts_path}: not found (the DVC `filter` stage writes it: `dvc repro filter`, or pass --prompts)")
    with prompts_path.open(encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    pool = [make_spec(r) for r in recs if not REDACTED.search(r["prompt"])]
    out, taken = [], set()
    for modality in ("html", "slide"):
        for entry in plans()[modality]:
            sel = entry["select"]
            spec = next((s for s in pool if s.modality == modality and s.pid not in taken and matches(s, sel)), None)
            if spec is None:
                raise SystemExit(f"no prompt in {prompts_path} matches the {modality} plan {sel}")
            taken.add(spec.pid)
            out.append(Plan(spec, _answers(entry["answers"] + plans().get("every_plan", [])), entry.get("lesson", "")))
    return out
