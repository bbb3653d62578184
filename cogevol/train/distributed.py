"""DeepSpeed everywhere: under a launcher on GPUs, and as a one-process world on a laptop CPU.

DeepSpeed always initialises torch.distributed. Under `deepspeed` / `accelerate launch` /
`torchrun` the launcher exports RANK, WORLD_SIZE and the rendezvous address. Run as a plain
`python stages/sft.py` (what `dvc repro` does) none is set, and DeepSpeed falls back to MPI
discovery, which fails without mpi4py. Exporting a one-process world (rank 0 of 1, a free local
port) before the Trainer starts is all it takes: DeepSpeed then picks its CPU accelerator and
the gloo backend, and ZeRO-2/3 run unchanged (a single rank "shards" onto itself, which costs
little and keeps the embedded profile on the same code path as a multi-node run).
"""

from __future__ import annotations

import json
import logging
import os
import socket
from pathlib import Path

import torch

from cogevol.train.config import TrainConfig

log = logging.getLogger(__name__)

LAUNCHER_VARS = ("RANK", "WORLD_SIZE")
ONE_PROCESS_WORLD = "COGEVOL_ONE_PROCESS_WORLD"  # the MASTER_PORT single_process_world exported


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launched() -> bool:
    """True under a distributed launcher (it exported the rank and the world size)."""
    return all(v in os.environ for v in LAUNCHER_VARS)


def single_process_world() -> None:
    """Export a one-process world unless a launcher already did (see module docstring). A
    process that trains twice (the smoke run: SFT, then GRPO) takes a fresh port for the second
    world when the first one's process group is gone: its port may have been taken since."""
    # ours: the port we exported is still the one set (a launcher started later sets its own)
    ours = os.environ.get(ONE_PROCESS_WORLD) == os.environ.get("MASTER_PORT", "-")
    if launched() and not ours:
        return
    if ours and torch.distributed.is_available() and torch.distributed.is_initialized():
        return  # an earlier trainer's world is still up: DeepSpeed reuses it
    _skip_shm_allreduce()
    port = str(free_port())
    os.environ.update(
        RANK="0",
        LOCAL_RANK="0",
        WORLD_SIZE="1",
        LOCAL_WORLD_SIZE="1",
        MASTER_ADDR="127.0.0.1",
        MASTER_PORT=port,
        **{ONE_PROCESS_WORLD: port},
    )
    log.info("deepspeed: one-process world on 127.0.0.1:%s", os.environ["MASTER_PORT"])


def _skip_shm_allreduce() -> None:
    """On CPU, DeepSpeed JIT-compiles a shared-memory all-reduce (C++) when it initialises its
    communication backend: it needs a compiler and ~20 s the first time, and fails the stage
    without one. A one-process world never all-reduces across processes, so mark the op as
    unavailable (DeepSpeed then uses torch.distributed, as it does on any platform without it)."""
    if torch.cuda.is_available():
        return
    import deepspeed.ops

    deepspeed.ops.__compatible_ops__["deepspeed_shm_comm"] = False


def world_size() -> int:
    return int(os.environ.get("WORLD_SIZE", "1"))


def local_world_size() -> int:
    """Ranks on this node: torchrun exports LOCAL_WORLD_SIZE, the deepspeed launcher LOCAL_SIZE."""
    return int(os.environ.get("LOCAL_WORLD_SIZE") or os.environ.get("LOCAL_SIZE") or "1")


def is_main_process() -> bool:
    """Rank 0 (or no launcher): the one process that writes metrics, plots and MLflow runs."""
    return int(os.environ.get("RANK", "0")) == 0


def quiet_other_ranks() -> bool:
    """Under a multi-process launcher, switch MLflow off on every rank but 0 (one run per stage).
    Returns whether this is the main process."""
    main = is_main_process()
    if not main:
        os.environ["COGEVOL_TRACKING"] = "0"
    return main


def deepspeed_config(path: str | Path | None) -> dict | None:
    """The ZeRO config as a dict (HF fills its "auto" values from the trainer arguments)."""
    if not path:
        return None
    try:
        import deepspeed  # noqa: F401
    except ImportError as e:
        raise ImportError(
            f"train.deepspeed is {path} but deepspeed is not installed: "
            "`DS_BUILD_OPS=0 pip install deepspeed` (CPU and GPU alike), "
            "or set train.deepspeed: null to train with plain torch"
        ) from e
    return json.loads(Path(path).read_text(encoding="utf-8"))


def trainer_kwargs(train: TrainConfig) -> dict:
    """TrainingArguments shared by SFT and GRPO: DeepSpeed, precision, seed, threads."""
    if train.torch_threads > 0:
        torch.set_num_threads(train.torch_threads)
    ds = deepspeed_config(train.deepspeed)
    if ds is not None:
        single_process_world()
    return {
        "deepspeed": ds,
        "bf16": train.use_bf16(),
        "fp16": False,
        # transformers 5 name of gradient checkpointing
        "activation_checkpointing": train.gradient_checkpointing,
        "seed": train.seed,
        "data_seed": train.seed,
        # we log to MLflow ourselves (cogevol.train.callbacks), into the stage run
        "report_to": "none",
        "dataloader_pin_memory": torch.cuda.is_available(),
        "save_only_model": True,  # checkpoints are for evaluation and the next stage, not resuming
    }
