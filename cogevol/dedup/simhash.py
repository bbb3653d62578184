"""SimHash fingerprints over character n-grams and a banded index to find close pairs.

Banding (pigeonhole): with k+1 bands, two 64-bit fingerprints within Hamming distance k agree
exactly on at least one band, so candidates are pairs that share a band value. That makes the
pass near-linear instead of all-pairs; every candidate is then checked on the full distance.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from cogevol.core.hashing import splitmix64

BITS = 64


def fingerprints(doc: np.ndarray, gram: np.ndarray, n_docs: int) -> np.ndarray:
    """64-bit SimHash per document (occurrence-weighted), as uint64. Docs without n-grams get 0.

    One sparse product does the accumulation: (docs x distinct n-grams counts) @ (n-grams x 64
    signs), so the cost is one pass over the n-gram occurrences."""
    if len(doc) == 0:
        return np.zeros(n_docs, np.uint64)
    vocab, col = np.unique(gram, return_inverse=True)
    counts = sp.csr_matrix(
        (np.ones(len(doc), np.float32), (doc, col.ravel())), shape=(n_docs, len(vocab))
    )
    h = splitmix64(vocab)
    signs = ((h[:, None] >> np.arange(BITS, dtype=np.uint64)) & np.uint64(1)).astype(
        np.float32
    ) * 2 - 1
    acc = counts @ signs
    weights = np.uint64(1) << np.arange(BITS, dtype=np.uint64)
    return ((acc > 0).astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)


def hamming(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.bitwise_count(a ^ b).astype(np.int64)


def band_keys(fp: np.ndarray, max_distance: int) -> list[np.ndarray]:
    """The k+1 band values of each fingerprint (pigeonhole: within distance k, one band agrees)."""
    bands = max_distance + 1
    width = BITS // bands
    out = []
    for b in range(bands):
        bits = width if b < bands - 1 else BITS - b * width
        out.append((fp >> np.uint64(b * width)) & np.uint64((1 << bits) - 1))
    return out


def window_pairs(
    group: np.ndarray, fp: np.ndarray, max_distance: int, window: int
) -> tuple[np.ndarray, np.ndarray]:
    """Positions (p, p + d) of items sorted by (group, fingerprint, ...) that share a group,
    lie at most `window` apart and are within `max_distance` bits: the candidate scan of one
    band, shared by the in-process and the distributed pass."""
    n = len(fp)
    found_i, found_j = [], []
    for d in range(1, min(window, n - 1) + 1):
        same = np.flatnonzero(group[:-d] == group[d:])
        if len(same) == 0:
            break
        close = same[np.bitwise_count(fp[same] ^ fp[same + d]) <= max_distance]
        found_i.append(close)
        found_j.append(close + d)
    if not found_i:
        e = np.zeros(0, np.int64)
        return e, e
    return np.concatenate(found_i), np.concatenate(found_j)


def close_pairs(
    fp: np.ndarray, max_distance: int, max_bucket_window: int = 64
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All pairs (i < j) with Hamming(fp[i], fp[j]) <= max_distance, found through k+1 bands.

    Within a band, items are sorted by (band value, fingerprint) and each is compared with the
    next `max_bucket_window` items of the same band value: exhaustive for buckets up to that
    size; in larger buckets (thousands of near-identical texts) close fingerprints sort
    together, so connected components still join them. Distances are checked as candidates are
    made, so memory stays proportional to the close pairs. Returns (i, j, distance)."""
    n = len(fp)
    e = np.zeros(0, np.int64)
    if n < 2:
        return e, e, e
    found_i, found_j = [], []
    for key in band_keys(fp, max_distance):
        order = np.lexsort((fp, key))
        pi, pj = window_pairs(key[order], fp[order], max_distance, max_bucket_window)
        found_i.append(order[pi])
        found_j.append(order[pj])
    i, j = np.concatenate(found_i), np.concatenate(found_j)
    lo, hi = np.minimum(i, j).astype(np.int64), np.maximum(i, j).astype(np.int64)
    pair = np.unique(lo * n + hi)
    lo, hi = pair // n, pair % n
    return lo, hi, hamming(fp[lo], fp[hi])
