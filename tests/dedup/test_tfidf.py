import numpy as np

from cogevol.core.text import normalize, shingle_text
from cogevol.dedup.ngrams import multi_ngrams
from cogevol.dedup.tfidf import all_pairs_baseline, similar_pairs, tfidf_matrix
from cogevol_samples.traffic import generate_traffic


def _matrix(texts):
    d, g = multi_ngrams(texts, (2, 3))
    return tfidf_matrix(d, g, len(texts))


def test_rows_are_unit_norm():
    X, df = _matrix(["做一个贪吃蛇游戏", "make a quiz", "x"])
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    assert np.allclose(norms[:2], 1) and norms[2] == 0  # "x" has no n-grams


def _texts():
    return sorted({shingle_text(normalize(r["messages"][0]["content"])) for r in generate_traffic(800, seed=3)})


def test_unbounded_index_equals_all_pairs():
    X, df = _matrix(_texts())
    for t in (0.5, 0.7, 0.9):
        bi, bj, bc = all_pairs_baseline(X, t)
        i, j, cos, _ = similar_pairs(X, df, t, prefix=10**6, min_shared=1, max_df=None, block_rows=97)
        assert set(zip(i.tolist(), j.tolist())) == set(zip(bi.tolist(), bj.tolist()))
        assert np.allclose(np.sort(cos), np.sort(bc), atol=1e-5)


def test_default_index_finds_nearly_all_close_pairs_and_only_true_ones():
    X, df = _matrix(_texts())
    bi, bj, _ = all_pairs_baseline(X, 0.8)
    brute = set(zip(bi.tolist(), bj.tolist()))
    for workers in (1, 2):
        i, j, cos, stats = similar_pairs(X, df, 0.8, workers=workers, block_rows=128)
        got = set(zip(i.tolist(), j.tolist()))
        assert got <= brute and (cos >= 0.8).all()
        assert len(got) >= 0.9 * len(brute), stats
