import json

import mlflow
import pytest

from cogevol.tracking import stage_run
from cogevol.train.config import GRPOSettings, TrainConfig
from cogevol.train.data import grpo_prompts
from cogevol.train.grpo import run_grpo
from cogevol.train.rewards import html_reward, slide_reward
from cogevol.train.stages import grpo_stage
from cogevol.train.synthetic import html_page, prompt_records, slide_deck

TINY_GRPO = GRPOSettings(num_prompts=2, requests_per_step=2, num_generations=2, max_steps=2,
                         max_completion_length=16, reward_workers=2, log_rollouts=3)


class Planted:
    """The real reward, but every other completion is replaced by a known-good artifact: a tiny
    untrained policy never writes a page or a deck, and the probe / renderer must run for real."""

    def __init__(self, reward, artifact: str):
        self.reward, self.artifact, self.modalities = reward, artifact, []

    @property
    def last_details(self):
        return self.reward.last_details

    def __call__(self, prompts, completions, **kw):
        self.modalities += kw["modality"]
        planted = [[{"role": "assistant", "content": self.artifact}] if i % 2 == 0 else c for i, c in enumerate(completions)]
        return self.reward(prompts=prompts, completions=planted, **kw)

    def close(self):
        self.reward.close()


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_grpo_html_with_the_real_probe_logs_reward_components(tmp_path, tiny_dir, model_cfg, tracking):
    data = grpo_prompts(prompt_records(12), ["html"], 2, seed=0)
    planted = Planted(html_reward(2), html_page("gravity"))
    with stage_run("grpo_html", {"grpo": {"max_steps": 2}}) as run:
        res = run_grpo(str(tiny_dir), data, tmp_path / "out", TINY_GRPO, TrainConfig(deepspeed=None), model_cfg,
                       {"html": lambda: planted}, run)
    m = res.metrics
    assert m["steps"] == 2 and 0 < m["html"]["hard_fail_rate"] < 1  # planted pages pass the gate
    assert m["html"]["terms/interactivity"] is not None and m["html"]["controls_live"] > 0
    assert len(res.steps) == 2 and all(s["reward_s"] > 0 and s["generate_s"] > 0 for s in res.steps)
    assert res.timing["reward_share"] + res.timing["generate_share"] + res.timing["update_share"] == pytest.approx(1, abs=1e-3)
    assert (tmp_path / "out" / "model.safetensors").exists()

    client = mlflow.MlflowClient()
    metrics = client.get_run(run.run_id).data.metrics
    assert {"html/hard_fail_rate", "html/terms/interactivity", "time/reward_s", "time/generate_s", "kl", "reward"} <= set(metrics)
    history = client.get_metric_history(run.run_id, "html/hard_fail_rate")
    assert sorted(h.step for h in history) == [1, 2]
    table = json.loads(open(mlflow.artifacts.download_artifacts(run_id=run.run_id, artifact_path="rollouts/step_0001.json")).read())
    assert table["columns"][:3] == ["step", "prompt_id", "modality"] and 0 < len(table["data"]) <= 3


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_joint_round_routes_each_sample_to_its_modality_reward(tmp_path, tiny_dir, model_cfg):
    data = grpo_prompts(prompt_records(12), ["slide", "html"], 2, seed=0)
    html = Planted(html_reward(1), html_page("magnets"))
    slide = Planted(slide_reward(1), slide_deck("magnets"))
    g = GRPOSettings(**{**TINY_GRPO.__dict__, "max_steps": 1, "requests_per_step": 4})
    res = run_grpo(str(tiny_dir), data, tmp_path / "out", g, TrainConfig(deepspeed=None), model_cfg,
                   {"html": lambda: html, "slide": lambda: slide})
    assert set(html.modalities) == {"html"} and set(slide.modalities) == {"slide"}
    assert len(html.modalities) + len(slide.modalities) == 4 * 2  # every completion scored exactly once
    m = res.metrics
    assert m["modalities"] == ["html", "slide"]
    assert m["slide"]["valid_rate"] > 0 and m["slide"]["rule_score"] is not None and m["slide"]["rules/text_fit"] is not None
    assert m["html"]["hard_fail_rate"] < 1


def test_joint_schedule_passes_the_joint_checkpoint_through_grpo_html(tmp_path, tiny_dir):
    res = grpo_stage("grpo_html", tiny_dir, "unused.jsonl", tmp_path / "grpo_html", {"train": {"schedule": "joint"}})
    assert res is None and (tmp_path / "grpo_html" / "model.safetensors").exists()
