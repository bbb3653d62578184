from cogevol.train.monitor import RolloutLog, StepTimer
from cogevol.train.rewards import HTML_SPEC, SLIDE_SPEC, ModalityReward, summarize


class Recorder:
    """A reward that records what it was asked to score."""

    def __init__(self, value, details):
        self.value, self.details, self.seen = value, details, []
        self.last_details = []

    def __call__(self, prompts, completions, **kw):
        self.seen.append((list(completions), kw))
        self.last_details = [dict(self.details) for _ in completions]
        return [self.value] * len(completions)


def test_joint_routing_sends_each_sample_to_its_modality_reward():
    html = Recorder(0.25, {"reward": 0.25, "hard_fail": False, "rendered_ok": True, "terms": {"interactivity": 0.5}})
    slide = Recorder(0.75, {"reward": 0.75, "valid": True, "rule_score": 3.0, "rules": {"collisions": 5.0}})
    timer, rollouts, logged = StepTimer(), RolloutLog(), {}
    fns = [ModalityReward("html", html, HTML_SPEC, timer, rollouts), ModalityReward("slide", slide, SLIDE_SPEC, timer, rollouts)]
    completions = ["h0", "s1", "h2", "s3"]
    kw = {"modality": ["html", "slide", "html", "slide"], "prompt_id": ["a", "b", "c", "d"],
          "log_metric": lambda k, v: logged.__setitem__(k, v), "trainer_state": None}
    outs = [f(prompts=["p"] * 4, completions=completions, **dict(kw)) for f in fns]
    assert outs[0] == [0.25, None, 0.25, None] and outs[1] == [None, 0.75, None, 0.75]
    assert html.seen[0][0] == ["h0", "h2"] and slide.seen[0][0] == ["s1", "s3"]
    assert html.seen[0][1]["prompt_id"] == ["a", "c"] and slide.seen[0][1]["modality"] == ["slide", "slide"]
    assert logged["html/terms/interactivity"] == 0.5 and logged["html/hard_fail_rate"] == 0.0
    assert logged["slide/rules/collisions"] == 5.0 and logged["slide/valid_rate"] == 1.0
    assert timer.reward > 0 and [r["prompt_id"] for r in rollouts.take()] == ["a", "c", "b", "d"]


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


def test_step_timer_splits_a_step_into_three_parts():
    t = StepTimer()
    t.add("generate", 1.0)
    t.add("reward", 2.0)
    assert t.close_step(4.0) == {"generate": 1.0, "reward": 2.0, "update": 1.0}
    assert t.generate == t.reward == 0.0 and t.shares()["reward"] == 0.5
