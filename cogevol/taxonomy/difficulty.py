"""Difficulty by seed 004's rubric (A.5): six dimensions graded Easy to Hard, the overall level
the highest of them (Table 7's rule), and the amplifiers of Table 8 that a request asks for.

The rubric is data (`difficulty.yaml`): each dimension's criteria and the words that put it at
least at a level, in the eight traffic languages; each amplifier's terms, the dimension it
raises and to what; the level each task type's scenario implies before any detail is read
(a physics simulation is not Easy however briefly it is asked for); and how many listed
features make the functional logic Medium, Medium-Hard or Hard.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from cogevol.taxonomy.terms import Term, by_language
from cogevol.taxonomy.tree import DIFFICULTY_FILE, TaxonomyError

LEVELS = ("Easy", "Medium", "Medium-Hard", "Hard")
DIMENSIONS = (
    "functional_logic",
    "page_interaction",
    "data_system",
    "visual_design",
    "user_experience",
    "dynamic_simulation",
)
# a list item: "- x", "* x", "• x", "1. x", "2) x", "3、x", "（4）x"
_ITEM = re.compile(r"^\s*(?:[-*•·▪●◦]|\d{1,2}\s*[.)、:：]|[（(]\d{1,2}[)）])\s*\S", re.M)
_SEP = re.compile(r"[,，、;；]|\s(?:and|y|et|und|e)\s|[和及与]")


@dataclass(frozen=True)
class Amplifier:
    number: int
    name: str
    dimension: str
    raises_to: int


@dataclass(frozen=True, eq=False)
class Rubric:
    """The loaded rubric: `entries` are its terms for one shared TermSet (labels ("cue",
    dimension, level) and ("amp", number)); each amplifier, each leaf's floor, and the
    feature-count thresholds."""

    entries: list
    amplifiers: dict[int, Amplifier]
    leaf_floor: dict[str, dict[str, int]]
    features: tuple[int, int, int]


def level(name: str) -> int:
    try:
        return LEVELS.index(name)
    except ValueError:
        raise TaxonomyError(
            f"difficulty level must be one of {', '.join(LEVELS)}, not {name!r}"
        ) from None


@lru_cache(maxsize=4)
def load_rubric(path: str | Path = DIFFICULTY_FILE) -> Rubric:
    """The rubric in `path` (default: the shipped difficulty.yaml), compiled."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        dims = raw["dimensions"]
        if tuple(dims) != DIMENSIONS:
            raise TaxonomyError(f"{path}: dimensions must be {', '.join(DIMENSIONS)} in order")
        entries = [
            (("cue", dim, level(lvl)), term, 1.0)
            for dim, d in dims.items()
            for lvl, terms in (d.get("cues") or {}).items()
            for term in by_language(terms)
        ]
        amps = {
            int(a["number"]): Amplifier(
                int(a["number"]), a["name"], a["dimension"], level(a["raises_to"])
            )
            for a in raw["amplifiers"]
        }
        bad = [a.name for a in amps.values() if a.dimension not in DIMENSIONS]
        if bad:
            raise TaxonomyError(f"{path}: amplifiers {bad} raise an unknown dimension")
        entries += [
            (("amp", int(a["number"])), term, 1.0)
            for a in raw["amplifiers"]
            for term in by_language(a["terms"])
        ]
        floors = {
            name.casefold(): {dim: level(lvl) for dim, lvl in (f or {}).items()}
            for name, f in raw["leaf_floor"].items()
        }
        f = raw["features"]
        features = (int(f["Medium"]), int(f["Medium-Hard"]), int(f["Hard"]))
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError) as e:
        if isinstance(e, TaxonomyError):
            raise
        raise TaxonomyError(f"{path}: not a difficulty rubric ({type(e).__name__}: {e})") from e
    return Rubric(entries, amps, floors, features)


def count_features(text: str) -> int:
    """How many features a request lists: its list items when it has a list, else the parts its
    separators (commas, enumerating "and") cut it into."""
    items = len(_ITEM.findall(text))
    if items >= 2:
        return items
    return len(_SEP.findall(text)) + 1


@dataclass(frozen=True)
class Grade:
    difficulty: str
    dimensions: dict[str, str]
    amplifiers: tuple[int, ...]


def grade(hits: Iterable[Term], raw: str, leaf: str, rubric: Rubric) -> Grade:
    """Grade a request (`raw` as written; `hits` the rubric's terms it matched) whose task type
    is `leaf`: each dimension at the highest level its leaf floor, cues and feature count
    reach, then escalated by the amplifiers; the overall difficulty their maximum."""
    dims = dict.fromkeys(DIMENSIONS, 0)
    for dim, lvl in rubric.leaf_floor.get(leaf.casefold(), {}).items():
        dims[dim] = max(dims[dim], lvl)
    amps: set[int] = set()
    for t in hits:
        if t.label[0] == "cue":
            _, dim, lvl = t.label
            dims[dim] = max(dims[dim], lvl)
        elif t.label[0] == "amp":
            amps.add(t.label[1])
    n_feat = count_features(raw)
    dims["functional_logic"] = max(
        dims["functional_logic"], sum(n_feat >= t for t in rubric.features)
    )
    # Table 8's "typical escalation": an amplifier lifts its dimension one level above what the
    # request reaches without it (Easy to Medium, Medium to Medium-Hard...), up to its target
    base = max(dims.values())
    for n in amps:
        a = rubric.amplifiers[n]
        dims[a.dimension] = max(dims[a.dimension], min(a.raises_to, base + 1))
    overall = max(dims.values())
    return Grade(LEVELS[overall], {d: LEVELS[v] for d, v in dims.items()}, tuple(sorted(amps)))
