"""Seed 004's WebDev task taxonomy as data: L1 (Static, Dynamic), 11 L2 domains, 54 L3 task
types (Tables 4-5), each with the seed's description and example, the revised definitions of
A.7.4 for the pairs that get confused, an exclusion, example requests in the eight traffic
languages and the terms the offline classifier reads.

The taxonomy lives in `leaves.yaml` beside this module (versioned with the code: a curator who
sharpens a definition changes one file, and `version` says which labels a record carries). The
difficulty rubric and the amplifiers are in `difficulty.yaml` (cogevol.taxonomy.difficulty).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from cogevol.core.errors import CogevolError

HERE = Path(__file__).parent
LEAVES_FILE = HERE / "leaves.yaml"
DIFFICULTY_FILE = HERE / "difficulty.yaml"
LANGUAGES = ("en", "zh", "es", "fr", "de", "ja", "ko", "pt")


class TaxonomyError(CogevolError, ValueError):
    """The taxonomy files do not hold the tree the code expects (a curator's edit gone wrong)."""


@dataclass(frozen=True)
class Leaf:
    """One L3 task type, with its place in the tree."""

    name: str
    l2: str
    l1: str
    description: str
    example: str
    revised: str | None
    excludes: str
    examples: dict
    strong: dict
    cues: dict

    def definition(self) -> str:
        """The definition the LLM classifier reads: the revised one where A.7.4 sharpened it."""
        text = self.revised or f"{self.description} (e.g. {self.example})"
        return f"{text}. Not: {self.excludes}" if self.excludes else text


@dataclass(frozen=True, eq=False)
class Taxonomy:
    version: int
    leaves: tuple[Leaf, ...]
    l1_cues: dict
    default_leaf: str
    by_name: dict = field(default_factory=dict, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(leaf.name for leaf in self.leaves)

    @property
    def domains(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(leaf.l2 for leaf in self.leaves))

    def leaf(self, name: str) -> Leaf:
        """The leaf called `name` (exactly as the seed writes it; case and spaces forgiven)."""
        found = self.by_name.get(" ".join(str(name).split()).casefold())
        if found is None:
            raise KeyError(f"no task type {name!r} in the taxonomy")
        return found


def _check(tax: Taxonomy, path: Path) -> Taxonomy:
    if len(tax.leaves) != 54 or len(tax.domains) != 11:
        raise TaxonomyError(
            f"{path}: expected 11 domains and 54 task types, found "
            f"{len(tax.domains)} and {len(tax.leaves)}"
        )
    if len(set(tax.names)) != len(tax.names):
        raise TaxonomyError(f"{path}: a task type is listed twice")
    if {leaf.l1 for leaf in tax.leaves} != {"Static", "Dynamic"}:
        raise TaxonomyError(f"{path}: L1 must be Static or Dynamic")
    if tax.default_leaf.casefold() not in tax.by_name:
        raise TaxonomyError(f"{path}: default_leaf {tax.default_leaf!r} is not a task type")
    return tax


@lru_cache(maxsize=4)
def load(path: str | Path = LEAVES_FILE) -> Taxonomy:
    """The taxonomy in `path` (default: the shipped leaves.yaml), checked for its shape."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        leaves = tuple(
            Leaf(
                name=lf["name"],
                l2=dom["name"],
                l1=dom["l1"],
                description=lf["description"],
                example=lf["example"],
                revised=lf.get("revised"),
                excludes=lf.get("excludes") or "",
                examples=lf.get("examples") or {},
                strong=lf.get("strong") or {},
                cues=lf.get("cues") or {},
            )
            for dom in raw["domains"]
            for lf in dom["leaves"]
        )
        tax = Taxonomy(
            int(raw.get("version", 1)),
            leaves,
            raw.get("l1_cues") or {},
            str(raw["default_leaf"]),
            {leaf.name.casefold(): leaf for leaf in leaves},
        )
    except (OSError, yaml.YAMLError, KeyError, TypeError) as e:
        raise TaxonomyError(f"{path}: not a taxonomy file ({type(e).__name__}: {e})") from e
    return _check(tax, path)
