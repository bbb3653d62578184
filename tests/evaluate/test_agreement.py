import json

import numpy as np
import pytest
from scipy.stats import spearmanr

from cogevol.evaluate.agreement import _group_ranks, bootstrap_spearman, correlate
from cogevol.evaluate.ratings import RatingsError, components, load_ratings, mean_by_artifact


def test_weighted_ranks_equal_the_ranks_of_the_explicit_resample():
    rng = np.random.default_rng(1)
    x = np.round(rng.normal(size=40), 1)  # ties on purpose
    y = np.round(x + rng.normal(size=40), 1)
    for _ in range(20):
        idx = rng.integers(0, 40, 40)
        w = np.bincount(idx, minlength=40)[None, :].astype(float)
        rx, ry = _group_ranks(x, w)[0], _group_ranks(y, w)[0]
        mx, my = (w[0] * rx).sum() / 40, (w[0] * ry).sum() / 40
        rho = (w[0] * (rx - mx) * (ry - my)).sum() / np.sqrt((w[0] * (rx - mx) ** 2).sum() * (w[0] * (ry - my) ** 2).sum())
        assert rho == pytest.approx(spearmanr(x[idx], y[idx]).statistic, abs=1e-12)


def test_confidence_intervals_bracket_the_estimate_and_shrink_with_n():
    rng = np.random.default_rng(0)
    small_x = rng.normal(size=60)
    big_x = rng.normal(size=3000)
    small = correlate("s", small_x, small_x + rng.normal(size=60), resamples=400)
    big = correlate("b", big_x, big_x + rng.normal(size=3000), resamples=400, kendall_resamples=50)
    for c in (small, big):
        assert c.spearman_ci[0] < c.spearman < c.spearman_ci[1]
        assert c.kendall_ci[0] < c.kendall < c.kendall_ci[1]
    assert big.spearman_ci[1] - big.spearman_ci[0] < small.spearman_ci[1] - small.spearman_ci[0]
    assert bootstrap_spearman(big_x, big_x, 10).min() == pytest.approx(1.0)


def test_degenerate_inputs_give_nan_not_a_crash():
    c = correlate("flat", [1, 1, 1, 1], [1, 2, 3, 4])
    assert np.isnan(c.spearman) and c.n == 4


def test_ratings_file_is_validated_and_raters_averaged(tmp_path):
    p = tmp_path / "r.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in [
        {"artifact": "a.html", "human_score": 4, "rater": "x"}, {"artifact": "a.html", "human_score": 2, "rater": "y"},
        {"artifact": "d.json", "human_score": "5", "rater": "x", "request": "a deck on tides"}]) + "\n")
    items = mean_by_artifact(load_ratings(p))
    assert items == {"a.html": {"human": 3.0, "raters": 2, "kind": "html", "request": ""},
                     "d.json": {"human": 5.0, "raters": 1, "kind": "slide", "request": "a deck on tides"}}
    bad = tmp_path / "bad.csv"
    bad.write_text("artifact,human_score,rater\na.html,great,x\n")
    with pytest.raises(RatingsError, match="row 1: human_score 'great' is not a number"):
        load_ratings(bad)
    bad.write_text("artifact,human_score\na.html,3\n")
    with pytest.raises(RatingsError, match="row 1: missing rater"):
        load_ratings(bad)


def test_components_are_on_a_higher_is_better_scale():
    html = components("html", {"reward": 0.8, "interactivity": 0.5, "terms": {"interactivity": 0.5, "viewport_mobile": 0.25}})
    assert html == {"reward": 0.8, "interactivity": 0.5, "viewport_mobile": 0.75}
    slide = components("slide", {"reward": 0.9, "rule_score": 4.5, "vlm_score": None, "rules": {"collisions": 5.0}})
    assert slide == {"reward": 0.9, "rule_score": 4.5, "vlm_score": None, "rules.collisions": 5.0}


def test_a_correlation_round_trips_through_its_record():
    from cogevol.evaluate.agreement import Correlation

    c = Correlation("html", 12, 0.5, (0.1, 0.8), 0.4, (0.05, 0.7))
    assert Correlation.from_record(c.record()) == c
