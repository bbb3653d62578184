"""Components by large-star / small-star rounds equal scipy's on graphs that need many rounds
(a long chain, numbered out of order) and on random ones; representatives and strongest links
break ties as the in-process functions do (cogevol.dedup.cluster)."""

import numpy as np
import pyarrow as pa
import pytest
import ray

from cogevol.dedup import cluster
from cogevol.raydata import graph

pytestmark = [pytest.mark.usefixtures("ray_local"), pytest.mark.timeout(300)]


def _labels(stars, n):
    label = np.arange(n)
    t = stars.to_arrow_refs()
    for ref in t:
        b = ray.get(ref)
        label[b.column("hi").to_numpy()] = b.column("lo").to_numpy()
    return label


def test_components_match_scipy():
    rng = np.random.default_rng(0)
    n = 300
    chain = rng.permutation(60)  # a path 60 long, ids shuffled: the slow case for label passing
    i = np.r_[chain[:-1], rng.integers(60, n, 120)]
    j = np.r_[chain[1:], rng.integers(60, n, 120)]
    keep = i != j
    lo, hi = np.minimum(i[keep], j[keep]), np.maximum(i[keep], j[keep])
    links = ray.data.from_arrow(pa.table({"lo": lo, "hi": hi}))
    got = _labels(graph.components(links, parts=3), n)
    want = cluster.components(n, lo, hi)
    # same partition of the nodes, each labelled by its smallest member
    for c in np.unique(want):
        members = np.flatnonzero(want == c)
        assert (got[members] == members.min()).all()


def test_representatives_and_strongest_links_break_ties_as_in_process():
    lo = np.array([0, 0, 1, 3, 5, 5])
    hi = np.array([1, 2, 2, 4, 6, 7])
    score = np.array([0.9, 0.8, 0.9, 0.7, 0.75, 0.75])
    support = np.array([1, 3, 3, 2, 2, 1, 1, 1])
    links = ray.data.from_arrow(pa.table({"lo": lo, "hi": hi, "score": score}))
    nodes = ray.data.from_arrow(pa.table({"node": np.arange(8), "support": support}))
    reps = {r["node"]: r["rep"] for r in graph.representatives(links, nodes, "support", 3, "t").take_all()}
    want = cluster.elect(cluster.components(8, lo, hi), support, np.arange(8))
    assert reps == {k: int(want[k]) for k in range(8)}
    strong = {r["node"]: (r["partner"], r["score"]) for r in graph.strongest_links(links, 3, True).take_all()}
    partner, best = cluster.strongest_link(8, lo, hi, score, higher_is_better=True)
    assert strong == {k: (int(partner[k]), float(best[k])) for k in range(8) if partner[k] >= 0}
