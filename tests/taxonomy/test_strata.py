import pytest

from cogevol.taxonomy.strata import (
    draw,
    largest_remainder,
    rebalance,
    stratum,
    targets_from_shares,
)


def rec(i, l2, diff, lang="en"):
    return {"id": i, "lang": lang, "taxonomy": {"l1": "Dynamic", "l2": l2, "difficulty": diff}}


def test_largest_remainder_sums_exactly_and_gives_remainders_to_the_largest():
    q = largest_remainder({"a": 5, "b": 3, "c": 2}, 5)
    assert sum(q.values()) == 5
    assert q == {"a": 3, "b": 1, "c": 1}  # 2.5, 1.5, 1.0: a and b floor, a then b by remainder
    with pytest.raises(ValueError):
        largest_remainder({"a": 1}, 2)


def test_draw_is_proportional_per_stratum_deterministic_and_in_input_order():
    pool = [rec(i, "Browser Games", "Medium") for i in range(60)] + [
        rec(100 + i, "Simulation", "Hard") for i in range(20)
    ]
    got = draw(pool, 20, seed=3)
    assert len(got) == 20
    assert sum(stratum(r)[1] == "Simulation" for r in got) == 5
    assert [r["id"] for r in got] == sorted(r["id"] for r in got)
    assert got == draw(pool, 20, seed=3)
    assert got != draw(pool, 20, seed=4)
    assert draw(pool, 500) == pool


def test_rebalance_keeps_strata_shape_fills_deficits_and_audits_every_record():
    pool = (
        [rec(i, "Browser Games", "Medium", "zh") for i in range(40)]
        + [rec(100 + i, "Simulation", "Hard", "zh") for i in range(20)]
        + [rec(200 + i, "Browser Games", "Medium", "en") for i in range(10)]
        + [rec(300, "Simulation", "Hard", "it")]
    )
    targets = {"zh": 30, "en": 10, "fr": 10, "de": 5}
    out = rebalance(pool, targets, seed=1)
    kept_zh = [r for r in out.kept if r["lang"] == "zh"]
    assert len(kept_zh) == 30
    assert sum(r["taxonomy"]["l2"] == "Simulation" for r in kept_zh) == 10  # 20 x 30/60
    assert sorted(r["target_lang"] for r in out.translate) == ["de"] * 5 + ["fr"] * 10
    assert len(out.audit) == len(pool)
    assert {a["action"] for a in out.audit} == {"kept", "translate", "unused"}
    it = next(a for a in out.audit if a["id"] == 300)
    assert it["original_lang"] == "it" and it["action"] in ("translate", "unused")
    s = out.summary()
    assert s["after"] == {"de": 5, "en": 10, "fr": 10, "zh": 30}
    assert rebalance(pool, targets, seed=1).audit == out.audit


def test_targets_from_shares():
    t = targets_from_shares({"zh": 0.3, "en": 0.3, "fr": 0.2, "de": 0.2}, 101)
    assert sum(t.values()) == 101
    with pytest.raises(ValueError):
        targets_from_shares({"zh": 0.8, "en": 0.3}, 10)


def test_every_prefix_of_the_stratified_order_keeps_each_stratum_within_one_of_its_share():
    from cogevol.taxonomy.strata import stratified_order

    pool = (
        [rec(i, "Browser Games", "Medium") for i in range(30)]
        + [rec(100 + i, "Simulation", "Hard") for i in range(15)]
        + [rec(200 + i, "Management Systems", "Easy") for i in range(5)]
    )
    order = stratified_order(pool, seed=7)
    assert sorted(r["id"] for r in order) == sorted(r["id"] for r in pool)
    for t in range(1, len(order) + 1):
        for l2, size in (("Browser Games", 30), ("Simulation", 15), ("Management Systems", 5)):
            got = sum(stratum(r)[1] == l2 for r in order[:t])
            assert abs(got - size * t / len(pool)) <= 1
