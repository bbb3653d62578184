import json
import subprocess
import sys

import pytest

from cogevol.core.config import load_profile
from cogevol.preflight.environment import Hardware
from cogevol.preflight.plan import PreflightError, check_stage, guard, plan
from tests.conftest import REPO

GPU = load_profile("gpu", REPO / "params.yaml")
EMBEDDED = load_profile(None, REPO / "params.yaml")


def declared(gpus, nodes=1, mem=80.0):
    return Hardware(gpus, nodes, mem, "declared", declared=True)


def knobs(p):
    return [q.knob for q in p.problems]


@pytest.mark.parametrize("nodes,ranks,acc", [(1, 7, 10), (2, 14, 5)])
def test_the_gpu_profile_plans_one_and_two_nodes_of_8x80(nodes, ranks, acc, monkeypatch):
    monkeypatch.chdir(REPO)
    p = plan(GPU, declared(8, nodes))
    assert p.ok, p.render()
    g = p.grpo
    assert p.ranks == ranks and g["gradient_accumulation_steps"] == acc
    assert g["per_device_batch_size"] * ranks * acc == g["requests_per_step"] * g["num_generations"]
    servers = p.placement["servers"]
    assert servers["judge"]["gpus"] == [7] and servers["teacher"]["gpus"] == [0, 1]
    assert all(7 not in gpus for gpus in p.placement["training"].values())  # the judge's GPU
    assert p.memory["grpo rank"]["total_gib"] < 80 and p.memory["teacher server"]["full_length_sequences"] >= 1


def test_seven_gpus_and_one_small_gpu_are_refused_with_knobs(monkeypatch):
    monkeypatch.chdir(REPO)
    assert knobs(plan(GPU, declared(7))) == ["grpo.requests_per_step"]
    small = knobs(plan(GPU, declared(1, mem=24)))
    assert {"cluster.judge_gpus", "train.deepspeed"} <= set(small)
    # the teacher alone on one 80 GB GPU holds no full 32k sequence: tensor parallel is needed
    one = dict(GPU, cluster=dict(GPU["cluster"], teacher_gpus=1))
    assert "cluster.teacher_gpus" in knobs(plan(one, declared(8)))


def test_the_embedded_profile_plans_one_cpu_process():
    p = plan(EMBEDDED, Hardware(0, 1, 0.0, "cpu"), check_env=True)
    assert p.ok and p.ranks == 1 and p.grpo["gradient_accumulation_steps"] == 1 and not p.memory


def test_cli_prints_one_json_object_and_exit_codes_without_tracebacks():
    def run(*args):
        return subprocess.run([sys.executable, "-m", "cogevol.cli", "preflight", *args], cwd=REPO,
                              capture_output=True, text=True, timeout=120)

    ok = run("--profile", "gpu", "--gpus", "8", "--json")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    d = json.loads(ok.stdout)
    assert {"ok", "ranks", "grpo", "placement", "memory", "problems"} <= set(d) and d["ok"]
    assert set(d["grpo"]) >= {"requests_per_step", "num_generations", "per_device_batch_size",
                              "gradient_accumulation_steps"}
    for args in (("--gpus", "7"), ("--gpus", "1", "--gpu-memory-gb", "24")):
        bad = run("--profile", "gpu", *args, "--json")
        assert bad.returncode == 2 and "Traceback" not in bad.stderr
        assert all(p["knob"] and p["why"] for p in json.loads(bad.stdout)["problems"])
    nope = run("--profile", "nosuch")
    assert nope.returncode == 2 and "Traceback" not in nope.stderr and "nosuch" in nope.stderr


def test_unreadable_params_are_refused_with_the_key_not_a_traceback(tmp_path):
    typo = tmp_path / "params.yaml"
    typo.write_text((REPO / "params.yaml").read_text().replace("  judge_gpus: 0 ", "  judge_gpu: 0 "))
    out = subprocess.run([sys.executable, "-m", "cogevol.cli", "preflight", "--params", str(typo), "--gpus", "8"],
                         cwd=REPO, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "Traceback" not in out.stderr and "judge_gpu" in out.stderr


def test_each_stage_refuses_a_world_its_batch_cannot_split_over(monkeypatch):
    guard("grpo_html", EMBEDDED)  # one process, nothing to say
    monkeypatch.setenv("RANK", "0")
    monkeypatch.setenv("WORLD_SIZE", "3")  # 2 requests x 4 = 8 completions over 3 ranks
    with pytest.raises(PreflightError, match="grpo.requests_per_step"):
        guard("grpo_html", EMBEDDED)
    guard("sft", EMBEDDED)  # SFT has no group to keep whole
    with pytest.raises(SystemExit) as e:
        check_stage("grpo_slide", EMBEDDED)
    assert e.value.code == 2


def test_a_stage_checks_the_judge_it_will_call(monkeypatch):
    judged = dict(EMBEDDED, judge=dict(EMBEDDED["judge"], enabled=True, base_url="http://127.0.0.1:9/v1"))
    with pytest.raises(PreflightError, match="judge.base_url"):
        guard("grpo_html", judged)
    guard("sft", judged)  # SFT calls no judge


def test_server_mode_keeps_gpus_for_the_rollout_server_and_the_arithmetic_follows(monkeypatch):
    monkeypatch.chdir(REPO)
    server = dict(GPU, cluster=dict(GPU["cluster"], rollout_gpus=1),
                  grpo=dict(GPU["grpo"], vllm_mode="server", vllm_server_base_url="http://127.0.0.1:8003",
                            requests_per_step=12))
    p = plan(server, declared(8))
    assert p.placement["servers"]["rollout"]["gpus"] == [6] and p.ranks == 6, p.render()
    assert p.ok and p.grpo["gradient_accumulation_steps"] == 10  # 12 x 5 = 60 = 6 x 1 x 10
    assert "vllm_colocated" not in p.memory["grpo rank"]
    assert "--include localhost:0,1,2,3,4,5 " in p.launch + " "
    no_gpu = dict(server, cluster=dict(server["cluster"], rollout_gpus=0))
    assert "cluster.rollout_gpus" in knobs(plan(no_gpu, declared(8)))
