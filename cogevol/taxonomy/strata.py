"""Stratified draws on the L1 x L2 x difficulty key, seed 004 A.6.

Why strata: a gap along one axis (language, say) can only be measured while the others are held
fixed. Flat random down-sampling of a dominant language empties narrow strata (hard static
display pages); quotas per stratum keep the taxonomy-difficulty shape. Two uses:

- `stratified_order`: a pool in a seeded order whose every prefix is a stratified draw (each
  stratum within one record of its proportional share), shuffled inside a stratum. distill's
  prompt set and the GRPO pools are drawn through it (`draw: stratified`): taking the first n,
  or skipping one that does not fit, keeps the shape. `draw` is its first n, in input order.
- `rebalance`: A.6's language protocol. Each over-represented language keeps its target count by
  per-stratum quotas (retention rate = target / count); what is not kept, and every record in a
  language outside the targets, is the residual; the under-represented languages' deficits form
  a slot pool; residual and slots are shuffled under the same seed and matched position by
  position (a residual record is to be translated into its slot's language). Every record
  carries its audit: original language, final language and action.

Records are dicts with a `taxonomy` label (cogevol.taxonomy.classify.Label.to_json) or the
label's fields at top level.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

Key = tuple[str, str, str]
T = TypeVar("T")


def stratum(rec: dict) -> Key:
    """A record's stratum: (L1, L2, difficulty)."""
    lab = rec.get("taxonomy") or rec
    return (lab.get("l1") or "?", lab.get("l2") or "?", lab.get("difficulty") or "?")


def language(rec: dict) -> str:
    """A record's language: its own `lang` (mining's: the log's locale, else identified), else
    its label's."""
    lab = rec.get("taxonomy") or {}
    return rec.get("lang") or lab.get("lang") or ""


def largest_remainder(sizes: dict, total: int) -> dict:
    """Integer quotas proportional to `sizes` summing to `total` (<= sum of sizes): each its
    floor, then one more to the largest fractional remainders (ties: the key's order)."""
    n = sum(sizes.values())
    if total > n:
        raise ValueError(f"cannot draw {total} from {n}")
    if n == 0:
        return dict.fromkeys(sizes, 0)
    exact = {k: s * total / n for k, s in sizes.items()}
    quota = {k: math.floor(v) for k, v in exact.items()}
    short = total - sum(quota.values())
    for k in sorted(exact, key=lambda k: (-(exact[k] - quota[k]), str(k)))[:short]:
        quota[k] += 1
    return quota


def _groups(records: Sequence, key: Callable = stratum) -> dict[Key, list[int]]:
    groups: dict[Key, list[int]] = defaultdict(list)
    for i, rec in enumerate(records):
        groups[key(rec)].append(i)
    return dict(sorted(groups.items()))


def _pick(idx: list[int], k: int, rng: random.Random) -> list[int]:
    return sorted(rng.sample(idx, k)) if k < len(idx) else list(idx)


def stratified_order(items: Sequence[T], seed: int = 0, key: Callable = stratum) -> list[T]:
    """All of `items`, each stratum shuffled under `seed`, interleaved so that every prefix holds
    each stratum within one item of its share: position t goes to the stratum furthest behind
    its share of t (ties: the larger stratum, then the key's order)."""
    rng = random.Random(seed)
    groups = _groups(items, key)
    queues = {k: rng.sample(idx, len(idx)) for k, idx in groups.items()}
    total, taken = len(items), dict.fromkeys(groups, 0)
    out: list[T] = []
    for t in range(1, total + 1):
        k = max(
            (k for k in queues if taken[k] < len(queues[k])),
            key=lambda k: (len(queues[k]) * t / total - taken[k], len(queues[k])),
        )
        out.append(items[queues[k][taken[k]]])
        taken[k] += 1
    return out


def draw(records: Sequence[dict], n: int, seed: int = 0) -> list[dict]:
    """`n` records (all when n >= len), stratified on L1 x L2 x difficulty, in input order."""
    if n >= len(records):
        return list(records)
    chosen = {id(r) for r in stratified_order(records, seed)[:n]}
    return [r for r in records if id(r) in chosen]


@dataclass
class Rebalanced:
    kept: list[dict] = field(default_factory=list)  # records kept in their own language
    translate: list[dict] = field(default_factory=list)  # residual records with a slot language
    unused: list[dict] = field(default_factory=list)  # residual records no slot needed
    audit: list[dict] = field(default_factory=list)  # one row per record, in input order

    def summary(self) -> dict:
        def count(rows: list[dict], key: str) -> dict:
            out: dict[str, int] = defaultdict(int)
            for r in rows:
                out[r[key]] += 1
            return dict(sorted(out.items()))

        return {
            "kept": len(self.kept),
            "translate": len(self.translate),
            "unused": len(self.unused),
            "before": count(self.audit, "original_lang"),
            "after": count([a for a in self.audit if a["action"] != "unused"], "final_lang"),
        }


def targets_from_shares(shares: dict[str, float], total: int) -> dict[str, int]:
    """Language shares (summing to at most 1) as counts out of `total`, by largest remainder."""
    if any(v < 0 for v in shares.values()) or sum(shares.values()) > 1 + 1e-9:
        raise ValueError("language shares must be >= 0 and sum to at most 1")
    scale = 10**6
    weights = {k: round(v * scale) for k, v in shares.items()}
    return largest_remainder(weights, round(total * sum(weights.values()) / scale))


def rebalance(records: Sequence[dict], targets: dict[str, int], seed: int = 0) -> Rebalanced:
    """Seed 004 A.6 on `records` to `targets` (language -> count)."""
    rng = random.Random(seed)
    by_lang: dict[str, list[int]] = defaultdict(list)
    for i, rec in enumerate(records):
        by_lang[language(rec)].append(i)
    kept: set[int] = set()
    for lang, idx in sorted(by_lang.items()):
        target = targets.get(lang, 0)
        if target >= len(idx):
            kept.update(idx)
            continue
        groups = _groups([records[i] for i in idx])
        quota = largest_remainder({k: len(v) for k, v in groups.items()}, target)
        for k, members in groups.items():
            kept.update(idx[j] for j in _pick(members, quota[k], rng))
    slots = [
        lang
        for lang, target in sorted(targets.items())
        for _ in range(max(0, target - len(by_lang.get(lang, []))))
    ]
    residual = [i for i in range(len(records)) if i not in kept]
    rng.shuffle(residual)
    rng.shuffle(slots)
    assigned = dict(zip(residual, slots))
    out = Rebalanced()
    for i, rec in enumerate(records):
        lang = language(rec)
        if i in kept:
            action, final = "kept", lang
            out.kept.append(rec)
        elif i in assigned:
            action, final = "translate", assigned[i]
            out.translate.append({**rec, "target_lang": final})
        else:
            action, final = "unused", ""
            out.unused.append(rec)
        out.audit.append(
            {"id": rec.get("id"), "original_lang": lang, "final_lang": final, "action": action}
        )
    return out
