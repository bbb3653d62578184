"""Character n-gram TF-IDF and a cosine self-join that never goes quadratic.

Candidates are generated on rare n-grams only, then verified with their exact cosine:

* every document indexes its `prefix` rarest n-grams that at least one other document has
  (2 <= df <= `max_df`); boilerplate and dense common n-grams (CJK bigrams like 一个 or 的,
  "make a") are never used to generate candidates, which is what keeps the product small;
* a pair is a candidate when one document's prefix shares at least `min_shared` n-grams with
  the other document (all of them when the prefix is shorter);
* each candidate's exact cosine on the full TF-IDF vectors decides.

`candidates` in the stats counts candidate links per direction (document A's prefix reaching
document B is one, B's reaching A another): a number that does not depend on how the rows were
cut into blocks or partitions, so the in-process and the Ray engine report the same one.

Near-duplicates share their rare n-grams, so they meet in the prefix; two requests that only
share boilerplate do not. This is an index, not an exhaustive join: with `prefix` large,
`max_df` unbounded and `min_shared=1` it degenerates to the exact all-pairs result (tests check
that); the defaults trade a sliver of recall on distant pairs for linear-ish cost (benchmarks/).
Row blocks run in `workers` forked processes.
"""

from __future__ import annotations

import logging

import numpy as np
import scipy.sparse as sp

from cogevol.core.parallel import fork_map

log = logging.getLogger(__name__)


def idf(df: np.ndarray, n_docs: int) -> np.ndarray:
    """Smoothed inverse document frequency, as float32 (sklearn's smooth_idf)."""
    return (np.log((1 + n_docs) / (1 + df)) + 1).astype(np.float32)


def weigh(
    X: sp.csr_matrix, idf_of_entry: np.ndarray, norms: np.ndarray | None = None
) -> np.ndarray:
    """Sublinear TF-IDF, L2-normalised, in place on a matrix of counts (rows = documents); returns
    the row norms. `norms` given: divide by those (a document's norm over all of its n-grams,
    when the matrix holds only some of them). The one place the weights are computed: the
    in-process and the distributed passes must agree to the last bit."""
    X.data = (1 + np.log(X.data)) * idf_of_entry
    lengths = np.diff(X.indptr)
    if norms is None:
        norms = np.sqrt(
            np.bincount(
                np.repeat(np.arange(X.shape[0]), lengths),
                weights=X.data.astype(np.float64) ** 2,
                minlength=X.shape[0],
            )
        )
        norms[norms == 0] = 1
    X.data /= np.repeat(norms, lengths).astype(np.float32)
    return norms


def tfidf_matrix(
    doc: np.ndarray, gram: np.ndarray, n_docs: int
) -> tuple[sp.csr_matrix, np.ndarray]:
    """L2-normalised sublinear TF-IDF (rows = documents). Returns (X, df per column)."""
    vocab, col = np.unique(gram, return_inverse=True)
    X = sp.csr_matrix(
        (np.ones(len(doc), np.float32), (doc, col.ravel())), shape=(n_docs, len(vocab))
    )
    X.sum_duplicates()
    df = np.bincount(X.indices, minlength=len(vocab))
    weigh(X, idf(df, n_docs)[X.indices])
    return X, df


def pair_cosines(A: sp.csr_matrix, B: sp.csr_matrix) -> np.ndarray:
    """Row-wise dot products of two row-aligned L2-normalised matrices (float32)."""
    return np.asarray(A.multiply(B).sum(axis=1)).ravel()


def prefix_matrix(
    X: sp.csr_matrix, df: np.ndarray, prefix: int, max_df: int | None
) -> sp.csr_matrix:
    """Binary matrix of each row's `prefix` rarest shareable features (ties by feature id)."""
    n = X.shape[0]
    row = np.repeat(np.arange(n), np.diff(X.indptr))
    dfe = df[X.indices]
    ok = dfe >= 2
    if max_df is not None:
        ok &= dfe <= max_df
    order = np.lexsort((X.indices, dfe, row))
    order = order[ok[order]]
    r = row[order]
    first = np.r_[True, r[1:] != r[:-1]] if len(r) else np.zeros(0, bool)
    start = np.maximum.accumulate(np.where(first, np.arange(len(r)), 0)) if len(r) else r
    sel = order[(np.arange(len(r)) - start) < prefix]
    return sp.csr_matrix((np.ones(len(sel), np.float32), (row[sel], X.indices[sel])), shape=X.shape)


_STATE: dict = {}


def _block(bounds: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Candidates whose prefix lies in rows [s, e), verified; returns pairs at >= threshold and
    the number of candidate links (one per direction)."""
    s, e = bounds
    X, P, BT, plen, need, t = (_STATE[k] for k in ("X", "P", "BT", "plen", "need", "t"))
    C = (P[s:e] @ BT).tocoo()
    i = C.row.astype(np.int64) + s
    j = C.col.astype(np.int64)
    m = (i != j) & (C.data >= np.minimum(need, plen[i]))
    lo, hi = np.minimum(i[m], j[m]), np.maximum(i[m], j[m])
    n = X.shape[0]
    pair = np.unique(lo * n + hi)
    lo, hi = pair // n, pair % n
    cos = np.empty(len(lo), np.float32)
    step = 1 << 17
    for k in range(0, len(lo), step):
        a, b = lo[k : k + step], hi[k : k + step]
        cos[k : k + step] = pair_cosines(X[a], X[b])
    keep = cos >= t
    return lo[keep], hi[keep], cos[keep], int(m.sum())


def similar_pairs(
    X: sp.csr_matrix,
    df: np.ndarray,
    threshold: float,
    prefix: int = 3,
    min_shared: int = 2,
    max_df: int | None = 500,
    workers: int = 1,
    block_rows: int = 4096,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """Pairs (i < j) with cosine(X[i], X[j]) >= threshold among prefix candidates.

    Returns (i, j, cosine, stats); stats["candidates"] counts candidate links per direction."""
    n = X.shape[0]
    P = prefix_matrix(X, df, prefix, max_df)
    B = sp.csr_matrix((np.ones(X.nnz, np.float32), X.indices, X.indptr), shape=X.shape)
    _STATE.update(
        X=X, P=P, BT=sp.csr_matrix(B.T), plen=np.diff(P.indptr), need=min_shared, t=threshold
    )
    blocks = [(s, min(s + block_rows, n)) for s in range(0, n, block_rows)]
    try:
        parts = fork_map(_block, blocks, workers)
    finally:
        _STATE.clear()
    candidates = sum(p[3] for p in parts)
    e = np.zeros(0, np.int64)
    i = np.concatenate([p[0] for p in parts]) if parts else e
    j = np.concatenate([p[1] for p in parts]) if parts else e
    c = np.concatenate([p[2] for p in parts]) if parts else np.zeros(0, np.float32)
    pair, first = np.unique(i * n + j, return_index=True)  # a pair can be found from both ends
    i, j, c = pair // n, pair % n, c[first].astype(np.float64)
    no_prefix = int((np.diff(P.indptr) == 0).sum())
    stats = {
        "candidates": int(candidates),
        "pairs": int(len(i)),
        "docs_without_prefix": no_prefix,
        "prefix": prefix,
        "min_shared": min_shared,
        "max_df": max_df,
    }
    log.info(
        "tfidf: %d candidate links, %d pairs at cosine >= %.2f "
        "(%d docs without a shareable rare n-gram)",
        candidates,
        len(i),
        threshold,
        no_prefix,
    )
    return i, j, c, stats


def all_pairs_baseline(
    X: sp.csr_matrix, threshold: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Dense all-pairs cosine: the quadratic reference that benchmarks and tests compare against."""
    D = (X @ X.T).toarray()
    i, j = np.nonzero(np.triu(D >= threshold, k=1))
    return i, j, D[i, j]
