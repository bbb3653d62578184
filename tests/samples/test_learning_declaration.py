"""The held-out learning benchmark's test is declared before its run (issue 67): its primary
metric, tier and comparisons are pinned here, so a result commit cannot move them, and the
verdict is computed from them as declared."""

import importlib.util

from tests.conftest import REPO


def _benchmark():
    spec = importlib.util.spec_from_file_location("grpo_learning", REPO / "benchmarks" / "grpo_learning.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_declaration_is_what_was_committed_before_the_run():
    b = _benchmark()
    assert b.PRIMARY == {
        "metric": "greedy reward",
        "tier": "near",
        "comparisons": {"vs_sft": ("grpo", "sft"), "vs_control": ("grpo", "control")},
        "test": "paired bootstrap 95% CI over distinct held-out requests; met when both lower bounds are above 0",
    }


def _rows(system, rewards, tier="near"):
    return [{"system": system, "id": f"{tier}-{k}", "tier": tier, "reward": r, "gate_pass": 1.0, "valid": 1.0}
            for k, r in enumerate(rewards)]


def test_the_verdict_pairs_distinct_requests_and_needs_both_lower_bounds_above_zero():
    b = _benchmark()
    n = 40
    sft = _rows("sft", [0.2] * n) + _rows("sft", [0.1] * 10, "far")
    better = _rows("grpo", [0.2 + 0.1 * (k % 3) for k in range(n)]) + _rows("grpo", [0.1] * 10, "far")
    control = _rows("control", [0.0] * n) + _rows("control", [0.0] * 10, "far")
    v = b.verdict({"sft": sft, "grpo": better, "control": control})
    p = v["primary"]
    assert p["met"] and p["vs_sft"]["requests"] == n and p["vs_sft"]["ci"][0] > 0 and p["vs_control"]["ci"][0] > 0
    assert v["far"]["vs_sft"]["diff"] == 0.0  # the far tier is reported, never part of the target
    same = b.verdict({"sft": sft, "grpo": sft, "control": control})
    assert not same["primary"]["met"]
