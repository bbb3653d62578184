"""The offline task-type classifier: weighted terms of every leaf, in eight languages, read from
the taxonomy file.

Why terms and not a model: it must label every mined request, in any of the traffic languages,
thousands per second on one core, with no model to download, and a curator must be able to see
why a request landed where it did and fix it in one file. Each leaf's `strong` terms (words that
on their own name its scenario: "pomodoro", "番茄钟") weigh 3, its `cues` 1; the words that say
static or dynamic add to every leaf of that L1 which already has evidence. The best-scoring leaf
wins (a tie: the taxonomy's order; breaking ties by the domain's total evidence measured worse
on the dev slice), and L1, L2 follow from the tree. A request that matches nothing gets the
taxonomy's `default_leaf` at confidence 0: the record says so, and the LLM classifier (when
configured) is the better judge of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cogevol.taxonomy.terms import Term, by_language
from cogevol.taxonomy.tree import Taxonomy

STRONG, CUE, L1_CUE = 3.0, 1.0, 0.5


@dataclass(frozen=True)
class LeafGuess:
    leaf: str
    confidence: float


class RulesClassifier:
    """Compiled once per taxonomy. `entries` are its terms for one shared TermSet (labels
    ("leaf", name) and ("l1", "Static" | "Dynamic")); `place` reads the terms a text matched."""

    def __init__(self, tax: Taxonomy):
        self.tax = tax
        self.entries = [
            (("leaf", leaf.name), term, weight)
            for leaf in tax.leaves
            for field, weight in (("strong", STRONG), ("cues", CUE))
            for term in by_language(getattr(leaf, field))
        ] + [
            (("l1", l1), term, L1_CUE)
            for l1, terms in tax.l1_cues.items()
            for term in by_language(terms)
        ]
        self.l1_of = {leaf.name: leaf.l1 for leaf in tax.leaves}
        self.order = {leaf.name: k for k, leaf in enumerate(tax.leaves)}

    def scores(self, hits: Iterable[Term]) -> dict[str, float]:
        """Each leaf's evidence in the matched terms `hits`: its terms' weights, plus its L1's
        words where it has any of its own (other labels ignored)."""
        scores: dict[str, float] = {}
        l1: dict[str, float] = {}
        for t in hits:
            kind, name = t.label[0], t.label[-1]
            if kind == "leaf":
                scores[name] = scores.get(name, 0.0) + t.weight
            elif kind == "l1":
                l1[name] = l1.get(name, 0.0) + t.weight
        return {name: s + l1.get(self.l1_of[name], 0.0) for name, s in scores.items()}

    def place(self, hits: Iterable[Term]) -> LeafGuess:
        """The best leaf for the matched terms `hits` (other labels ignored)."""
        scores = self.scores(hits)
        if not scores:
            return LeafGuess(self.tax.default_leaf, 0.0)
        best = min(scores, key=lambda name: (-scores[name], self.order[name]))
        top = scores[best]
        second = max((s for name, s in scores.items() if name != best), default=0.0)
        # how far ahead (margin) and how much evidence (two strong terms: full)
        confidence = 0.5 * (top - second) / top + 0.5 * min(1.0, top / (2 * STRONG))
        return LeafGuess(best, round(confidence, 3))
