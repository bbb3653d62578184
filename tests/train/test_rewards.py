import asyncio
import json

from cogevol.scoring.base import ScorersBase
from cogevol.scoring.types import Score
from cogevol.train.monitor import RolloutLog, StepTimer, timed
from cogevol.train.rewards import HTML_SPEC, SLIDE_SPEC, ModalityReward, summarize

DETAILS = {"html": {"reward": 0.25, "hard_fail": False, "rendered_ok": True, "terms": {"interactivity": 0.5}},
           "slide": {"reward": 0.75, "valid": True, "rule_score": 3.0, "rules": {"collisions": 5.0}}}


class Recorder(ScorersBase):
    """Scorers that record what they were asked to score."""

    def __init__(self):
        self.seen = []

    async def score(self, items):
        self.seen.append([(i.modality, i.text, i.request) for i in items])
        return [Score(i.modality, DETAILS[i.modality]["reward"], "pass", "fine", details=dict(DETAILS[i.modality]))
                for i in items]


def test_joint_routing_sends_each_sample_to_its_modality_reward():
    scorers, rollouts, logged = Recorder(), RolloutLog(), {}
    fns = [ModalityReward("html", scorers, HTML_SPEC, rollouts), ModalityReward("slide", scorers, SLIDE_SPEC, rollouts)]
    completions = ["h0", [{"role": "assistant", "content": "s1"}], "h2", "s3"]
    prompts = ["p0", [{"role": "system", "content": "sys"}, {"role": "user", "content": "p1"}], "p2", "p3"]
    kw = {"modality": ["html", "slide", "html", "slide"], "prompt_id": ["a", "b", "c", "d"],
          "log_metric": lambda k, v: logged.__setitem__(k, v), "trainer_state": None}

    async def step():
        return await asyncio.gather(*(f(prompts=prompts, completions=completions, **dict(kw)) for f in fns))

    outs = asyncio.run(step())
    assert outs[0] == [0.25, None, 0.25, None] and outs[1] == [None, 0.75, None, 0.75]
    assert sorted(scorers.seen) == [[("html", "h0", "p0"), ("html", "h2", "p2")], [("slide", "s1", "p1"), ("slide", "s3", "p3")]]
    assert logged["html/terms/interactivity"] == 0.5 and logged["html/hard_fail_rate"] == 0.0
    assert logged["slide/rules/collisions"] == 5.0 and logged["slide/valid_rate"] == 1.0
    assert logged["html/seconds_per_completion"] >= 0
    assert sorted(r["prompt_id"] for r in rollouts.take()) == ["a", "b", "c", "d"]


def test_summaries_count_missing_documents_as_hard_fails():
    details = [{"reward": 0.0, "reason": "no HTML document in the completion"},
               {"reward": 0.8, "hard_fail": False, "rendered_ok": True, "harness_error": False,
                "terms": {"interactivity": 0.0, "viewport_mobile": 0.5}}]
    s = summarize(details, HTML_SPEC)
    assert s["hard_fail_rate"] == 0.5 and s["rendered_ok_rate"] == 0.5 and s["reward"] == 0.4
    assert s["terms/viewport_mobile"] == 0.5
    slide = summarize([{"reward": 0.6, "valid": True, "rule_score": 3.0, "vlm_score": None, "harness_error": "",
                        "rules": {"text_fit": 4.0, "chart_geometry": None}}], SLIDE_SPEC)
    assert "vlm_score" not in slide and slide["rules/text_fit"] == 4.0 and slide["harness_error_rate"] == 0.0
    assert summarize([], HTML_SPEC) == {}


def test_summaries_give_every_reason_family_its_share_each_step():
    ids = ["format.truncated", "format.no_document", "gate.dead_controls", "ok"]
    s = summarize([{"reward": 0.0, "reason_id": i} for i in ids], HTML_SPEC)
    assert (s["reason/format_rate"], s["reason/gate_rate"], s["reason/ok_rate"]) == (0.5, 0.25, 0.25)
    assert s["reason/substance_rate"] == 0.0 and s["reason/harness_rate"] == 0.0  # every family, every step


def test_step_timer_splits_a_step_into_three_parts():
    t = StepTimer()
    t.add("generate", 1.0)
    t.add("reward", 2.0)
    assert t.close_step(4.0) == {"generate": 1.0, "reward": 2.0, "update": 1.0}
    assert t.generate == t.reward == 0.0 and t.shares()["reward"] == 0.5


def test_the_prompts_stored_checklist_reaches_the_scorer():
    """grpo_prompts carries the filter stage's checklist as a column; the reward hands it to the scorers."""
    from cogevol.train.data import grpo_prompts

    stored = {"version": 1, "source": "llm", "language": "en", "checks": [{"check": "mentions", "value": "planets"}]}
    ds = grpo_prompts([{"id": "a", "category": "html", "prompt": "A solar system", "checklist": stored},
                       {"id": "b", "category": "html", "prompt": "A snake game"}], ["html"], 2, seed=0)
    column = dict(zip(ds["prompt_id"], ds["checklist"]))
    assert json.loads(column["a"]) == stored and column["b"] == ""

    class Seen(Recorder):
        async def score(self, items):
            self.items = items
            return await super().score(items)

    scorers = Seen()
    asyncio.run(ModalityReward("html", scorers, HTML_SPEC)(prompts=["p0", "p1"], completions=["c0", "c1"],
                                                           modality=["html", "html"], checklist=[column["a"], ""]))
    assert [i.checklist for i in scorers.items] == [column["a"], ""]


class JudgeDown(ScorersBase):
    """Scorers whose first `failed` completions of a call lost their judge verdict."""

    def __init__(self, failed: int):
        self.failed = failed

    async def score(self, items):
        return [Score("html", 0.5, "pass", "", details={"reward": 0.5, "judge_error": "judge failed: HTTP 503"
                                                          if k < self.failed else ""})
                for k, _ in enumerate(items)]


def test_a_step_whose_judge_failed_too_often_stops_with_the_reason():
    import pytest

    from cogevol.train.rewards import TooManyJudgeFailures

    def call(failed):
        fn = ModalityReward("html", JudgeDown(failed), HTML_SPEC, max_judge_failure_rate=0.25)
        logged = {}
        out = asyncio.run(fn(prompts=["p"] * 8, completions=["c"] * 8,
                             log_metric=lambda k, v: logged.__setitem__(k, v)))
        return out, logged

    out, logged = call(2)  # 2/8 = the threshold: the step goes on, and the rate is logged
    assert out == [0.5] * 8 and logged["html/judge_error_rate"] == 0.25
    with pytest.raises(TooManyJudgeFailures, match=r"3/8 completions .* grpo.max_judge_failure_rate 0.25.*HTTP 503"):
        call(3)


def test_overlapping_reward_calls_count_the_time_they_cover_once():
    """Async reward functions are awaited together: two calls in flight at once are one stretch
    of reward time, not two."""
    t = StepTimer()
    t.enter("reward", 0.0), t.enter("reward", 1.0), t.leave("reward", 2.0), t.leave("reward", 3.0)
    assert t.reward == 3.0
    t.enter("reward", 5.0), t.leave("reward", 6.0)
    assert t.reward == 4.0

    async def call():
        with timed(t, "generate"):
            await asyncio.sleep(0.2)

    async def both():
        await asyncio.gather(call(), call())

    asyncio.run(both())
    assert 0.18 < t.generate < 0.35
