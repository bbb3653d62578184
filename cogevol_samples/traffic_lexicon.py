"""Multilingual vocabulary for the seeded traffic generator (traffic.py, queries.py): the data
lives with the other lexicons, in cogevol/core/lexicons/traffic.yaml; this module reads it once
and gives each table its Python shape (tuples where the generator indexes or weighs them)."""

from __future__ import annotations

from cogevol.core import lexicons

_L = lexicons.load("traffic")

LANGS: tuple[str, ...] = tuple(_L["LANGS"])
LOCALES: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _L["LOCALES"].items()}
LANG_WEIGHTS: tuple[float, ...] = tuple(_L["LANG_WEIGHTS"])
TOPICS: list[dict] = _L["TOPICS"]
GRADES: dict[str, list[str]] = _L["GRADES"]
SLIDE_EXTRAS: list[dict] = _L["SLIDE_EXTRAS"]
APPS: list[tuple[str, dict]] = [(kind, names) for kind, names in _L["APPS"]]  # (subcategory, names)
FEATURES: list[dict] = _L["FEATURES"]
COLORS: dict[str, list[str]] = _L["COLORS"]
SLIDE_TEMPLATES: dict[str, list[str]] = _L["SLIDE_TEMPLATES"]  # {topic} {grade} {n} {extra}
HTML_TEMPLATES: dict[str, list[str]] = _L["HTML_TEMPLATES"]  # {app} {feature} {feature2} {color}
OFF_SCOPE: dict[str, dict[str, list[str]]] = _L["OFF_SCOPE"]
INADMISSIBLE: dict[str, dict[str, list[str]]] = _L["INADMISSIBLE"]
NAMES: dict[str, list[str]] = _L["NAMES"]
NAME_INTROS: dict[str, str] = _L["NAME_INTROS"]
CONTACT_INTROS: dict[str, str] = _L["CONTACT_INTROS"]
PREFIXES: dict[str, list[str]] = _L["PREFIXES"]
SUFFIXES: dict[str, list[str]] = _L["SUFFIXES"]
ZH_TYPOS: dict[str, str] = _L["ZH_TYPOS"]
