import numpy as np

from cogevol.dedup.ngrams import multi_ngrams
from cogevol.dedup.tfidf import all_pairs_baseline, choose_max_df, similar_pairs, tfidf_matrix
from cogevol.text import normalize, shingle_text
from cogevol.traffic.synth import generate_traffic


def _matrix(texts):
    d, g = multi_ngrams(texts, (2, 3))
    return tfidf_matrix(d, g, len(texts))


def test_rows_are_unit_norm():
    X, df = _matrix(["做一个贪吃蛇游戏", "make a quiz", "x"])
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    assert np.allclose(norms[:2], 1) and norms[2] == 0  # "x" has no n-grams


def test_candidate_join_equals_all_pairs_under_any_budget():
    texts = sorted({shingle_text(normalize(r["messages"][0]["content"])) for r in generate_traffic(800, seed=3)})
    X, df = _matrix(texts)
    for t in (0.5, 0.7, 0.9):
        bi, bj, _ = all_pairs_baseline(X, t)
        brute = set(zip(bi.tolist(), bj.tolist()))
        for budget in (1e3, 1e5, 1e9):  # tiny budgets force most n-grams into the "common" side
            i, j, cos, stats = similar_pairs(X, df, t, work_budget=budget)
            assert set(zip(i.tolist(), j.tolist())) == brute, (t, budget, stats)
            assert (cos >= t).all()


def test_budget_picks_largest_affordable_max_df():
    df = np.array([1, 1, 2, 2, 10, 1000])
    assert choose_max_df(df, budget=2 + 8) == 2
    assert choose_max_df(df, budget=1e9) == 1000
