"""scripts/build_wheelhouse.py packs what the smoke run needs beyond torch, transformers, peft
and accelerate: TRL, DeepSpeed, datasets and their requirements the target lacks."""

import json
import subprocess
import sys

from tests.conftest import REPO


def dry_run(*present):
    args = [sys.executable, "scripts/build_wheelhouse.py", "--dry-run"]
    args += [x for p in present for x in ("--present", p)]
    out = subprocess.run(args, cwd=REPO, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_it_packs_trl_deepspeed_datasets_and_leaves_out_what_the_target_has():
    pkgs = dry_run()
    assert {"trl", "deepspeed", "datasets", "pyarrow"} <= set(pkgs)
    assert not {"torch", "transformers", "accelerate", "peft", "numpy", "huggingface-hub"} & set(pkgs)
    lean = dry_run("pyarrow", "pandas")
    assert "pyarrow" not in lean and "pandas" not in lean and "trl" in lean
    assert "python-dateutil" not in lean  # pandas' own requirement goes with it
