"""Does our GRPO learn? The real probe as the reward, on a model that can reach it, against a control.

Pipeline (one process, the library's own functions):
  1. params.yaml with a profile overlay (infra/profiles/cpu-small.yaml: SmolLM2-135M-Instruct);
  2. SFT from model.base on the distilled set (or --sft-model: a checkpoint trained before);
  3. GRPO on every curated HTML prompt from the SFT checkpoint (or a revisited --pool of them,
     optionally --screen'ed down to prompts the SFT checkpoint sometimes passes), reward = the
     executable probe with its hard-fail gate, for a wall-clock budget (--minutes; max_steps is
     only a backstop);
  4. the control: the same run (same checkpoint, prompts, seeds, budget) but the policy is trained
     on the rewards permuted across each step's completions, so it sees the same numbers with the
     link to its own completions broken; its logged rewards stay the completions' true ones;
     the ATC arm: the same run with Action-Trace Credit (grpo.atc, cogevol/train/atc.py): the
     probe traces what live controls ran and those tokens' advantages are raised;
  5. with a --pool: sft, grpo and control each sample fresh answers to the pool's prompts;
  6. base, sft, grpo and control answer the HTML eval suite greedily, scored like `evaluate`.
If GRPO learns, the GRPO arm's reward and gate-pass rate rise from its first steps to its last
(bootstrap 95% CIs of the first and last K = max(2, steps // 4) steps; on a pool, whole passes
with prompt-balanced means, see `first_last`) and the control's do not; on a pool the GRPO
checkpoint's fresh answers beat sft's and the control's; the suite says whether that carries
over to requests it never trained on.

Writes the JSON (--out), a figure (--figure) and an MLflow run (experiment cogevol-benchmarks),
then prints a markdown summary.

Run (about 2.5 h on 2 cores: SFT ~15-30 min, 45 + 45 min of GRPO, evaluation ~15 min):
  python benchmarks/grpo_learning.py --profile cpu-small --minutes 45 --control-minutes 45
  (--sft-model models/.../sft reuses an SFT checkpoint; --skip-control runs the GRPO arm alone;
  --parallel runs the two arms side by side, one process each)
The run where the tiny student learns (docs/benchmarks.md; about 2 h on 2 cores):
  python benchmarks/grpo_learning.py --profile benchmarks/grpo_learning_tiny_pool.yaml --sft-model models/sft \
      --screen 24 --pool 6 --parallel --max-steps 180 --minutes 150 --pool-samples 16
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import platform
import tempfile
import time
from pathlib import Path

import numpy as np

from cogevol.core.config import load_params, merge_profile, profile_overlays, profile_path
from cogevol_samples.learning import (
    balanced_mean,
    bootstrap_ci,
    first_last,
    judged,
    kl_stats,
    per_pass,
    per_step,
    rolling,
    steps_to,
    with_spread,
)

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENT = "cogevol-benchmarks"
ARMS = ("grpo", "control", "atc")
log = logging.getLogger("grpo_learning")


# ---------------------------------------------------------------- params


def benchmark_params(params_path: str | Path, profiles: list[str]) -> dict:
    """params.yaml with each overlay merged in turn (a later one wins: a profile, then a tweak)."""
    params = load_params(params_path)
    for profile in profiles:
        for overlay in profile_overlays(profile):  # a profile that `extends` another: its parent first
            params = merge_profile(params, overlay)
    return params


# ---------------------------------------------------------------- phases


def run_sft(a: argparse.Namespace, params: dict, work: Path) -> tuple[Path, dict]:
    from cogevol.train.stages import sft_stage

    out = work / "sft"
    res = sft_stage(a.sft, a.prompts, out, params)
    return out, res.metrics


def html_dataset(prompts_path: str | Path, sft_model: Path, params: dict, pool: int | None = None):
    """`pool` seeded picks of the curated HTML prompts, or all of them (None). A small pool is
    revisited every few steps, so the first and the last steps ask the same requests and their
    rewards compare like with like; with all of them a step's reward mostly says which prompts
    it drew (each is seen about once)."""
    from transformers import AutoTokenizer

    from cogevol.train.config import GRPOSettings, TrainConfig, from_dict
    from cogevol.train.data import grpo_prompts, read_prompts

    records = read_prompts(prompts_path)
    n_html = sum(r.get("category") == "html" for r in records)
    g, train = from_dict(GRPOSettings, params.get("grpo")), from_dict(TrainConfig, params.get("train"))
    tok = AutoTokenizer.from_pretrained(str(sft_model))
    return grpo_prompts(records, ["html"], pool or n_html, train.seed, tok, g.max_prompt_length)


def sample_and_score(model: str | Path, rows: list[dict], samples: int, params: dict, seed: int) -> list[list]:
    """`samples` answers of `model` to each row's prompt at the rollout temperature and length,
    scored by the probe as GRPO's reward scores them: one list of Scores per row."""
    import asyncio

    from cogevol.evaluate.generate import generate_local
    from cogevol.scoring import ScoreItem, open_scorers
    from cogevol.train.config import GRPOSettings, from_dict

    g = from_dict(GRPOSettings, params.get("grpo"))
    conversations = [r["prompt"] for r in rows for _ in range(samples)]
    checklists = [r.get("checklist") or "" for r in rows for _ in range(samples)]  # as GRPO scores them
    log.info("sample: %s: %d prompts x %d answers at temperature %s, %d tokens", model, len(rows), samples,
             g.temperature, g.max_completion_length)
    answers = generate_local(str(model), conversations, g.max_completion_length, g.temperature, batch_size=8, seed=seed)
    items = [ScoreItem("html", a, c[-1]["content"], checklist=k) for a, c, k in zip(answers, conversations, checklists)]

    async def score():
        scorers = open_scorers(params, g.reward_workers)
        try:
            return await scorers.score(items)
        finally:
            await scorers.aclose()

    scores = asyncio.run(score())
    return [scores[i * samples : (i + 1) * samples] for i in range(len(rows))]


def screen_prompts(dataset, sft_model: Path, params: dict, samples: int, keep: int) -> tuple[object, dict]:
    """The `keep` candidate prompts on which the SFT checkpoint sometimes passes the gate and
    sometimes not, judged from `samples` answers each at the rollout temperature and length.

    GRPO learns only from groups whose rewards differ; a prompt the student always fails or
    always passes gives zero advantage whatever the update. The screening sample is thrown away,
    so the first training steps measure the pool afresh (no regression to the mean from picking
    prompts on the same draws that are then compared), and the control trains on the same pool."""
    from cogevol.train.config import TrainConfig, from_dict

    rows = list(dataset)
    seed = from_dict(TrainConfig, params.get("train")).seed + 1
    report = []
    for r, mine in zip(rows, sample_and_score(sft_model, rows, samples, params, seed)):
        report.append({"prompt_id": r["prompt_id"], "passed": sum(not s.hard_fail for s in mine), "samples": samples,
                       "reward": float(np.mean([s.reward for s in mine if s.reward is not None] or [0.0]))})
    chosen = with_spread([s["passed"] for s in report], samples, keep)
    if len(chosen) < keep:
        log.warning("screen: only %d of %d candidates have spread (wanted %d)", len(chosen), len(rows), keep)
    if not chosen:
        raise SystemExit("screen: no candidate prompt has both passing and failing answers; raise --screen")
    log.info("screen: kept %d prompts (pass counts %s of %d)", len(chosen), [report[k]["passed"] for k in chosen], samples)
    return dataset.select(chosen), {"candidates": report, "kept": [report[k]["prompt_id"] for k in chosen],
                                    "samples": samples}


def evaluate_pool(systems: dict[str, str], dataset, params: dict, samples: int, seed: int) -> dict:
    """Fresh answers of each checkpoint to the training pool itself, sampled as in training
    (same temperature and length, the same seed for every system), scored by the probe.

    The windows of a run compare a policy with itself while it changes; this compares the
    checkpoints that went in and came out, on the same prompts and draws, after training."""
    rows = list(dataset)
    table = {}
    for name, path in systems.items():
        per_row = sample_and_score(path, rows, samples, params, seed)
        flat = [(r["prompt_id"], s) for r, mine in zip(rows, per_row) for s in mine if s.reward is not None]
        rewards, gates = [s.reward for _, s in flat], [0.0 if s.hard_fail else 1.0 for _, s in flat]
        strata = [p for p, _ in flat]
        table[name] = {"checkpoint": path, "answers": len(flat), "no_verdict": len(rows) * samples - len(flat),
                       "reward": balanced_mean(rewards, strata), "reward_ci": bootstrap_ci(rewards, strata=strata),
                       "gate_pass": balanced_mean(gates, strata), "gate_pass_ci": bootstrap_ci(gates, strata=strata),
                       "per_prompt": {r["prompt_id"]: float(np.mean([s.reward for s in mine if s.reward is not None] or [0.0]))
                                      for r, mine in zip(rows, per_row)}}
        log.info("pool eval: %s: reward %s, gate pass %s", name, fmt(table[name]["reward"], table[name]["reward_ci"]),
                 fmt(table[name]["gate_pass"], table[name]["gate_pass_ci"], True))
    return table


def arm_progress(arm: str, records: list[dict]):
    """A trainer callback that logs each step's true mean reward and gate-pass rate under the
    arm's name, so two arms side by side in one log can be told apart while they run."""
    from transformers import TrainerCallback

    class ArmProgress(TrainerCallback):
        def on_step_end(self, args, state, control, **kwargs):
            mine = judged([r for r in records if r["step"] == state.global_step])
            if mine:
                log.info("%s: step %d: reward %.3f, gate pass %d/%d", arm, state.global_step,
                         np.mean([r["reward"] for r in mine]), sum(not r["hard_fail"] for r in mine), len(mine))

    return ArmProgress()


def run_arm(arm: str, sft_model: Path, dataset, params: dict, minutes: float, work: Path,
            shuffle_seed: int | None) -> dict:
    """One GRPO arm for `minutes` of training; its per-completion records, history and timings."""
    from cogevol.scoring import open_scorers
    from cogevol.train.callbacks import TimeBudgetCallback
    from cogevol.train.config import GRPOSettings, from_dict
    from cogevol.train.grpo import run_grpo
    from cogevol.train.grpo_stage import with_trace
    from cogevol.train.stages import configs

    if arm == "atc":
        params = merge_profile(params, {"grpo": {"atc": {"enabled": True}}})
    model_cfg, train = configs(params)
    g = from_dict(GRPOSettings, params.get("grpo"))
    budget, records = TimeBudgetCallback(minutes), []
    period = max(1, len(dataset) // g.requests_per_step)  # steps per pass over the prompts
    t0 = time.perf_counter()
    scorers = open_scorers(with_trace(params) if g.atc.enabled else params, g.reward_workers)
    res = run_grpo(str(sft_model), dataset, work / arm, g, train, model_cfg, scorers,
                   callbacks=[budget, arm_progress(arm, records)], shuffle_seed=shuffle_seed, record=records)
    wall = time.perf_counter() - t0
    steps = per_step(records)
    trl = {int(h["step"]): h for h in res.history if "reward" in h}
    for s in steps:
        h = trl.get(s["step"], {})
        s.update(kl=h.get("kl"), trl_reward=h.get("reward"), reward_std=h.get("reward_std"),
                 mean_length=h.get("completions/mean_length"), clipped_ratio=h.get("completions/clipped_ratio"),
                 **{k.replace("/", "_"): h[k] for k in ATC_KEYS if k in h})
    step_s = [t["step_s"] for t in res.steps]
    return {"checkpoint": str(work / arm), "shuffle_seed": shuffle_seed, "minutes": minutes,
            "steps": len(steps), "train_s": round(budget.elapsed_s, 1), "wall_s": round(wall, 1),
            "seconds_per_step": round(float(np.mean(step_s)), 2) if step_s else None,
            "timing": res.timing, "first_last": first_last(records, period=period), "kl": kl_stats(res.history),
            "period": period, "per_pass": per_pass(records, period) if period > 1 else None,
            "history": steps, "records": records}


ATC_KEYS = ("atc/traced_share", "atc/mean_depth", "atc/depth0_share", "atc/aligned", "atc/fallback",
            "atc/fallback_drift", "atc/fallback_tokens", "atc/fallback_no_page", "atc/fallback_no_trace")


def atc_summary(steps: list[dict]) -> dict:
    """Means over the ATC arm's steps of what it could credit (cogevol.train.atc.AtcStats)."""
    out = {}
    for k in ATC_KEYS:
        vals = [s[k.replace("/", "_")] for s in steps if s.get(k.replace("/", "_")) is not None]
        out[k.split("/")[1]] = round(float(np.mean(vals)), 4) if vals else None
    return out


def speed(arms: dict, threshold: float | None) -> dict:
    """Steps each arm takes for its trailing mean reward (over K steps, plain GRPO's first/last
    window) to reach `threshold` (default: what plain GRPO's last K steps reach), and ATC's
    speed-up over plain GRPO in those steps (seed 001 reports 1.84x)."""
    ref = arms.get("grpo") or next(iter(arms.values()))
    width = ref["first_last"]["k"]
    if threshold is None:
        threshold = ref["first_last"]["last"]["reward"]
    out: dict = {"threshold": threshold, "width": width, "steps_to": {}}
    if threshold is None:
        return out
    for arm, r in arms.items():
        out["steps_to"][arm] = steps_to([s["reward"] for s in r["history"]], threshold, width)
    plain, atc = out["steps_to"].get("grpo"), out["steps_to"].get("atc")
    out["atc_speedup"] = round(plain / atc, 2) if plain and atc else None
    return out


def run_arm_in_process(threads: int, *args) -> dict:
    """run_arm in a fresh (spawned) process: its own logging and torch threads, so two arms can
    share a machine side by side, with the same prompts, seeds and budget."""
    import torch

    from cogevol.core.logs import setup_logging

    setup_logging()
    torch.set_num_threads(threads)
    # a one-process world the parent exported (its SFT) is inherited: each arm makes its own,
    # on its own port (cogevol.train.distributed.single_process_world)
    for var in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        os.environ.pop(var, None)
    return run_arm(*args)


def evaluate_systems(systems: dict[str, str], suite: str, limit: int | None, params: dict) -> dict:
    """Greedy answers of each checkpoint on the suite, scored like the evaluate stage."""
    from cogevol.core.config import from_dict
    from cogevol.evaluate.generate import generate_local, messages
    from cogevol.evaluate.run import run_scoring
    from cogevol.evaluate.stage import EvalConfig
    from cogevol.evaluate.suites import load_suite
    from cogevol.scoring import open_scorers

    ev = from_dict(EvalConfig, params.get("evaluate"))
    items = load_suite(suite, limit)
    prompts = [messages(i.kind, i.prompt) for i in items]
    per_system = {}
    for name, path in systems.items():
        log.info("evaluate: %s (%s) on %d items, %d new tokens", name, path, len(items), ev.max_new_tokens)
        per_system[name] = (items, generate_local(path, prompts, ev.max_new_tokens, ev.temperature, ev.batch_size))
    results = run_scoring(per_system, open_scorers(params))
    table = {}
    for name in systems:
        rs = [r for r in results if r.system == name]
        rewards, gates = [r.reward for r in rs], [0.0 if r.hard_fail else 1.0 for r in rs]
        table[name] = {"checkpoint": systems[name], "items": len(rs),
                       "reward": float(np.mean(rewards)), "reward_ci": bootstrap_ci(rewards),
                       "gate_pass": float(np.mean(gates)), "gate_pass_ci": bootstrap_ci(gates)}
    return table


def base_checkpoint(model_params: dict, sft_model: Path, work: Path) -> str:
    """What evaluate calls "@base": the tiny build or the unpacked packaged model that SFT left
    next to its checkpoint (sft/base), else the packaged model unpacked here, else model.base."""
    from cogevol.evaluate.stage import resolve_path
    from cogevol.train.packaged import PACKAGED

    if (sft_model / "base" / "config.json").exists():
        return str(sft_model / "base")
    base = model_params.get("base", "tiny")
    if base in PACKAGED:
        return resolve_path(f"@{base}", model_params, cache_dir=str(work / "models"))
    if base == "tiny":
        raise FileNotFoundError(f"{sft_model}/base: no tiny base build next to the SFT checkpoint")
    return base


# ---------------------------------------------------------------- report


def figure(arms: dict, path: Path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    colours = {"grpo": "#3b6ea5", "control": "#c0392b", "atc": "#27ae60"}
    for arm, res in arms.items():
        h = res["history"]
        x = [s["step"] for s in h]
        width = max(3, len(h) // 10)
        for ax, key in zip(axes[:2], ("reward", "gate_pass")):
            ys = [s[key] for s in h]
            ax.plot(x, [np.nan if v is None else v for v in ys], color=colours[arm], alpha=0.3, lw=1)
            ax.plot(x, [np.nan if v is None else v for v in rolling(ys, width)], color=colours[arm], lw=2,
                    label=f"{arm} (rolling mean of {width})")
        if res.get("per_pass"):  # prompt-balanced mean of each whole pass over the pool, at the pass's last step
            period = res["period"]
            axes[0].plot([period * (i + 1) for i in range(len(res["per_pass"]))], res["per_pass"], "o", ms=3,
                         color=colours[arm], label=f"{arm}: each pass over the pool")
        axes[2].plot(x, [np.nan if s["kl"] is None else s["kl"] for s in h], color=colours[arm], lw=1.5, label=arm)
    for ax in axes[:2]:
        ax.set_ylim(-0.02, 1.02)  # both are shares of 0..1: a flat line at 0 reads as 0, not as noise
    for ax, title in zip(axes, ("probe reward per step (true rewards)", "gate pass rate per step", "KL to the SFT checkpoint")):
        ax.set_title(title)
        ax.set_xlabel("step")
        if ax.lines:
            ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def fmt(v, ci=None, pct: bool = False) -> str:
    if v is None:
        return "-"
    scale = 100 if pct else 1
    s = f"{scale * v:.1f}%" if pct else f"{v:.3f}"
    if ci is not None:
        s += f" [{scale * ci[0]:.1f}, {scale * ci[1]:.1f}]" if pct else f" [{ci[0]:.3f}, {ci[1]:.3f}]"
    return s


def markdown(res: dict) -> str:
    lines = ["## GRPO learning (probe reward)", "",
             f"{res['machine']}; torch threads {res['torch_threads']}; profile {res['profile']}", "",
             "| arm | steps | s/step | reward first K | reward last K | apart | apart, steps resampled | gate first K | gate last K | apart | KL last |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for arm, a in res["arms"].items():
        fl = a["first_last"]
        lines.append(f"| {arm} | {a['steps']} | {a['seconds_per_step']} | {fmt(fl['first']['reward'], fl['first']['reward_ci'])} | "
                     f"{fmt(fl['last']['reward'], fl['last']['reward_ci'])} | {'yes' if fl['reward_cis_apart'] else 'no'} | "
                     f"{'yes' if fl.get('reward_step_cis_apart') else 'no'} | "
                     f"{fmt(fl['first']['gate_pass'], fl['first']['gate_pass_ci'], True)} | "
                     f"{fmt(fl['last']['gate_pass'], fl['last']['gate_pass_ci'], True)} | {'yes' if fl['gate_pass_cis_apart'] else 'no'} | "
                     f"{fmt(a['kl'].get('last'))} |")
    lines += ["", "Fulfilment term (share of the request's checklist missed, answers past the gate; lower is better), first K -> last K:", ""]
    lines += [f"- {arm}: {fmt(a['first_last']['first'].get('fulfilment'))} -> {fmt(a['first_last']['last'].get('fulfilment'))}"
              for arm, a in res["arms"].items()]
    sp = res.get("speed") or {}
    if sp.get("steps_to"):
        lines += ["", f"Steps for the trailing mean reward over {sp['width']} steps to reach {fmt(sp['threshold'])} "
                  "(never: -):", ""]
        lines += [f"- {arm}: {n if n is not None else '-'}" for arm, n in sp["steps_to"].items()]
        if sp.get("atc_speedup"):
            lines.append(f"- ATC speed-up over plain GRPO: {sp['atc_speedup']}x")
    if res["arms"].get("atc", {}).get("atc"):
        t = res["arms"]["atc"]["atc"]
        lines += ["", f"ATC per step (means): traced token share {fmt(t['traced_share'])}, mean depth {fmt(t['mean_depth'])}, "
                  f"share at depth 0 {fmt(t['depth0_share'])}, completions aligned {fmt(t['aligned'])}, "
                  f"on plain GRPO (unproven alignment) {fmt(t['fallback'])}"]
    passes = {arm: a["per_pass"] for arm, a in res["arms"].items() if a.get("per_pass")}
    if passes:
        lines += ["", "Prompt-balanced mean reward of each pass over the pool:", ""]
        lines += [f"- {arm}: " + " ".join(f"{v:.2f}" for v in vs) for arm, vs in passes.items()]
    if res.get("pool_eval"):
        n = next(iter(res["pool_eval"].values()))["answers"]
        lines += ["", f"The training pool after training ({n} sampled answers per system, prompt-balanced):", "",
                  "| system | reward | gate pass |", "|---|---|---|"]
        for name, e in res["pool_eval"].items():
            lines.append(f"| {name} | {fmt(e['reward'], e['reward_ci'])} | {fmt(e['gate_pass'], e['gate_pass_ci'], True)} |")
    if res.get("eval"):
        lines += ["", f"Eval suite ({res['eval_items']} items, greedy):", "", "| system | reward | gate pass |", "|---|---|---|"]
        for name, e in res["eval"].items():
            lines.append(f"| {name} | {fmt(e['reward'], e['reward_ci'])} | {fmt(e['gate_pass'], e['gate_pass_ci'], True)} |")
    return "\n".join(lines) + "\n"


def experiment_id(client, uri: str) -> str:
    """The cogevol-benchmarks experiment, made on first use with its artifacts next to the
    database (as cogevol.pipeline.tracking places the pipeline's)."""
    exp = client.get_experiment_by_name(EXPERIMENT)
    if exp is not None:
        return exp.experiment_id
    art = (Path(uri[len("sqlite:///"):]).parent / "artifacts").resolve().as_uri() if uri.startswith("sqlite:///") else None
    return client.create_experiment(EXPERIMENT, artifact_location=art)


@contextlib.contextmanager
def benchmark_run(name: str):
    """(client, run): a new MLflow run `name-<time>` in the cogevol-benchmarks experiment, on
    $MLFLOW_TRACKING_URI or the repository's sqlite store."""
    import mlflow

    uri = os.environ.get("MLFLOW_TRACKING_URI") or f"sqlite:///{ROOT}/mlruns/mlflow.db"
    mlflow.set_tracking_uri(uri)
    client = mlflow.MlflowClient()
    run_name = f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    with mlflow.start_run(experiment_id=experiment_id(client, uri), run_name=run_name) as run:
        yield client, run


def log_mlflow(res: dict, out: Path, fig_path: Path) -> str | None:
    """One run in experiment cogevol-benchmarks: params, per-step curves per arm, summary, artifacts."""
    import mlflow
    from mlflow.entities import Metric

    from cogevol.pipeline.tracking import flatten

    try:
        with benchmark_run("grpo_learning") as (client, run):
            mlflow.log_params({k: str(v)[:500] for k, v in flatten(res["params"]).items()})
            ts = int(time.time() * 1000)
            metrics = []
            for arm, a in res["arms"].items():
                for s in a["history"]:
                    for name, key in (("reward", "reward"), ("gate_pass", "gate_pass"), ("kl", "kl")):
                        if s.get(key) is not None:
                            metrics.append(Metric(f"{name}/{arm}", float(s[key]), ts, int(s["step"])))
                fl = a["first_last"]
                summary = {f"{arm}.steps": a["steps"], f"{arm}.seconds_per_step": a["seconds_per_step"],
                           f"{arm}.reward_first": fl["first"]["reward"], f"{arm}.reward_last": fl["last"]["reward"],
                           f"{arm}.gate_pass_first": fl["first"]["gate_pass"], f"{arm}.gate_pass_last": fl["last"]["gate_pass"],
                           f"{arm}.kl_last": a["kl"].get("last")}
                metrics += [Metric(k, float(v), ts, 0) for k, v in summary.items() if v is not None]
            for name, e in (res.get("pool_eval") or {}).items():
                metrics += [Metric(f"pool.{name}.reward", e["reward"], ts, 0), Metric(f"pool.{name}.gate_pass", e["gate_pass"], ts, 0)]
            for name, e in (res.get("eval") or {}).items():
                metrics += [Metric(f"eval.{name}.reward", e["reward"], ts, 0), Metric(f"eval.{name}.gate_pass", e["gate_pass"], ts, 0)]
            for i in range(0, len(metrics), 900):  # MLflow takes at most 1000 metrics per batch
                client.log_batch(run.info.run_id, metrics=metrics[i : i + 900])
            mlflow.log_artifact(str(out))
            if fig_path.exists():
                mlflow.log_artifact(str(fig_path))
            return run.info.run_id
    except Exception as e:  # the JSON and the figure are the results; tracking is a view of them
        log.warning("mlflow: could not log the benchmark run: %s", e)
        return None


# ---------------------------------------------------------------- main


def machine() -> str:
    import psutil

    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines() if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores ({cpu}), {round(psutil.virtual_memory().total / 2**30)} GiB"


PARAMS_SHOWN = {"model": ("base", "dtype"), "train": ("deepspeed", "seed", "torch_threads"),
                "sft": ("learning_rate", "epochs", "max_steps", "max_length"),
                "grpo": ("learning_rate", "lr_scheduler_type", "num_generations", "requests_per_step", "max_completion_length", "beta",
                         "temperature", "loss_type", "scale_rewards", "epsilon", "max_prompt_length", "reward_workers",
                         "torch_threads", "max_steps", "num_prompts"),
                "evaluate": ("max_new_tokens", "temperature")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", action="append", help="infra/profiles/NAME.yaml or a path to an overlay YAML; "
                    "repeat to stack overlays in order (default: cpu-small)")
    ap.add_argument("--params", default=str(ROOT / "params.yaml"))
    ap.add_argument("--minutes", type=float, default=45.0, help="GRPO training budget (wall clock)")
    ap.add_argument("--control-minutes", type=float, default=None, help="the control's budget (default: --minutes)")
    ap.add_argument("--skip-control", action="store_true")
    ap.add_argument("--arms", default=",".join(ARMS), help=f"which arms to run, comma-separated (of {', '.join(ARMS)})")
    ap.add_argument("--threshold", type=float, default=None,
                    help="reward for the steps-to-threshold comparison (default: what plain GRPO's last K steps reach)")
    ap.add_argument("--parallel", action="store_true",
                    help="run the two arms side by side in two processes (each gets half the torch threads)")
    ap.add_argument("--max-steps", type=int, default=10_000, help="step backstop; the time budget ends the run")
    ap.add_argument("--shuffle-seed", type=int, default=0, help="seed of the control's reward permutations")
    ap.add_argument("--pool", type=int, default=None, help="train on this many seeded HTML prompts, revisited (default: all)")
    ap.add_argument("--screen", type=int, default=None, metavar="M",
                    help="draw M candidate prompts and keep as the --pool the ones the SFT checkpoint sometimes passes")
    ap.add_argument("--screen-samples", type=int, default=4, help="answers per candidate when screening")
    ap.add_argument("--pool-samples", type=int, default=8,
                    help="after training, answers per --pool prompt that sft and each arm give at the rollout "
                         "temperature, scored (0: skip)")
    ap.add_argument("--sft", default=str(ROOT / "data" / "sft" / "train"), help="the distilled SFT dataset")
    ap.add_argument("--sft-model", default=None, help="reuse this SFT checkpoint instead of training one")
    ap.add_argument("--prompts", default=str(ROOT / "data" / "curated" / "prompts" / "prompts.jsonl"))
    ap.add_argument("--suite", default=str(ROOT / "data" / "eval" / "html_suite.jsonl"))
    ap.add_argument("--eval-items", type=int, default=None, help="cap on suite items (default: all)")
    ap.add_argument("--skip-eval", action="store_true")
    ap.add_argument("--work", default=None, help="checkpoints and logs (default: a new temporary directory)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "grpo_learning.json"))
    ap.add_argument("--figure", default=str(ROOT / "docs" / "benchmarks" / "grpo_learning.png"))
    a = ap.parse_args()

    from cogevol.core.logs import setup_logging

    setup_logging()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import torch

    a.profile = a.profile or ["cpu-small"]
    params = benchmark_params(a.params, a.profile)
    work = Path(a.work) if a.work else Path(tempfile.mkdtemp(prefix="grpo_learning-"))
    work.mkdir(parents=True, exist_ok=True)
    threads = torch.get_num_threads()  # the trainers may change it; each phase starts from here
    t_start = time.perf_counter()
    pool_eval = bool(a.pool and a.pool_samples)
    arms = [x for x in a.arms.split(",") if x in ARMS and not (a.skip_control and x == "control")]
    phases = ["sft", *arms, *(["pool eval"] if pool_eval else []),
              *([] if a.skip_eval else ["evaluate"])]
    phase = iter(range(1, len(phases) + 1))
    res: dict = {"machine": machine(), "torch_threads": threads, "profile": " + ".join(str(profile_path(p)) for p in a.profile),
                 "sft_data": a.sft, "prompts": a.prompts, "work": str(work)}

    if a.sft_model:
        sft_model = Path(a.sft_model)
        log.info("phase %d/%d: sft: reusing %s", next(phase), len(phases), sft_model)
        res["sft"] = {"checkpoint": str(sft_model), "reused": True}
    else:
        log.info("phase %d/%d: sft: %s on %s", next(phase), len(phases), params["model"]["base"], a.sft)
        t0 = time.perf_counter()
        sft_model, metrics = run_sft(a, params, work)
        res["sft"] = {"checkpoint": str(sft_model), "wall_s": round(time.perf_counter() - t0, 1), "metrics": metrics}
        log.info("sft: done in %.1f min (loss %s -> %s)", res["sft"]["wall_s"] / 60, metrics.get("loss_first"), metrics.get("loss_final"))

    torch.set_num_threads(threads)
    if a.screen:
        if not a.pool:
            raise SystemExit("--screen picks the --pool: give both")
        dataset, res["screen"] = screen_prompts(html_dataset(a.prompts, sft_model, params, a.screen), sft_model, params,
                                                a.screen_samples, a.pool)
    else:
        dataset = html_dataset(a.prompts, sft_model, params, a.pool)
    params = merge_profile(params, {"grpo": {"max_steps": a.max_steps, "num_prompts": len(dataset)}})
    res["params"] = {g: {k: params[g].get(k) for k in keys} for g, keys in PARAMS_SHOWN.items()}
    res["html_prompts"] = len(dataset)
    budgets = {"grpo": (a.minutes, None), "atc": (a.minutes, None),
               "control": (a.control_minutes if a.control_minutes is not None else a.minutes, a.shuffle_seed)}
    for arm in arms:
        minutes, seed = budgets[arm]
        log.info("phase %d/%d: %s: GRPO on %d HTML prompts for %.1f min%s%s", next(phase), len(phases), arm, len(dataset),
                 minutes, "" if seed is None else f", rewards shuffled within each step (seed {seed})",
                 " (arms side by side)" if a.parallel else "")
    if a.parallel and len(arms) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        arm_threads = max(1, threads // len(arms))
        with ProcessPoolExecutor(len(arms), mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = {arm: pool.submit(run_arm_in_process, arm_threads, arm, sft_model, dataset, params, budgets[arm][0],
                                        work, budgets[arm][1]) for arm in arms}
            results = {arm: f.result() for arm, f in futures.items()}
    else:
        results = {}
        for arm in arms:
            torch.set_num_threads(threads)
            results[arm] = run_arm(arm, sft_model, dataset, params, budgets[arm][0], work, budgets[arm][1])
    res["arms"] = {}
    for arm, r in results.items():
        (work / f"{arm}_records.jsonl").write_text("".join(json.dumps(x) + "\n" for x in r["records"]))
        res["arms"][arm] = r
        fl = r["first_last"]
        log.info("%s: %d steps, %.1f s/step; reward %s -> %s, gate pass %s -> %s", arm, r["steps"], r["seconds_per_step"] or 0,
                 fmt(fl["first"]["reward"]), fmt(fl["last"]["reward"]), fmt(fl["first"]["gate_pass"], pct=True),
                 fmt(fl["last"]["gate_pass"], pct=True))

    res["speed"] = speed(res["arms"], a.threshold)
    if "atc" in res["arms"]:
        res["arms"]["atc"]["atc"] = atc_summary(res["arms"]["atc"]["history"])

    if pool_eval:
        from cogevol.train.config import TrainConfig, from_dict

        systems = {"sft": str(sft_model), **{arm: r["checkpoint"] for arm, r in res["arms"].items()}}
        log.info("phase %d/%d: pool eval: %s, %d answers to each of the %d pool prompts", next(phase), len(phases),
                 ", ".join(systems), a.pool_samples, len(dataset))
        torch.set_num_threads(threads)
        t0 = time.perf_counter()
        seed = from_dict(TrainConfig, params.get("train")).seed + 2  # not the screening's draws (seed + 1)
        res["pool_eval"] = evaluate_pool(systems, dataset, params, a.pool_samples, seed)
        res["pool_eval_s"] = round(time.perf_counter() - t0, 1)

    if not a.skip_eval:
        systems = {"base": base_checkpoint(params["model"], sft_model, work), "sft": str(sft_model),
                   **{arm: r["checkpoint"] for arm, r in res["arms"].items()}}
        log.info("phase %d/%d: evaluate: %s on %s", next(phase), len(phases), ", ".join(systems), a.suite)
        torch.set_num_threads(threads)
        t0 = time.perf_counter()
        res["eval"] = evaluate_systems(systems, a.suite, a.eval_items, params)
        res["eval_items"] = next(iter(res["eval"].values()))["items"]
        res["eval_s"] = round(time.perf_counter() - t0, 1)
    res["total_s"] = round(time.perf_counter() - t_start, 1)

    out, fig_path = Path(a.out), Path(a.figure)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2) + "\n")  # first: a figure that fails loses nothing
    figure(res["arms"], fig_path)
    res["mlflow_run"] = log_mlflow(res, out, fig_path)
    out.write_text(json.dumps(res, indent=2) + "\n")
    print(markdown(res))
    print(f"results: {out}\nfigure: {fig_path}\nper-completion records: {work}/*_records.jsonl\nmlflow run: {res['mlflow_run']}")


if __name__ == "__main__":
    main()
