"""How well a classifier's labels agree with a labelled slice (seed 004 A.7.3): accuracy at L1,
L2 and L3, difficulty exact and within one tier, language, per language, and the most confused
(gold, predicted) task-type pairs, the input of A.7.4's definition-sharpening loop."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from cogevol.taxonomy.classify import Label
from cogevol.taxonomy.difficulty import LEVELS
from cogevol.taxonomy.tree import Taxonomy


def agreement(gold: Sequence[dict], labels: Sequence[Label], tax: Taxonomy, top: int = 10) -> dict:
    """`gold` records carry `l3`, `lang` and (not always) `difficulty`; `labels` are in the
    same order."""
    if len(gold) != len(labels):
        raise ValueError("one label per gold record")
    hits: dict[str, int] = Counter()
    by_lang: dict[str, Counter] = defaultdict(Counter)
    confused: Counter = Counter()
    graded = 0
    for g, lab in zip(gold, labels):
        leaf = tax.leaf(g["l3"])
        ok = {
            "l1": lab.l1 == leaf.l1,
            "l2": lab.l2 == leaf.l2,
            "l3": lab.l3 == leaf.name,
            "lang": lab.lang == g["lang"],
        }
        if g.get("difficulty"):  # a slice labelled for task type alone has none
            graded += 1
            ok["difficulty"] = lab.difficulty == g["difficulty"]
            gap = abs(LEVELS.index(lab.difficulty) - LEVELS.index(g["difficulty"]))
            ok["difficulty_within_one"] = gap <= 1
        for k, v in ok.items():
            hits[k] += v
            by_lang[g["lang"]][k] += v
        by_lang[g["lang"]]["n"] += 1
        if not ok["l3"]:
            confused[(leaf.name, lab.l3)] += 1
    n = len(gold)
    keys = ("l1", "l2", "l3", "lang")
    grades = ("difficulty", "difficulty_within_one")
    return {
        "n": n,
        **{k: round(hits[k] / n, 4) if n else 0.0 for k in keys},
        **{k: round(hits[k] / graded, 4) if graded else None for k in grades},
        "by_lang": {
            lang: {"n": c["n"], **{k: round(c[k] / c["n"], 3) for k in ("l1", "l2", "l3")}}
            for lang, c in sorted(by_lang.items())
        },
        "confused": [
            {"gold": g, "predicted": p, "n": k} for (g, p), k in confused.most_common(top)
        ],
    }
