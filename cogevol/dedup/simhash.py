"""SimHash fingerprints over character n-grams and a banded index to find close pairs.

Banding (pigeonhole): with k+1 bands, two 64-bit fingerprints within Hamming distance k agree
exactly on at least one band, so candidates are pairs that share a band value. That makes the
pass near-linear instead of all-pairs; every candidate is then checked on the full distance.
"""

from __future__ import annotations

import numpy as np

from cogevol.dedup.ngrams import splitmix64

BITS = 64


def fingerprints(doc: np.ndarray, gram: np.ndarray, n_docs: int, chunk: int = 1 << 20) -> np.ndarray:
    """64-bit SimHash per document (occurrence-weighted), as uint64. Docs without n-grams get 0."""
    acc = np.zeros((n_docs, BITS), dtype=np.int32)
    h = splitmix64(gram)
    for s in range(0, len(doc), chunk):
        d, hh = doc[s : s + chunk], h[s : s + chunk]
        # bit b of each hash as +1/-1 (little-endian byte order so column b is bit b)
        bits = np.unpackbits(hh.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
        signs = bits.astype(np.int16) * 2 - 1
        starts = np.flatnonzero(np.r_[True, d[1:] != d[:-1]])  # doc is sorted: contiguous runs
        acc[d[starts]] += np.add.reduceat(signs, starts, axis=0)
    weights = np.uint64(1) << np.arange(BITS, dtype=np.uint64)
    return ((acc > 0).astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)


def hamming(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.bitwise_count(a ^ b).astype(np.int64)


def close_pairs(fp: np.ndarray, max_distance: int, max_bucket_window: int = 256) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All pairs (i < j) with Hamming(fp[i], fp[j]) <= max_distance, found through k+1 bands.

    Within a band, items are sorted by (band value, fingerprint) and compared with the next
    `max_bucket_window` items of the same band value: exhaustive for buckets up to that size;
    in larger buckets (thousands of near-identical texts) close fingerprints sort together, so
    connected components still join them. Returns (i, j, distance)."""
    n = len(fp)
    if n < 2:
        e = np.zeros(0, np.int64)
        return e, e, e
    bands = max_distance + 1
    width = BITS // bands
    found_i, found_j = [], []
    for b in range(bands):
        shift = np.uint64(b * width)
        mask = np.uint64((1 << width) - 1) if (b < bands - 1) else np.uint64((1 << (BITS - b * width)) - 1)
        key = (fp >> shift) & mask
        order = np.lexsort((fp, key))
        ks = key[order]
        for d in range(1, min(max_bucket_window, n - 1) + 1):
            same = np.flatnonzero(ks[:-d] == ks[d:])
            if len(same) == 0:
                break
            found_i.append(order[same])
            found_j.append(order[same + d])
    if not found_i:
        e = np.zeros(0, np.int64)
        return e, e, e
    i = np.concatenate(found_i)
    j = np.concatenate(found_j)
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    pair = np.unique(lo.astype(np.int64) * n + hi)
    lo, hi = pair // n, pair % n
    dist = hamming(fp[lo], fp[hi])
    keep = dist <= max_distance
    return lo[keep], hi[keep], dist[keep]
