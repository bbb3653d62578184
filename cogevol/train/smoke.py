"""The smoke run: the real SFT and GRPO code for a few steps on a model built here, on whatever
device the machine has (`cogevol smoke`).

Why: the GPU path is the one users rent machines for, and the CPU suite cannot see what breaks on
first contact with CUDA (a dtype, a DeepSpeed engine that was never built, a checkpoint that
does not reload). This runs the same `run_sft` and `run_grpo` the DVC stages call, with DeepSpeed
ZeRO-2 (bf16 on CUDA, fp32 on a CPU), and checks what a first run must show: the device was
used, the DeepSpeed engine trained, every loss is finite, and the checkpoint reloads and
generates. It builds a small Qwen3-architecture model locally (no hub), so it runs where nothing
can be downloaded.

The reward is the executable one (Chromium through Playwright) when both are installed, else a
stand-in written in Python that reads the page's markup; the report says which one ran. Playwright
is imported only for the executable reward, so the smoke run works where only torch,
transformers, accelerate and a wheelhouse (TRL, DeepSpeed, datasets) are installed.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import re
import resource
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import torch
from transformers import TrainerCallback

from cogevol.scoring.base import ScorersBase
from cogevol.scoring.extract import extract_html
from cogevol.scoring.types import Score, ScoreItem
from cogevol.train.config import (
    GRPOSettings,
    ModelConfig,
    SFTSettings,
    TinyModelConfig,
    TrainConfig,
)

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
ZERO2 = ROOT / "infra" / "deepspeed" / "zero2.json"
# on a GPU a model a little larger than the CPU profile's, so that a step measures something
GPU_TINY = TinyModelConfig(
    vocab_size=3072, hidden_size=512, intermediate_size=1536, num_hidden_layers=8,
    num_attention_heads=8, num_key_value_heads=4,
)  # fmt: skip


class StandInScorers(ScorersBase):
    """A reward in plain Python for machines without Chromium: the share of four marks of a
    working page in the answer's markup (one HTML document; a script; a control; the document
    closed). It runs no page, so it proves the training loop, never the reward."""

    MARKS = {
        "script": re.compile(r"<script\b", re.I),
        "control": re.compile(r"<(button|input|select|textarea)\b", re.I),
        "closed": re.compile(r"</html\s*>", re.I),
    }

    async def open(self) -> None:
        return None

    async def aclose(self) -> None:
        return None

    async def _stream(self, items: Sequence[ScoreItem]) -> AsyncIterator[tuple[int, Score]]:
        for i, item in enumerate(items):
            yield i, self.score_text(item.text, item.modality)

    def score_text(self, text: str, modality: str) -> Score:
        page = extract_html(text) if modality == "html" else None
        if not page:
            return Score(modality, 0.0, "fail", "stand-in: no HTML document", hard_fail=True,
                         details={"reason_id": "format.no_document", "stand_in": True})  # fmt: skip
        marks = {k: bool(p.search(page)) for k, p in self.MARKS.items()}
        reward = (1 + sum(marks.values())) / (1 + len(marks))
        missing = [k for k, v in marks.items() if not v]
        reason = "stand-in: " + (f"missing {', '.join(missing)}" if missing else "all marks")
        return Score(modality, round(reward, 4), "pass", reason, rendered_ok=True,
                     details={"reason_id": "ok", "stand_in": True})  # fmt: skip


def executable_reward_available() -> str | None:
    """None when the executable reward can run here, else why not."""
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed"
    from cogevol.browser.pool import find_chromium

    try:
        find_chromium()
    except RuntimeError as e:
        return str(e)
    return None


class EngineWitness(TrainerCallback):
    """Records what the trainer really trained on: accelerate's distributed type (DEEPSPEED when
    the engine was built), the parameters' device and dtype, and every logged loss."""

    def __init__(self) -> None:
        self.seen: dict = {}
        self.losses: list[float] = []

    def on_train_begin(self, args, state, control, model=None, **kwargs):
        from accelerate.state import AcceleratorState

        p = next(model.parameters())
        self.seen = {
            "distributed_type": str(AcceleratorState().distributed_type).split(".")[-1],
            "device": p.device.type,
            "dtype": str(p.dtype).removeprefix("torch."),
        }

    def on_log(self, args, state, control, logs=None, **kwargs):
        if logs and isinstance(logs.get("loss"), int | float):
            self.losses.append(float(logs["loss"]))


@dataclass
class SmokeReport:
    device: str
    reward: str  # executable | stand-in (why)
    stages: dict = field(default_factory=dict)
    reload: dict = field(default_factory=dict)
    peak_memory_gb: float = 0.0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        return {"ok": self.ok, **self.__dict__}


def resolve_device(device: str) -> str:
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("--device cuda, but torch sees no CUDA device")
    return device


def run_smoke(work: str | Path, device: str = "auto", steps: int = 3, reward: str = "auto",
              deepspeed: bool = True) -> SmokeReport:  # fmt: skip
    """Build a model, run SFT then GRPO for `steps` optimizer steps each under `work`, reload the
    GRPO checkpoint and generate; the report lists every check that failed (`problems`).
    `reward`: auto (executable when Chromium and Playwright are here), executable or stand-in."""
    from cogevol.train.data import grpo_prompts
    from cogevol.train.grpo import run_grpo
    from cogevol.train.model_factory import build_tiny, load
    from cogevol.train.sft import run_sft
    from cogevol.train.synthetic import prompt_records, sft_dataset

    t0 = time.perf_counter()
    work = Path(work)
    device = resolve_device(device)
    cuda = device == "cuda"
    why_not = executable_reward_available() if reward != "stand-in" else "asked for"
    if reward == "executable" and why_not:
        raise RuntimeError(f"--reward executable: {why_not}")
    report = SmokeReport(device, "executable" if why_not is None else f"stand-in ({why_not})")
    if cuda:
        torch.cuda.reset_peak_memory_stats()
    model_cfg = ModelConfig(base="tiny", dtype="bfloat16" if cuda else "float32",
                            tiny=GPU_TINY if cuda else TinyModelConfig())  # fmt: skip
    train = TrainConfig(deepspeed=str(ZERO2) if deepspeed else None, bf16=cuda)
    data = sft_dataset(16, seed=0)
    texts = [m["content"] for row in data["messages"] for m in row]
    base = build_tiny(work / "base", model_cfg, texts)

    witness = EngineWitness()
    sft = SFTSettings(epochs=1, max_steps=steps, learning_rate=1e-3, per_device_batch_size=2,
                      max_length=1024, packing=False, warmup_ratio=0.0)  # fmt: skip
    res = run_sft(str(base), data, work / "sft", sft, train, model_cfg, callbacks=[witness])
    report.stages["sft"] = _stage(res.metrics, witness, ("steps", "loss_first", "loss_final",
                                                         "tokens_per_s", "train_s"))  # fmt: skip

    witness = EngineWitness()
    g = GRPOSettings(num_prompts=4, requests_per_step=2, num_generations=4, max_steps=steps,
                     max_completion_length=96, learning_rate=1e-5, temperature=1.0,
                     reward_workers=1, torch_threads=0, log_rollouts=0)  # fmt: skip
    _, tokenizer = load(work / "sft", model_cfg)
    prompts = grpo_prompts(prompt_records(16), ["html"], g.num_prompts, 0, tokenizer,
                           g.max_prompt_length)  # fmt: skip
    scorers = _scorers(why_not is None)
    res = run_grpo(str(work / "sft"), prompts, work / "grpo", g, train, model_cfg, scorers,
                   callbacks=[witness])  # fmt: skip
    report.stages["grpo"] = _stage(res.metrics, witness, ("steps", "reward_mean", "kl_final"))
    tokens = max((h.get("num_tokens", 0) for h in res.history), default=0)
    step_s = sum(res.timing.get(f"{k}_s", 0.0) for k in ("generate", "reward", "update"))
    report.stages["grpo"]["tokens_per_s"] = round(tokens / step_s, 1) if step_s else None
    report.stages["grpo"]["timing"] = res.timing

    report.reload = _reload(work / "grpo", model_cfg, device)
    report.peak_memory_gb = round(
        torch.cuda.max_memory_allocated() / 2**30 if cuda
        else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 3)  # fmt: skip
    report.seconds = round(time.perf_counter() - t0, 1)
    report.problems = _problems(report, deepspeed, steps)
    return report


def _scorers(executable: bool):
    if not executable:
        return StandInScorers()
    from cogevol.scoring.local import Scorers, ScoringSettings

    return Scorers(ScoringSettings(workers=1))


def _stage(metrics: dict, witness: EngineWitness, keys: tuple[str, ...]) -> dict:
    return {**{k: metrics.get(k) for k in keys}, **witness.seen, "losses": witness.losses}


def _reload(path: Path, model_cfg: ModelConfig, device: str) -> dict:
    """Load the checkpoint as a user would and generate a few tokens on `device`."""
    from cogevol.train.model_factory import load

    model, tokenizer = load(path, model_cfg)
    model.to(device).eval()
    text = tokenizer.apply_chat_template(
        [{"role": "user", "content": "Make a page with a counter button."}],
        tokenize=False, add_generation_prompt=True,
    )  # fmt: skip
    ids = tokenizer(text, return_tensors="pt").to(device)
    with torch.no_grad():
        out = model.generate(**ids, max_new_tokens=16, min_new_tokens=4, do_sample=False)
    new = out.shape[1] - ids["input_ids"].shape[1]
    return {"new_tokens": int(new), "device": next(model.parameters()).device.type}


def _problems(r: SmokeReport, deepspeed: bool, steps: int) -> list[str]:
    out = []
    for name, s in r.stages.items():
        if s.get("device") != r.device:
            out.append(f"{name} trained on {s.get('device')}, not {r.device}")
        if deepspeed and s.get("distributed_type") != "DEEPSPEED":
            out.append(f"{name} ran without the DeepSpeed engine ({s.get('distributed_type')})")
        if not s.get("losses") or not all(math.isfinite(v) for v in s["losses"]):
            out.append(f"{name}: losses not all finite: {s.get('losses')}")
        if s.get("steps") != steps:
            out.append(f"{name} made {s.get('steps')} optimizer steps, not {steps}")
    if r.reload.get("new_tokens", 0) < 1:
        out.append("the GRPO checkpoint reloaded but generated nothing")
    return out
