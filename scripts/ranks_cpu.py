"""sft and grpo_html with several ranks on a CPU, through the same $COGEVOL_LAUNCH path a GPU
node uses (torchrun or the deepspeed launcher, gloo), on synthetic inputs in a scratch directory.

    python scripts/ranks_cpu.py [--ranks 2] [--launcher torchrun|deepspeed] [--workdir DIR] [--keep]

The two launchers name the node's rank count differently (LOCAL_WORLD_SIZE, LOCAL_SIZE): under
either, the node's grpo.reward_workers (2 here) are shared by its ranks, one each.

What it shows (and tests/train/test_ranks_cpu.py asserts): every rank scores its own rollouts,
the metrics are gathered across ranks, and rank 0 alone writes the checkpoint, the DVC metrics
and plot files and the MLflow run. DeepSpeed stays off: accelerate sets up a multi-process
DeepSpeed world on accelerators only, so a CPU world of several ranks is plain DDP (gloo); the
GPU profile's ZeRO path is the one-rank embedded default's code with more ranks.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogevol.core.config import merge_profile  # noqa: E402
from cogevol.train.synthetic import prompt_records, sft_dataset  # noqa: E402

# small enough for 2 cores: a few SFT steps, 2 GRPO steps of 2 requests x 4 completions
OVERLAY = {
    "train": {"deepspeed": None, "torch_threads": 1},
    "sft": {"max_steps": 6, "epochs": 1, "max_length": 1024},
    "grpo": {"num_prompts": 4, "requests_per_step": 2, "num_generations": 4, "max_steps": 2,
             "max_completion_length": 64, "reward_workers": 2, "per_device_batch_size": None},
}


def launch(ranks: int, launcher: str = "torchrun") -> str:
    """The COGEVOL_LAUNCH prefix: torchrun exports LOCAL_WORLD_SIZE, the deepspeed launcher
    LOCAL_SIZE (the GPU profile's launcher; cogevol.train.distributed reads both)."""
    if ranks == 1:
        return ""
    if launcher == "deepspeed":
        return f"deepspeed --num_gpus {ranks} --no_python --no_local_rank"
    return f"torchrun --nproc_per_node {ranks} --no-python"


def run_stage(work: Path, prefix: str, script: str, args: list[str], env: dict) -> float:
    cmd = f"{prefix} {sys.executable} {ROOT / 'stages' / script} " + " ".join(args)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, shell=True, cwd=work, env=env, capture_output=True, text=True)
    (work / f"{script}.log").write_text(out.stdout + out.stderr)
    if out.returncode:
        raise SystemExit(f"{script} under {prefix or 'one process'} failed ({out.returncode}):\n{out.stderr[-3000:]}")
    return time.perf_counter() - t0


def prepare(work: Path) -> dict:
    params = merge_profile(yaml.safe_load((ROOT / "params.yaml").read_text()), OVERLAY)
    (work / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    sft_dataset(16, seed=0).save_to_disk(str(work / "data/sft/train"))
    (work / "data/curated/prompts").mkdir(parents=True)
    with (work / "data/curated/prompts/prompts.jsonl").open("w") as f:
        for r in prompt_records(16):
            f.write(json.dumps(r) + "\n")
    for d in ("infra", "stages"):  # the stages read infra/ paths and import their neighbours
        (work / d).symlink_to(ROOT / d)
    return params


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--launcher", choices=("torchrun", "deepspeed"), default="torchrun")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    work = Path(a.workdir or tempfile.mkdtemp(prefix="cogevol-ranks-"))
    work.mkdir(parents=True, exist_ok=True)
    prepare(work)
    env = dict(os.environ, COGEVOL_PARAMS=str(work / "params.yaml"), COGEVOL_LAUNCH=launch(a.ranks, a.launcher),
               MLFLOW_TRACKING_URI=f"sqlite:///{work / 'mlflow.db'}", PYTHONPATH=str(ROOT),
               OMP_NUM_THREADS="1",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    prefix = launch(a.ranks, a.launcher)
    times = {
        "sft": run_stage(work, prefix, "sft.py", [
            "--input data/sft/train data/curated/prompts/prompts.jsonl", "--out models/sft",
            "--metrics metrics/sft.json", "--plot metrics/sft_loss.csv"], env),
        "grpo_html": run_stage(work, prefix, "grpo_html.py", [
            "--input models/sft data/curated/prompts/prompts.jsonl", "--out models/grpo_html",
            "--metrics metrics/grpo_html.json", "--plot metrics/grpo_html_reward.csv"], env),
    }
    report = {"ranks": a.ranks, "launcher": a.launcher, "workdir": str(work), "seconds": {k: round(v, 1) for k, v in times.items()},
              "sft": json.loads((work / "metrics/sft.json").read_text()),
              "grpo_html": json.loads((work / "metrics/grpo_html.json").read_text())}
    print(json.dumps(report, indent=1))
    if not a.keep and not a.workdir:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
