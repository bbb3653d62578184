"""`cogevol smoke`: the real SFT and GRPO code for a few steps, here on the CPU, so that the
command a lent GPU runs first cannot rot (cogevol/train/smoke.py)."""

import json
import subprocess
import sys

import pytest

from cogevol.train.smoke import SmokeReport, StandInScorers, _problems
from tests.conftest import REPO

PAGE = "<!DOCTYPE html><html><body><button id=b>+1</button><script>b.onclick=()=>0</script></body></html>"


def test_the_stand_in_reward_reads_the_markup_and_says_it_is_a_stand_in():
    s = StandInScorers()
    page, prose = s.score_text(f"Here:\n```html\n{PAGE}\n```", "html"), s.score_text("I cannot.", "html")
    assert page.reward == 1.0 and page.reason == "stand-in: all marks" and page.details["stand_in"]
    assert prose.reward == 0.0 and prose.hard_fail and prose.details["reason_id"] == "format.no_document"
    dead = s.score_text("<html><body><p>hi</p>", "html")
    assert 0 < dead.reward < 0.5 and "missing script, control, closed" in dead.reason


def test_a_run_that_missed_the_engine_the_device_or_its_steps_is_reported():
    r = SmokeReport("cuda", "stand-in (asked for)", reload={"new_tokens": 0})
    r.stages = {"sft": {"device": "cpu", "distributed_type": "NO", "losses": [1.0, float("nan")], "steps": 2}}
    problems = _problems(r, deepspeed=True, steps=3)
    assert any("trained on cpu, not cuda" in p for p in problems)
    assert any("without the DeepSpeed engine (NO)" in p for p in problems)
    assert any("not all finite" in p for p in problems) and any("2 optimizer steps, not 3" in p for p in problems)
    assert any("generated nothing" in p for p in problems)
    r.problems = problems
    assert not r.ok and r.to_json()["ok"] is False


@pytest.mark.timeout(600)
def test_the_smoke_command_trains_with_deepspeed_on_the_cpu_and_reloads(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "cogevol.cli", "smoke", "--device", "cpu", "--steps", "2",
         "--reward", "stand-in", "--work", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True, timeout=580,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    r = json.loads(out.stdout[out.stdout.index("{\n \"ok\""):])
    assert r["ok"] and r["problems"] == [] and r["device"] == "cpu"
    assert r["reward"] == "stand-in (asked for)"
    for stage in ("sft", "grpo"):
        s = r["stages"][stage]
        assert s["distributed_type"] == "DEEPSPEED" and s["device"] == "cpu" and s["steps"] == 2
        assert s["losses"] and s["dtype"] == "float32"
    assert r["reload"]["new_tokens"] >= 1 and r["peak_memory_gb"] > 0
    assert (tmp_path / "grpo" / "config.json").exists()
