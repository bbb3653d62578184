"""Vectorised character n-grams: every n-gram of every text as one uint64 id, in one pass.

Texts are joined with NUL and decoded to UTF-32 code points; an n-gram id packs n code points
into 21 bits each (n <= 3), so ids are exact (no hash collisions) and stable across runs.
No Python loop over texts: this is what lets dedup handle millions of queries.
"""

from __future__ import annotations

import numpy as np

MAX_N = 3  # 3 x 21 bits fit in a uint64


def char_ngrams(texts: list[str], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (doc, gram): for each n-gram occurrence, the index of its text and its id.

    Texts must not contain NUL (the normalisers remove control characters). Texts shorter than
    n contribute no n-grams."""
    if not 1 <= n <= MAX_N:
        raise ValueError(f"n must be in 1..{MAX_N}, got {n}")
    if not texts:
        return np.zeros(0, np.int64), np.zeros(0, np.uint64)
    cps = np.frombuffer("\x00".join(texts).encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    m = len(cps) - n + 1
    if m <= 0:
        return np.zeros(0, np.int64), np.zeros(0, np.uint64)
    sep = cps == 0
    valid = ~sep[:m]
    gram = cps[:m].copy()
    for k in range(1, n):
        valid &= ~sep[k : m + k]
        gram |= cps[k : m + k] << np.uint64(21 * k)
    doc = np.cumsum(sep)[:m]
    return doc[valid].astype(np.int64), gram[valid]


def multi_ngrams(texts: list[str], ns: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """n-grams for several n at once. Ids of different n cannot collide: an n-gram's last code
    point is never NUL, so its id has a non-zero block k = n-1 and zeros above it."""
    parts = [char_ngrams(texts, n) for n in ns]
    return np.concatenate([d for d, _ in parts]), np.concatenate([g for _, g in parts])
