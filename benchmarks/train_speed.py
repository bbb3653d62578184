"""Training speed on the embedded profile: sft -> grpo_slide -> grpo_html, end to end.

Each stage runs as its own process exactly as `dvc repro` runs it (stages/*.py with the committed
params.yaml, DeepSpeed included), on a generated SFT set shaped like the distill output
(cogevol.train.synthetic, 40 conversations: distill.max_prompts) and the curated prompts
(data/curated/prompts/prompts.jsonl, or generated ones when the filter stage has not run).
Measured per stage: wall time, peak RSS of the stage's process tree (Chromium included; pages
shared between processes are counted once per process, so an upper bound), and for GRPO the
generate / reward / update split read back from the stage's MLflow run.

Targets (issue 6): all three stages together <= 8 min on 2 cores and <= 6 GB peak; SFT loss down.
Run: python benchmarks/train_speed.py [--conversations 40] [--sft data/sft/train] [--params params.yaml]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

from cogevol.pipeline.tracking import EXPERIMENT
from cogevol.train.synthetic import prompt_records, sft_dataset

ROOT = Path(__file__).resolve().parents[1]

STAGES = ("sft", "grpo_slide", "grpo_html")
SFT_TIMING = ("train_s", "tokens_per_s")  # training loop only (the stage wall adds imports, tokenizer, saving)
GRPO_TIMING = ("generate_s", "reward_s", "update_s", "step_mean_s", "generate_share", "reward_share", "update_share")


def tree_rss(proc: psutil.Process) -> int:
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


def run_stage(cmd: list[str], env: dict, log_path: Path) -> dict:
    """Run one stage process; sample its process tree's RSS every 0.1 s."""
    peak = 0
    t0 = time.perf_counter()
    with open(log_path, "w") as log:
        p = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        ps = psutil.Process(p.pid)
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                try:
                    peak = max(peak, tree_rss(ps))
                except psutil.Error:
                    pass
                time.sleep(0.1)

        th = threading.Thread(target=sample, daemon=True)
        th.start()
        rc = p.wait()
        done.set()
        th.join()
    wall = time.perf_counter() - t0
    if rc != 0:
        raise RuntimeError(f"{cmd[1]} failed (rc {rc}); log: {log_path}\n" + log_path.read_text()[-3000:])
    return {"wall_s": round(wall, 1), "peak_rss_gb": round(peak / 2**30, 2)}


def mlflow_timing(uri: str, stage: str, keys: tuple[str, ...]) -> dict:
    import mlflow

    mlflow.set_tracking_uri(uri)
    c = mlflow.MlflowClient()
    exp = c.get_experiment_by_name(EXPERIMENT)
    runs = c.search_runs([exp.experiment_id], filter_string=f"tags.`cogevol.stage` = '{stage}'", max_results=1,
                         order_by=["attributes.start_time DESC"])
    m = runs[0].data.metrics if runs else {}
    return {k: round(m[k], 3) for k in keys if k in m}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--conversations", type=int, default=40, help="SFT conversations (distill.max_prompts)")
    ap.add_argument("--params", default=str(ROOT / "params.yaml"))
    ap.add_argument("--sft", default=None, help="an SFT dataset directory (distill output) instead of a generated one")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "train_speed.json"))
    ap.add_argument("--keep", action="store_true", help="keep the work directory (models, logs, MLflow store)")
    a = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="train_speed-"))
    sft_dir = Path(a.sft) if a.sft else work / "sft" / "train"
    if not a.sft:
        sft_dataset(a.conversations, seed=0).save_to_disk(str(sft_dir))
    prompts = ROOT / "data" / "curated" / "prompts" / "prompts.jsonl"
    if not prompts.exists():
        prompts = work / "prompts.jsonl"
        prompts.write_text("".join(json.dumps(r) + "\n" for r in prompt_records(200)))
    uri = f"sqlite:///{work}/mlflow.db"
    import mlflow

    mlflow.set_tracking_uri(uri)  # artifacts in the workdir, not the repository's mlruns/
    mlflow.MlflowClient().create_experiment(EXPERIMENT, artifact_location=(work / "artifacts").as_uri())
    drop = {"COGEVOL_PIPELINE_RUN_ID", "RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"}
    env = {k: v for k, v in os.environ.items() if k not in drop}  # each stage makes its own one-process world
    env.update(COGEVOL_PARAMS=a.params, MLFLOW_TRACKING_URI=uri, TOKENIZERS_PARALLELISM="false")
    models, metrics = work / "models", work / "metrics"
    inputs = {"sft": [str(sft_dir), str(prompts)],
              "grpo_slide": [str(models / "sft"), str(prompts)],
              "grpo_html": [str(models / "grpo_slide"), str(prompts)]}
    res: dict = {"machine": f"{os.cpu_count()} cores, {round(psutil.virtual_memory().total / 2**30)} GiB",
                 "sft_data": a.sft or f"generated, {a.conversations} conversations", "prompts": str(prompts.relative_to(ROOT) if prompts.is_relative_to(ROOT) else "generated"),
                 "stages": {}}
    for stage in STAGES:
        cmd = [sys.executable, f"stages/{stage}.py", "--input", *inputs[stage], "--out", str(models / stage),
               "--metrics", str(metrics / f"{stage}.json"), "--plot", str(metrics / f"{stage}.csv")]
        row = run_stage(cmd, env, work / f"{stage}.log")
        row["metrics"] = json.loads((metrics / f"{stage}.json").read_text())
        row["timing"] = mlflow_timing(uri, stage, SFT_TIMING if stage == "sft" else GRPO_TIMING)
        res["stages"][stage] = row
        print(stage, json.dumps(row), flush=True)
    total = sum(s["wall_s"] for s in res["stages"].values())
    peak = max(s["peak_rss_gb"] for s in res["stages"].values())
    sft = res["stages"]["sft"]["metrics"]
    res["total_wall_s"] = round(total, 1)
    res["peak_rss_gb"] = peak
    res["meets_8_min"] = total <= 480
    res["meets_6_gb"] = peak <= 6
    res["sft_loss_decreased"] = sft["loss_final"] < sft["loss_first"]
    Path(a.out).write_text(json.dumps(res, indent=2) + "\n")
    if a.keep:
        print(f"work directory: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps({k: v for k, v in res.items() if k != "stages"}, indent=2))


if __name__ == "__main__":
    main()
