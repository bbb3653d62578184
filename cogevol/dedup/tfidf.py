"""Character n-gram TF-IDF and a cosine self-join that never goes quadratic.

Candidates come from a sparse product over *rarer* n-grams only. Dense common n-grams (CJK
bigrams like 一个 or 的, boilerplate like "make a") would make X·Xᵀ explode, so features are
split by document frequency into rare (df <= max_df) and common. For any pair,

    cos(x, y) = x_rare·y_rare + x_common·y_common <= x_rare·y_rare + |x_common| |y_common|

so a pair can reach the threshold t only if its rare-feature product is at least
t - |x_common||y_common|. The rare product is computed in row blocks; each surviving candidate
is verified with its exact cosine. Pairs with no rare feature in common can only qualify when
both documents are dominated by common n-grams (|x_common| >= t); those few documents are
compared among themselves exactly. max_df is chosen from a work budget (sum of df² over rare
features), so the cost stays bounded on any input.
"""

from __future__ import annotations

import logging

import numpy as np
import scipy.sparse as sp

log = logging.getLogger(__name__)


def tfidf_matrix(doc: np.ndarray, gram: np.ndarray, n_docs: int) -> tuple[sp.csr_matrix, np.ndarray]:
    """L2-normalised sublinear TF-IDF (rows = documents). Returns (X, df per column)."""
    vocab, col = np.unique(gram, return_inverse=True)
    X = sp.csr_matrix((np.ones(len(doc), np.float32), (doc, col.ravel())), shape=(n_docs, len(vocab)))
    X.sum_duplicates()
    df = np.bincount(X.indices, minlength=len(vocab))
    idf = (np.log((1 + n_docs) / (1 + df)) + 1).astype(np.float32)
    X.data = (1 + np.log(X.data)) * idf[X.indices]
    norms = np.sqrt(np.bincount(np.repeat(np.arange(n_docs), np.diff(X.indptr)), weights=X.data.astype(np.float64) ** 2, minlength=n_docs))
    norms[norms == 0] = 1
    X.data /= np.repeat(norms, np.diff(X.indptr)).astype(np.float32)
    return X, df


def choose_max_df(df: np.ndarray, budget: float, floor: int = 2) -> int:
    """Largest max_df such that sum(df² for df <= max_df) stays within the work budget."""
    values, counts = np.unique(df, return_counts=True)
    cost = np.cumsum(values.astype(np.float64) ** 2 * counts)
    ok = values[cost <= budget]
    return int(max(ok[-1] if len(ok) else floor, floor))


def _row_norms(M: sp.csr_matrix) -> np.ndarray:
    return np.sqrt(np.asarray(M.multiply(M).sum(axis=1)).ravel())


def _exact_cosine(X: sp.csr_matrix, a: np.ndarray, b: np.ndarray, chunk: int = 1 << 18) -> np.ndarray:
    out = np.empty(len(a))
    for s in range(0, len(a), chunk):
        out[s : s + chunk] = np.asarray(X[a[s : s + chunk]].multiply(X[b[s : s + chunk]]).sum(axis=1)).ravel()
    return out


def similar_pairs(
    X: sp.csr_matrix,
    df: np.ndarray,
    threshold: float,
    work_budget: float = 2e9,
    block_rows: int = 2048,
    max_common_only: int = 20000,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """All pairs (i < j) with cosine >= threshold. Returns (i, j, cosine, stats)."""
    n = X.shape[0]
    eps = 1e-6
    max_df = choose_max_df(df, work_budget)
    rare = df <= max_df
    Xr = sp.csr_matrix(X[:, np.flatnonzero(rare)])
    nc = _row_norms(X[:, np.flatnonzero(~rare)]) if (~rare).any() else np.zeros(n)
    XrT = sp.csr_matrix(Xr.T)
    cand_i, cand_j = [], []
    for s in range(0, n, block_rows):
        C = (Xr[s : s + block_rows] @ XrT).tocoo()
        i = C.row.astype(np.int64) + s
        j = C.col.astype(np.int64)
        ok = (i < j) & (C.data + nc[i] * nc[j] >= threshold - eps)
        cand_i.append(i[ok])
        cand_j.append(j[ok])
    # documents dominated by common n-grams: compared among themselves on all features
    q = np.flatnonzero(nc >= threshold - eps)
    common_only_skipped = 0
    if 1 < len(q) <= max_common_only:
        Xq = X[q]
        for s in range(0, len(q), block_rows):
            C = (Xq[s : s + block_rows] @ Xq.T).tocoo()
            i, j = C.row.astype(np.int64) + s, C.col.astype(np.int64)
            ok = (i < j) & (C.data >= threshold - eps)
            cand_i.append(q[i[ok]])
            cand_j.append(q[j[ok]])
    elif len(q) > max_common_only:
        common_only_skipped = len(q)
        log.warning("tfidf: %d documents made almost only of common n-grams are not compared among themselves "
                    "(raise dedup.tfidf_work_budget)", len(q))
    i = np.concatenate(cand_i) if cand_i else np.zeros(0, np.int64)
    j = np.concatenate(cand_j) if cand_j else np.zeros(0, np.int64)
    pair = np.unique(i * n + j)
    i, j = pair // n, pair % n
    cos = _exact_cosine(X, i, j)
    keep = cos >= threshold
    stats = {"max_df": max_df, "rare_features": int(rare.sum()), "features": int(len(df)),
             "candidates": int(len(i)), "pairs": int(keep.sum()), "common_only_docs": int(len(q)),
             "common_only_skipped": common_only_skipped}
    log.info("tfidf: max_df=%d, %d candidate pairs, %d at cosine >= %.2f", max_df, len(i), int(keep.sum()), threshold)
    return i[keep], j[keep], cos[keep], stats


def all_pairs_baseline(X: sp.csr_matrix, threshold: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Dense all-pairs cosine: the quadratic reference that benchmarks compare against."""
    D = (X @ X.T).toarray()
    i, j = np.nonzero(np.triu(D >= threshold, k=1))
    return i, j, D[i, j]
