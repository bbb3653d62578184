"""What decides a learning run's verdict (cogevol_samples.learning, and the pieces of
benchmarks/grpo_learning.py around it), without training anything:
the profile merge, the shuffled-reward control, the time budget and the bootstrap statistics."""

import asyncio
import importlib.util

import pytest
import yaml
from transformers import TrainerControl, TrainerState

from cogevol.core.config import merge_profile, profile_leaves, profile_overlays
from cogevol.scoring.base import ScorersBase
from cogevol.scoring.types import Score
from cogevol.train.callbacks import TimeBudgetCallback
from cogevol.train.rewards import HTML_SPEC, ModalityReward, permuted
from cogevol_samples.learning import (
    apart,
    balanced_mean,
    bootstrap_ci,
    first_last,
    paired_diff,
    per_pass,
    per_step,
    rolling,
    summary,
    with_spread,
)
from tests.conftest import REPO

PARAMS = yaml.safe_load((REPO / "params.yaml").read_text())


def apply_module():
    spec = importlib.util.spec_from_file_location("apply_profile", REPO / "infra" / "profiles" / "apply.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def leaves(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and v:
            out.update(leaves(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


# ---------------------------------------------------------------- merge_profile


def test_merge_profile_merges_dicts_replaces_the_rest_and_copies():
    params = {"model": {"base": "tiny", "tiny": {"hidden_size": 128}}, "evaluate": {"suites": ["a", "b"]}, "x": None}
    overlay = {"model": {"base": "smollm2-135m"}, "evaluate": {"suites": ["c"]}, "x": {"k": 1}}
    merged = merge_profile(params, overlay)
    assert merged == {"model": {"base": "smollm2-135m", "tiny": {"hidden_size": 128}}, "evaluate": {"suites": ["c"]},
                      "x": {"k": 1}}
    assert params["model"]["base"] == "tiny" and params["evaluate"]["suites"] == ["a", "b"]  # inputs untouched
    merged["model"]["tiny"]["hidden_size"] = 1
    assert params["model"]["tiny"]["hidden_size"] == 128  # no shared subtrees
    assert merge_profile(params, None) == params


def test_merge_profile_refuses_keys_params_does_not_have():
    with pytest.raises(KeyError, match=r"grpo\.learning_rat: not in params.yaml"):
        merge_profile(PARAMS, {"grpo": {"learning_rat": 1e-5}})
    with pytest.raises(KeyError, match="nope"):
        merge_profile(PARAMS, {"nope": 1})


@pytest.mark.parametrize("profile", ["cpu-small", "gpu", "gpu-1x80", "gpu-1x24"])
def test_profiles_merge_exactly_as_apply_py_overrides_them(profile):
    overlays = profile_overlays(profile)  # a profile that extends another: the parent's first
    merged, set_here = PARAMS, {}
    for overlay in overlays:
        merged = merge_profile(merged, overlay)
        set_here.update(profile_leaves(PARAMS, overlay))  # free-form maps (extra_body) set whole
    ovs = apply_module().overrides(overlays, PARAMS)  # apply.py keeps working, on the same keys
    assert sorted(o.split("=", 1)[0] for o in ovs) == sorted(set_here)
    for key, value in set_here.items():
        node = merged
        for part in key.split("."):
            node = node[part]
        assert node == value
    named = {o for overlay in overlays for o in leaves(overlay)}
    changed = {k for k, v in leaves(merged).items() if leaves(PARAMS).get(k, object()) != v}
    assert changed <= {k for k in leaves(merged) if any(k == o or k.startswith(o + ".") for o in named)}


def test_cpu_small_profile_builds_valid_training_configs():
    from cogevol.train.config import GRPOSettings, ModelConfig, SFTSettings, TrainConfig, from_dict

    p = merge_profile(PARAMS, yaml.safe_load((REPO / "infra" / "profiles" / "cpu-small.yaml").read_text()))
    assert from_dict(ModelConfig, p["model"]).base == "smollm2-135m"
    g = from_dict(GRPOSettings, p["grpo"])
    assert (g.num_generations, g.requests_per_step, g.beta) == (4, 2, 0.001) and g.max_completion_length >= 512
    assert from_dict(SFTSettings, p["sft"]).max_steps == -1 and from_dict(TrainConfig, p["train"]).seed == PARAMS["train"]["seed"]


# ---------------------------------------------------------------- the shuffled-reward control


REWARDS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, None]  # None: a harness failure (no verdict)


class Fixed(ScorersBase):
    """Scorers whose k-th item of a call gets REWARDS[k] (0.0: a hard fail)."""

    async def score(self, items):
        out = []
        for k, _ in enumerate(items):
            r = REWARDS[k]
            if r is None:
                out.append(Score.no_verdict("html", "worker died"))
            else:
                out.append(Score("html", r, "fail" if r == 0.0 else "pass", "", hard_fail=r == 0.0, rendered_ok=True,
                                 details={"reward": r, "hard_fail": r == 0.0, "rendered_ok": True}))
        return out


def call(fn, n: int = 8, step: int | None = None, modality=None):
    logged = {}
    state = None
    if step is not None:
        state = TrainerState()
        state.global_step = step
    kw = {"modality": modality or ["html"] * n, "prompt_id": [f"p{k // 4}" for k in range(n)],
          "log_metric": logged.__setitem__, "trainer_state": state}
    out = asyncio.run(fn(prompts=[f"q{k}" for k in range(n)], completions=[f"c{k}" for k in range(n)], **kw))
    return out, logged


def test_without_a_seed_the_rewards_are_the_completions_own():
    out, _ = call(ModalityReward("html", Fixed(), HTML_SPEC))
    assert out == REWARDS


def test_shuffled_rewards_keep_the_multiset_and_the_logs_stay_true():
    record: list = []
    fn = ModalityReward("html", Fixed(), HTML_SPEC, shuffle_seed=3, record=record)
    out, logged = call(fn, step=4)
    assert out != REWARDS  # the link to the completions is broken...
    assert sorted(out, key=lambda r: (r is None, r)) == REWARDS  # ...the numbers are the same (None included)
    true = [r for r in REWARDS if r is not None]
    assert logged["html/reward"] == pytest.approx(sum(true) / len(true))  # metrics: the true rewards
    assert logged["html/hard_fail_rate"] == pytest.approx(2 / 8)  # the 0.0 page, and no verdict counts as failed
    assert [r["reward"] for r in record] == REWARDS  # records: each completion's own reward, in order
    assert [r["hard_fail"] for r in record] == [True] + [False] * 7 and record[-1]["gate"] == "none"
    assert {r["step"] for r in record} == {5} and {r["call"] for r in record} == {0}  # the step these rollouts train
    assert [r["prompt_id"] for r in record[:5]] == ["p0", "p0", "p0", "p0", "p1"]


def test_the_permutation_is_seeded_and_new_each_call():
    a, b = ModalityReward("html", Fixed(), HTML_SPEC, shuffle_seed=7), ModalityReward("html", Fixed(), HTML_SPEC, shuffle_seed=7)
    first_a, first_b = call(a)[0], call(b)[0]
    assert first_a == first_b  # same seed, same permutation
    assert any(call(a)[0] != first_a for _ in range(5))  # later calls draw new ones
    assert permuted([1, 2, 3], __import__("random").Random(0)) in ([1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1])


def test_a_joint_call_shuffles_only_this_modalitys_completions():
    record: list = []
    fn = ModalityReward("html", Fixed(), HTML_SPEC, shuffle_seed=1, record=record)
    out, _ = call(fn, n=6, modality=["html", "slide", "html", "slide", "html", "html"])
    assert [out[k] for k in (1, 3)] == [None, None]
    assert sorted(out[k] for k in (0, 2, 4, 5)) == [0.0, 0.1, 0.2, 0.3]
    assert len(record) == 4 and [r["step"] for r in record] == [1] * 4  # no trainer state: the call number


# ---------------------------------------------------------------- time budget


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def test_time_budget_stops_after_the_step_that_crosses_it():
    clock, state, control = Clock(), TrainerState(), TrainerControl()
    cb = TimeBudgetCallback(minutes=1.0, clock=clock)
    cb.on_step_end(None, state, control)  # before training began: nothing to measure
    assert not control.should_training_stop
    cb.on_train_begin(None, state, control)
    for step, t in ((1, 130.0), (2, 159.9)):
        clock.t, state.global_step = t, step
        cb.on_step_end(None, state, control)
        assert not control.should_training_stop and cb.stopped_at is None
    clock.t, state.global_step = 170.0, 3
    cb.on_step_end(None, state, control)
    assert control.should_training_stop and cb.stopped_at == 3 and cb.elapsed_s == pytest.approx(70.0)


# ---------------------------------------------------------------- statistics


def test_bootstrap_ci_is_seeded_and_brackets_the_mean():
    vals = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0] * 5
    lo, hi = bootstrap_ci(vals, resamples=2000, seed=0)
    assert lo < 0.5 < hi and hi - lo < 0.4
    assert bootstrap_ci(vals, seed=0) == (lo, hi) and bootstrap_ci(vals, seed=1) != (lo, hi)
    assert bootstrap_ci([0.3] * 4) == (pytest.approx(0.3), pytest.approx(0.3))
    assert bootstrap_ci([]) is None
    narrow = bootstrap_ci(vals * 10)
    assert narrow[1] - narrow[0] < hi - lo  # more completions, tighter interval


def test_ci_overlap():
    assert apart((0.1, 0.2), (0.3, 0.4)) and apart((0.3, 0.4), (0.1, 0.2))
    assert not apart((0.1, 0.3), (0.2, 0.4)) and not apart(None, (0.1, 0.2))


def records(rewards_per_step: list[list[float]]) -> list[dict]:
    return [{"step": s + 1, "reward": r, "hard_fail": r == 0.0, "gate": "fail" if r == 0.0 else "pass", "prompt_id": "p"}
            for s, rs in enumerate(rewards_per_step) for r in rs]


def test_first_and_last_windows_detect_a_rise_and_not_noise():
    rising = records([[0.0] * 6 + [0.5, 0.6]] * 4 + [[0.0, 0.4, 0.5, 0.5]] * 4 + [[0.7, 0.8, 0.8, 0.9] * 2] * 4)
    fl = first_last(rising)
    assert fl["k"] == 3 and fl["first"]["steps"] == [1, 3] and fl["last"]["steps"] == [10, 12]
    assert fl["reward_rose"] and fl["gate_pass_rose"] and fl["gate_pass_change"] == pytest.approx(0.75)
    flat = records([[0.0, 0.2, 0.4, 0.6]] * 8)
    fl = first_last(flat)
    assert fl["k"] == 2 and not fl["reward_cis_apart"] and fl["reward_change"] == pytest.approx(0.0)
    few = first_last(records([[0.1], [0.2]]))
    assert few["k"] == 2 and few["first"]["steps"] == few["last"]["steps"] == [1, 2]
    # a pool revisited every 5 steps: 12 steps are 2 whole passes (10 steps), K = 2 is less than a pass;
    # 24 steps are 4 passes, K = 20 // 4 = 5 = one pass
    assert first_last(rising, period=5)["k"] == 2
    assert first_last(records([[0.0, 1.0]] * 24), period=5)["k"] == 5


def pool_records(passes: list[dict[str, list[float]]]) -> list[dict]:
    """One step per prompt per pass, in the pass's order: {prompt: rewards of its group}."""
    out, step = [], 0
    for rewards_by_prompt in passes:
        for prompt, rs in rewards_by_prompt.items():
            step += 1
            out += [{"step": step, "reward": r, "hard_fail": r == 0.0, "gate": "", "prompt_id": prompt} for r in rs]
    return out


def test_stratified_bootstrap_leaves_out_how_hard_each_prompt_is():
    # an easy and a hard prompt: over the pool the mean is fixed by the prompts, not drawn with them
    values, strata = [0.9, 1.0] * 4 + [0.0, 0.1] * 4, ["easy"] * 8 + ["hard"] * 8
    plain, strat = bootstrap_ci(values, seed=0), bootstrap_ci(values, seed=0, strata=strata)
    assert strat[0] < 0.5 < strat[1] and strat[1] - strat[0] < (plain[1] - plain[0]) / 3
    # each prompt weighs the same however often it was drawn
    assert balanced_mean([1.0, 1.0, 1.0, 0.0], ["a", "a", "a", "b"]) == pytest.approx(0.5)
    assert balanced_mean([1.0, 1.0, 1.0, 0.0]) == pytest.approx(0.75)


def test_pool_windows_are_whole_balanced_passes():
    # 3 prompts, 9 passes and one prompt of a 10th: the partial pass is left out, K = 27 // 4 -> 6 (2 passes)
    early, late = {"a": [0.9, 1.0], "b": [0.0, 0.1], "c": [0.4, 0.5]}, {"a": [1.0, 1.0], "b": [0.3, 0.4], "c": [0.6, 0.7]}
    recs = pool_records([early] * 4 + [late] * 5) + pool_records([{"a": [0.0, 0.0]}])
    for r in recs[-2:]:
        r["step"] = 28
    fl = first_last(recs, period=3)
    assert fl["k"] == 6 and fl["first"]["steps"] == [1, 6] and fl["last"]["steps"] == [22, 27]
    assert fl["first"]["balanced"] and fl["first"]["prompts"] == 3
    assert fl["last"]["reward"] == pytest.approx((1.0 + 0.35 + 0.65) / 3)
    # the rise is small next to how much the prompts differ: only the balanced CIs separate it
    assert fl["reward_rose"]
    plain = first_last([dict(r, prompt_id="p") for r in recs], period=3)
    assert not plain["first"]["balanced"] and not plain["reward_cis_apart"]
    # resampling whole steps (6 per window, each one prompt) keeps the prompts' spread: the cautious
    # check needs more steps than this to separate the same rise
    assert not fl["reward_step_cis_apart"] and fl["first"]["reward_step_ci"][1] - fl["first"]["reward_step_ci"][0] > 0.2
    assert per_pass(recs, 3) == pytest.approx([0.4833] * 4 + [2.0 / 3] * 5, abs=1e-3)


def test_per_step_leaves_out_completions_without_a_verdict():
    rs = records([[0.0, 0.5]]) + [{"step": 1, "reward": None, "hard_fail": False, "gate": "none", "prompt_id": "p"}]
    (row,) = per_step(rs)
    assert row == {"step": 1, "completions": 3, "no_verdict": 1, "reward": 0.25, "gate_pass": 0.5}
    assert rolling([1.0, None, 3.0, 5.0], 2) == [1.0, 1.0, 3.0, 4.0]


def test_steps_with_spread_counts_the_steps_where_some_group_differs():
    from cogevol.train.grpo import _metrics

    history = [{"reward": 0.0, "frac_reward_zero_std": 1.0}, {"reward": 0.2, "frac_reward_zero_std": 0.5},
               {"reward": 0.4, "frac_reward_zero_std": 0.0}, {"loss": 1.0}]  # a row without a step's rewards
    assert _metrics(history, ["html"])["steps_with_spread"] == round(2 / 3, 4)
    assert _metrics([{"reward": 0.0}], ["html"])["steps_with_spread"] is None


def test_screening_keeps_prompts_with_spread_closest_to_half_first():
    # pass counts out of 4: 0 and 4 give a group no advantage, 2 of 4 the most
    passed = [0, 1, 4, 2, 3, 2, 0]
    assert with_spread(passed, 4, keep=2) == [3, 5]        # the two 2-of-4s, in prompt order
    assert with_spread(passed, 4, keep=3) == [1, 3, 5]     # then the first of the 1s and 3s
    assert with_spread(passed, 4, keep=10) == [1, 3, 4, 5]  # never an all-pass or all-fail prompt
    assert with_spread([0, 4, 4], 4, keep=2) == []


def test_windows_report_the_fulfilment_term_of_the_answers_that_have_it():
    recs = [{"step": s, "prompt_id": "p", "reward": 0.5, "hard_fail": False, "fulfilment": f}
            for s, f in [(1, 0.6), (2, 0.4), (3, None), (4, 0.2), (5, 0.1), (6, 0.1), (7, 0.0), (8, 0.0)]]
    fl = first_last(recs, resamples=50)
    assert fl["first"]["fulfilment"] == pytest.approx(0.5) and fl["last"]["fulfilment"] == 0.0
    assert fl["fulfilment_change"] == pytest.approx(-0.5)


def test_summary_resamples_requests_not_answers():
    rows = [{"id": "a", "reward": 1.0, "gate_pass": 1.0, "valid": 1.0}] * 9 + [
        {"id": "b", "reward": 0.0, "gate_pass": 0.0, "valid": 1.0}
    ]
    s = summary(rows)
    assert s["answers"] == 10 and s["requests"] == 2
    assert s["reward"] == 0.5  # each request weighs the same, however many answers it has
    # two requests: the CI spans them both (nine answers of one request are not nine requests)
    assert s["reward_ci"] == [0.0, 1.0] and s["valid_ci"] == [1.0, 1.0]


def test_paired_diff_cancels_how_hard_each_request_is():
    hard = [{"id": f"r{i}", "reward": 0.1 * i} for i in range(10)]
    better = [{"id": f"r{i}", "reward": 0.1 * i + 0.05} for i in range(10)]
    d = paired_diff(better, hard, "reward")
    assert d["requests"] == 10 and d["diff"] == 0.05 and d["above_zero"]
    assert d["ci"][0] == pytest.approx(0.05) and d["ci"][1] == pytest.approx(0.05)
    # unpaired, the two sets' CIs overlap completely
    assert summary(better, ("reward",))["reward_ci"][0] < summary(hard, ("reward",))["reward_ci"][1]
    mixed = [{"id": f"r{i}", "reward": 0.1 * i + (0.05 if i % 2 else -0.05)} for i in range(10)]
    assert not paired_diff(mixed, hard, "reward")["above_zero"]
    with pytest.raises(ValueError, match="no request"):
        paired_diff(hard, [{"id": "other", "reward": 1.0}], "reward")
