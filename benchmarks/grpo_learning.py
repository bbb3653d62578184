"""Does our GRPO learn? The real probe as the reward, on a model that can reach it, against a control.

Pipeline (one process, the library's own functions):
  1. params.yaml with a profile overlay (infra/profiles/cpu-small.yaml: SmolLM2-135M-Instruct);
  2. SFT from model.base on the distilled set (or --sft-model: a checkpoint trained before);
  3. GRPO on every curated HTML prompt from the SFT checkpoint, reward = the executable probe
     with its hard-fail gate, for a wall-clock budget (--minutes; max_steps is only a backstop);
  4. the control: the same run (same checkpoint, prompts, seeds, budget) but the policy is trained
     on the rewards permuted across each step's completions, so it sees the same numbers with the
     link to its own completions broken; its logged rewards stay the completions' true ones;
  5. base, sft, grpo and control answer the HTML eval suite greedily, scored like `evaluate`.
If GRPO learns, the GRPO arm's reward and gate-pass rate rise from its first steps to its last
(bootstrap 95% CIs over the completions of the first and last K = max(2, steps // 4) steps) and
the control's do not, and the GRPO checkpoint beats the control and SFT on the suite.

Writes the JSON (--out), a figure (--figure) and an MLflow run (experiment cogevol-benchmarks),
then prints a markdown summary.

Run (about 2.5 h on 2 cores: SFT ~15-30 min, 45 + 45 min of GRPO, evaluation ~15 min):
  python benchmarks/grpo_learning.py --profile cpu-small --minutes 45 --control-minutes 45
  (--sft-model models/.../sft reuses an SFT checkpoint; --skip-control runs the GRPO arm alone)
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml

from cogevol.config import load_params, merge_profile

ROOT = Path(__file__).resolve().parents[1]
PROFILES = ROOT / "infra" / "profiles"
EXPERIMENT = "cogevol-benchmarks"
ARMS = ("grpo", "control")
RESAMPLES = 2000
log = logging.getLogger("grpo_learning")


# ---------------------------------------------------------------- params


def profile_path(profile: str) -> Path:
    """A profile name (infra/profiles/NAME.yaml) or a path to an overlay YAML, as apply.py reads it."""
    return Path(profile) if profile.endswith((".yaml", ".yml")) else PROFILES / f"{profile}.yaml"


def benchmark_params(params_path: str | Path, profiles: list[str]) -> dict:
    """params.yaml with each overlay merged in turn (a later one wins: a profile, then a tweak)."""
    params = load_params(params_path)
    for profile in profiles:
        params = merge_profile(params, yaml.safe_load(profile_path(profile).read_text(encoding="utf-8")) or {})
    return params


# ---------------------------------------------------------------- statistics (pure: tested)


def bootstrap_ci(values, resamples: int = RESAMPLES, seed: int = 0, level: float = 0.95) -> tuple[float, float] | None:
    """Percentile bootstrap CI of the mean of `values` (None when there are none)."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return None
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, x.size, size=(resamples, x.size))].mean(axis=1)
    tail = 100 * (1 - level) / 2
    lo, hi = np.percentile(means, [tail, 100 - tail])
    return float(lo), float(hi)


def apart(a: tuple[float, float] | None, b: tuple[float, float] | None) -> bool:
    """Two CIs that do not overlap (False when either is missing)."""
    return a is not None and b is not None and (a[1] < b[0] or b[1] < a[0])


def judged(records: list[dict]) -> list[dict]:
    """The completions the probe gave a verdict on (reward None: the harness failed, not the answer)."""
    return [r for r in records if r["reward"] is not None]


def gate_pass(r: dict) -> float:
    return 0.0 if r["hard_fail"] else 1.0


def per_step(records: list[dict]) -> list[dict]:
    """Mean true reward and gate-pass rate of each step's completions."""
    steps: dict[int, list[dict]] = {}
    for r in records:
        steps.setdefault(r["step"], []).append(r)
    out = []
    for step in sorted(steps):
        rs, ok = steps[step], judged(steps[step])
        out.append({"step": step, "completions": len(rs), "no_verdict": len(rs) - len(ok),
                    "reward": float(np.mean([r["reward"] for r in ok])) if ok else None,
                    "gate_pass": float(np.mean([gate_pass(r) for r in ok])) if ok else None})
    return out


def window(records: list[dict], steps: list[int], resamples: int = RESAMPLES, seed: int = 0) -> dict:
    """Mean reward and gate-pass rate over the completions of `steps`, with bootstrap CIs."""
    wanted = set(steps)
    ok = judged([r for r in records if r["step"] in wanted])
    rewards, gates = [r["reward"] for r in ok], [gate_pass(r) for r in ok]
    return {"steps": [min(steps), max(steps)] if steps else [], "completions": len(ok),
            "reward": float(np.mean(rewards)) if ok else None, "reward_ci": bootstrap_ci(rewards, resamples, seed),
            "gate_pass": float(np.mean(gates)) if ok else None, "gate_pass_ci": bootstrap_ci(gates, resamples, seed)}


def first_last(records: list[dict], resamples: int = RESAMPLES, seed: int = 0) -> dict:
    """First K and last K steps (K = max(2, steps // 4)) compared: do their CIs separate?"""
    steps = sorted({r["step"] for r in records})
    k = max(2, len(steps) // 4)
    first = window(records, steps[:k], resamples, seed)
    last = window(records, steps[-k:], resamples, seed)
    out = {"k": k, "first": first, "last": last}
    for key in ("reward", "gate_pass"):
        have = first[key] is not None and last[key] is not None
        out[f"{key}_change"] = last[key] - first[key] if have else None
        out[f"{key}_cis_apart"] = apart(first[f"{key}_ci"], last[f"{key}_ci"])
        out[f"{key}_rose"] = out[f"{key}_cis_apart"] and out[f"{key}_change"] > 0
    return out


def kl_stats(history: list[dict]) -> dict:
    kl = [h["kl"] for h in history if isinstance(h.get("kl"), float)]
    return {"first": kl[0], "last": kl[-1], "mean": float(np.mean(kl)), "max": float(np.max(kl))} if kl else {}


def rolling(values: list[float | None], width: int) -> list[float | None]:
    """Trailing mean over the last `width` values present (None where none is)."""
    out = []
    for i in range(len(values)):
        seen = [v for v in values[max(0, i - width + 1) : i + 1] if v is not None]
        out.append(float(np.mean(seen)) if seen else None)
    return out


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


def run_arm(arm: str, sft_model: Path, dataset, params: dict, minutes: float, work: Path,
            shuffle_seed: int | None) -> dict:
    """One GRPO arm for `minutes` of training; its per-completion records, history and timings."""
    from cogevol.scoring import Scorers
    from cogevol.train.callbacks import TimeBudgetCallback
    from cogevol.train.config import GRPOSettings, from_dict
    from cogevol.train.grpo import run_grpo
    from cogevol.train.stages import configs

    model_cfg, train = configs(params)
    g = from_dict(GRPOSettings, params.get("grpo"))
    budget, records = TimeBudgetCallback(minutes), []
    t0 = time.perf_counter()
    res = run_grpo(str(sft_model), dataset, work / arm, g, train, model_cfg, Scorers.from_params(params, g.reward_workers),
                   callbacks=[budget], shuffle_seed=shuffle_seed, record=records)
    wall = time.perf_counter() - t0
    steps = per_step(records)
    trl = {int(h["step"]): h for h in res.history if "reward" in h}
    for s in steps:
        h = trl.get(s["step"], {})
        s.update(kl=h.get("kl"), trl_reward=h.get("reward"), reward_std=h.get("reward_std"),
                 mean_length=h.get("completions/mean_length"), clipped_ratio=h.get("completions/clipped_ratio"))
    step_s = [t["step_s"] for t in res.steps]
    return {"checkpoint": str(work / arm), "shuffle_seed": shuffle_seed, "minutes": minutes,
            "steps": len(steps), "train_s": round(budget.elapsed_s, 1), "wall_s": round(wall, 1),
            "seconds_per_step": round(float(np.mean(step_s)), 2) if step_s else None,
            "timing": res.timing, "first_last": first_last(records), "kl": kl_stats(res.history),
            "history": steps, "records": records}


def evaluate_systems(systems: dict[str, str], suite: str, limit: int | None, params: dict) -> dict:
    """Greedy answers of each checkpoint on the suite, scored like the evaluate stage."""
    from cogevol.config import from_dict
    from cogevol.evaluate.generate import generate_local, messages
    from cogevol.evaluate.run import run_scoring
    from cogevol.evaluate.stage import EvalConfig
    from cogevol.evaluate.suites import load_suite
    from cogevol.scoring import Scorers

    ev = from_dict(EvalConfig, params.get("evaluate"))
    items = load_suite(suite, limit)
    prompts = [messages(i.kind, i.prompt) for i in items]
    per_system = {}
    for name, path in systems.items():
        log.info("evaluate: %s (%s) on %d items, %d new tokens", name, path, len(items), ev.max_new_tokens)
        per_system[name] = (items, generate_local(path, prompts, ev.max_new_tokens, ev.temperature, ev.batch_size))
    results = run_scoring(per_system, Scorers.from_params(params))
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
    colours = {"grpo": "#3b6ea5", "control": "#c0392b"}
    for arm, res in arms.items():
        h = res["history"]
        x = [s["step"] for s in h]
        width = max(3, len(h) // 10)
        for ax, key in zip(axes[:2], ("reward", "gate_pass")):
            ys = [s[key] for s in h]
            ax.plot(x, [np.nan if v is None else v for v in ys], color=colours[arm], alpha=0.3, lw=1)
            ax.plot(x, [np.nan if v is None else v for v in rolling(ys, width)], color=colours[arm], lw=2,
                    label=f"{arm} (rolling mean of {width})")
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
             "| arm | steps | s/step | reward first K | reward last K | apart | gate first K | gate last K | apart | KL last |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for arm, a in res["arms"].items():
        fl = a["first_last"]
        lines.append(f"| {arm} | {a['steps']} | {a['seconds_per_step']} | {fmt(fl['first']['reward'], fl['first']['reward_ci'])} | "
                     f"{fmt(fl['last']['reward'], fl['last']['reward_ci'])} | {'yes' if fl['reward_cis_apart'] else 'no'} | "
                     f"{fmt(fl['first']['gate_pass'], fl['first']['gate_pass_ci'], True)} | "
                     f"{fmt(fl['last']['gate_pass'], fl['last']['gate_pass_ci'], True)} | {'yes' if fl['gate_pass_cis_apart'] else 'no'} | "
                     f"{fmt(a['kl'].get('last'))} |")
    if res.get("eval"):
        lines += ["", f"Eval suite ({res['eval_items']} items, greedy):", "", "| system | reward | gate pass |", "|---|---|---|"]
        for name, e in res["eval"].items():
            lines.append(f"| {name} | {fmt(e['reward'], e['reward_ci'])} | {fmt(e['gate_pass'], e['gate_pass_ci'], True)} |")
    return "\n".join(lines) + "\n"


def log_mlflow(res: dict, out: Path, fig_path: Path) -> str | None:
    """One run in experiment cogevol-benchmarks: params, per-step curves per arm, summary, artifacts."""
    import mlflow
    from mlflow.entities import Metric

    from cogevol.tracking import flatten

    uri = os.environ.get("MLFLOW_TRACKING_URI") or f"sqlite:///{ROOT}/mlruns/mlflow.db"
    try:
        mlflow.set_tracking_uri(uri)
        client = mlflow.MlflowClient()
        exp = client.get_experiment_by_name(EXPERIMENT)
        if exp is None:  # artifacts next to the database, like cogevol.tracking's experiment
            art = (Path(uri[len("sqlite:///"):]).parent / "artifacts").resolve().as_uri() if uri.startswith("sqlite:///") else None
            exp_id = client.create_experiment(EXPERIMENT, artifact_location=art)
        else:
            exp_id = exp.experiment_id
        with mlflow.start_run(experiment_id=exp_id, run_name=f"grpo_learning-{time.strftime('%Y%m%d-%H%M%S')}") as run:
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
                "grpo": ("learning_rate", "num_generations", "requests_per_step", "max_completion_length", "beta",
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
    ap.add_argument("--max-steps", type=int, default=10_000, help="step backstop; the time budget ends the run")
    ap.add_argument("--shuffle-seed", type=int, default=0, help="seed of the control's reward permutations")
    ap.add_argument("--pool", type=int, default=None, help="train on this many seeded HTML prompts, revisited (default: all)")
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

    from cogevol.logs import setup_logging

    setup_logging()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import torch

    a.profile = a.profile or ["cpu-small"]
    params = benchmark_params(a.params, a.profile)
    work = Path(a.work) if a.work else Path(tempfile.mkdtemp(prefix="grpo_learning-"))
    work.mkdir(parents=True, exist_ok=True)
    threads = torch.get_num_threads()  # the trainers may change it; each phase starts from here
    t_start = time.perf_counter()
    phases = ["sft", *ARMS[: 1 if a.skip_control else 2], *([] if a.skip_eval else ["evaluate"])]
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
    dataset = html_dataset(a.prompts, sft_model, params, a.pool)
    params = merge_profile(params, {"grpo": {"max_steps": a.max_steps, "num_prompts": len(dataset)}})
    res["params"] = {g: {k: params[g].get(k) for k in keys} for g, keys in PARAMS_SHOWN.items()}
    res["html_prompts"] = len(dataset)
    budgets = {"grpo": (a.minutes, None), "control": (a.control_minutes if a.control_minutes is not None else a.minutes, a.shuffle_seed)}
    res["arms"] = {}
    for arm in ARMS[: 1 if a.skip_control else 2]:
        minutes, seed = budgets[arm]
        log.info("phase %d/%d: %s: GRPO on %d HTML prompts for %.1f min%s", next(phase), len(phases), arm, len(dataset),
                 minutes, "" if seed is None else f", rewards shuffled within each step (seed {seed})")
        torch.set_num_threads(threads)
        r = run_arm(arm, sft_model, dataset, params, minutes, work, seed)
        (work / f"{arm}_records.jsonl").write_text("".join(json.dumps(x) + "\n" for x in r["records"]))
        res["arms"][arm] = r
        fl = r["first_last"]
        log.info("%s: %d steps, %.1f s/step; reward %s -> %s, gate pass %s -> %s", arm, r["steps"], r["seconds_per_step"] or 0,
                 fmt(fl["first"]["reward"]), fmt(fl["last"]["reward"]), fmt(fl["first"]["gate_pass"], pct=True),
                 fmt(fl["last"]["gate_pass"], pct=True))

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
    figure(res["arms"], fig_path)
    out.write_text(json.dumps(res, indent=2) + "\n")
    res["mlflow_run"] = log_mlflow(res, out, fig_path)
    out.write_text(json.dumps(res, indent=2) + "\n")
    print(markdown(res))
    print(f"results: {out}\nfigure: {fig_path}\nper-completion records: {work}/*_records.jsonl\nmlflow run: {res['mlflow_run']}")


if __name__ == "__main__":
    main()
