"""Two ranks on a CPU through $COGEVOL_LAUNCH (torchrun, gloo): scripts/ranks_cpu.py."""

import hashlib
import json
import re
import sqlite3
import subprocess
import sys

import pytest

from tests.conftest import REPO


def run(ranks, work, launcher="torchrun"):
    out = subprocess.run([sys.executable, "scripts/ranks_cpu.py", "--ranks", str(ranks), "--workdir", str(work),
                          "--launcher", launcher], cwd=REPO, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]
    return json.loads(out.stdout[out.stdout.index("{"):])


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(1800)
def test_sft_and_grpo_html_on_two_ranks_write_once_and_score_on_every_rank(tmp_path):
    one, two = run(1, tmp_path / "one"), run(2, tmp_path / "two")
    w = tmp_path / "two"
    scored = re.findall(r"html reward: rank (\d) scored (\d+) completion", (w / "grpo_html.py.log").read_text())
    assert {r for r, _ in scored} == {"0", "1"}  # each rank scores its own rollouts
    # 2 steps x 2 requests x 4 completions, split over the ranks
    assert sum(int(n) for _, n in scored) == 16
    runs = sqlite3.connect(w / "mlflow.db").execute("select name from runs").fetchall()
    assert sorted(n for (n,) in runs if not n.startswith("pipeline")) == ["grpo_html", "sft"]  # rank 0 only
    assert sorted(p.name for p in w.glob("models/*")) == ["grpo_html", "sft"]
    assert sorted(p.name for p in (w / "metrics").iterdir()) == ["grpo_html.json", "grpo_html_reward.csv",
                                                                "sft.json", "sft_loss.csv"]
    # what does not depend on the world size is the same as on one rank: the tiny base (built
    # on every rank, kept by rank 0), the GRPO steps and their size
    assert sha(w / "models/sft/base/model.safetensors") == sha(tmp_path / "one/models/sft/base/model.safetensors")
    assert two["grpo_html"]["steps"] == one["grpo_html"]["steps"] == 2
    assert two["grpo_html"]["modalities"] == one["grpo_html"]["modalities"] == ["html"]
    assert two["sft"]["loss_final"] < two["sft"]["loss_first"]
    assert workers(tmp_path / "one") == {"0": 2} and workers(w) == {"0": 1, "1": 1}


def workers(work):
    """rank -> the reward workers it opened (grpo.reward_workers 2 per node)."""
    log = (work / "grpo_html.py.log").read_text()
    return {r: int(n) for r, n in re.findall(r"rank (\d) opens (\d+) reward worker", log)}


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(1800)
def test_under_the_deepspeed_launcher_the_ranks_share_the_nodes_reward_workers(tmp_path):
    """The GPU profile launches with `deepspeed`, which exports LOCAL_SIZE, not torchrun's
    LOCAL_WORLD_SIZE: read wrongly, every rank would open all of the node's workers."""
    two = run(2, tmp_path, "deepspeed")
    assert workers(tmp_path) == {"0": 1, "1": 1}
    scored = re.findall(r"html reward: rank (\d) scored (\d+) completion", (tmp_path / "grpo_html.py.log").read_text())
    assert {r for r, _ in scored} == {"0", "1"} and sum(int(n) for _, n in scored) == 16
    assert two["grpo_html"]["steps"] == 2 and two["launcher"] == "deepspeed"
