"""Connected components over accepted links, and representative election."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components


def components(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Component label per node for an undirected graph given by edges (i, j)."""
    if n == 0:
        return np.zeros(0, np.int64)
    g = sp.coo_matrix((np.ones(len(i), np.int8), (i, j)), shape=(n, n))
    return connected_components(g, directed=False)[1].astype(np.int64)


def elect(labels: np.ndarray, support: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Representative node per label: most support (rows it stands for), then earliest order.

    Returns rep[node] = the representative node of node's component."""
    n = len(labels)
    if n == 0:
        return np.zeros(0, np.int64)
    best = np.lexsort((order, -support, labels))  # grouped by label, best first
    first = np.r_[True, labels[best][1:] != labels[best][:-1]]
    rep_of_label = np.empty(labels.max() + 1, np.int64)
    rep_of_label[labels[best][first]] = best[first]
    return rep_of_label[labels]


def strongest_link(
    n: int, i: np.ndarray, j: np.ndarray, score: np.ndarray, higher_is_better: bool
) -> tuple[np.ndarray, np.ndarray]:
    """For every node, its best-scoring accepted neighbour (-1 if none) and that score:
    the evidence written to the audit CSVs for why a node was merged."""
    partner = np.full(n, -1, np.int64)
    best = np.full(n, np.nan)
    if len(i) == 0:
        return partner, best
    a = np.concatenate([i, j])
    b = np.concatenate([j, i])
    s = np.concatenate([score, score]).astype(np.float64)
    key = -s if higher_is_better else s
    o = np.lexsort((key, a))
    first = np.r_[True, a[o][1:] != a[o][:-1]]
    partner[a[o][first]] = b[o][first]
    best[a[o][first]] = s[o][first]
    return partner, best
