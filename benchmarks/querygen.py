"""Large query sets for dedup benchmarks: short zh/en requests with planted duplicates."""

from __future__ import annotations

import random

from cogevol.core.text import normalize, tokens
from cogevol_samples.queries import ShortQueries
from cogevol_samples.traffic import html_slots, near_variant, render, slide_slots


def _request_key(text: str) -> str:
    """Identity of a templated request: its bag of tokens and what each number counts, so that
    the same two features listed in either order are one request, and "5 slides for 11th
    grade" and "11 slides for 5th grade" are two."""
    toks = tokens(normalize(text))
    units = sorted((t, toks[k + 1] if k + 1 < len(toks) else "") for k, t in enumerate(toks) if t[0].isdigit())
    return repr((sorted(toks), units))


def short_queries(n: int, seed: int = 0, dup_rate: float = 0.10, near_rate: float = 0.15) -> tuple[list[str], list[int]]:
    """n short zh/en queries and their true group: Zipfian-vocabulary requests and templated
    ones, with exact re-sends (dup_rate) and near variants (near_rate) of earlier queries.
    Independently generated queries that happen to be identical share a group."""
    rng = random.Random(seed)
    sq = ShortQueries()
    out: list[tuple[str, str, int]] = []
    group_of_text: dict[str, int] = {}
    for _ in range(n):
        roll = rng.random()
        if out and roll < dup_rate:
            out.append(rng.choice(out))
        elif out and roll < dup_rate + near_rate:
            text, lang, g = rng.choice(out)
            out.append((near_variant(rng, text, lang, rng.randint(1, 2))[0], lang, g))
        else:
            lang = rng.choice(("zh", "en"))
            if rng.random() < 0.7:
                text = key = sq.query(rng, lang)
            else:
                text = render((slide_slots if rng.random() < 0.5 else html_slots)(rng, lang))[0]
                key = _request_key(text)
            out.append((text, lang, group_of_text.setdefault(key, len(group_of_text))))
    return [t for t, _, _ in out], [g for _, _, g in out]
