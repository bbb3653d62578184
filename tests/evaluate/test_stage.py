"""The evaluate stage end to end on a tiny checkpoint: the reference row, and what the MLflow run
page shows (comparison picture, GRPO reward per step, gallery, datasets, registered versions)."""

import json

import mlflow
import pytest

from cogevol.distill.pipeline import sft_features
from cogevol.evaluate.stage import EvalConfig, evaluate
from cogevol.pipeline.tracking import EXPERIMENT, EXPERIMENT_KIND, REGISTERED_MODEL, stage_run
from tests.conftest import REPO

LIVE = ("<!DOCTYPE html><html><body><button id=b>+</button><p id=out>0</p><script>let n = 0;"
        "b.onclick = () => { document.getElementById('out').textContent = ++n; };</script></body></html>")
DECK = (REPO / "tests" / "slides" / "corpus" / "photosynthesis__clean.json").read_text()


def _distilled(path):
    from datasets import Dataset

    rows = [{"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": ask},
                          {"role": "assistant", "content": answer}], "modality": m, "category": c, "prompt_id": pid,
             "teacher": "replay-a", "candidate": 0, "score": 1.0, "reasons": "", "is_failure": False, "lang": "en"}
            for pid, m, c, ask, answer in [("h1", "html", "tool", "a click counter", LIVE),
                                           ("s1", "slide", "science", "slides on photosynthesis", DECK)]]
    Dataset.from_list(rows, features=sft_features()).save_to_disk(str(path))
    return str(path)


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_reference_row_and_the_manager_view(tmp_path, tiny_dir, tracking):
    suite = tmp_path / "mini.jsonl"
    suite.write_text("\n".join(json.dumps(r) for r in [
        {"id": "a", "kind": "html", "category": "tool", "prompt": "a counter with a + button"},
        {"id": "b", "kind": "slide", "category": "science", "prompt": "slides on volcanoes"}]) + "\n")
    curve = tmp_path / "grpo_html_reward.csv"
    curve.write_text("step,reward,kl\n1,0.1,0.0\n2,0.3,0.01\n")
    cfg = EvalConfig(suites=[str(suite)], systems=[{"name": "tiny", "path": str(tiny_dir)}], max_new_tokens=8,
                     ratings=None, reference=_distilled(tmp_path / "sft"), grpo_curves={"grpo_html": str(curve)})
    with stage_run("evaluate", {}) as run:
        metrics = evaluate(cfg, tmp_path / "out", {}, run)
    s = metrics["systems"]
    assert set(s) == {"tiny", "reference"} and s["reference"]["items"] == 2
    assert s["reference"]["overall"] > 60 and s["reference"]["hard_fails"] == 0  # admitted answers: the ceiling
    assert "| reference |" in (tmp_path / "out" / "comparison.md").read_text()

    client = mlflow.MlflowClient()
    assert client.get_experiment_by_name(EXPERIMENT).tags[EXPERIMENT_KIND[0]] == EXPERIMENT_KIND[1]
    arts = {a.path for a in client.list_artifacts(run.run_id, "evaluate")}
    assert {"evaluate/0_comparison.png", "evaluate/1_grpo_reward_per_step.png", "evaluate/2_best_and_worst_html.png"} <= arts
    assert [m.value for m in client.get_metric_history(run.run_id, "grpo_html_reward")] == [0.1, 0.3]
    inputs = {d.dataset.name for d in client.get_run(run.run_id).inputs.dataset_inputs}
    assert inputs == {"mini", "distilled"}
    version = client.get_model_version_by_alias(REGISTERED_MODEL, "best")
    assert version.tags["overall"] == str(s["tiny"]["overall"]) and version.run_id == run.run_id
    assert client.get_model_version_by_alias(REGISTERED_MODEL, "tiny").version == version.version


def test_every_system_is_scored_against_the_same_planned_checklist(tmp_path):
    import json as _json

    from cogevol.checklist.planner import PlannerConfig
    from cogevol.evaluate.stage import with_checklists
    from cogevol.evaluate.suites import SuiteItem

    snake = SuiteItem("g1", "html", "game", "Build a snake game with arrow keys and a restart button")
    deck = SuiteItem("s1", "slide", "science", "Make 5 slides about volcanoes")
    replay = tmp_path / "replay.jsonl"
    reply = {"language": "en", "checks": [{"check": "key", "value": "ArrowKeys"}, {"check": "label", "value": "Restart"},
                                          {"check": "mentions", "value": "snake"}]}
    replay.write_text(_json.dumps({"modality": "html", "request": snake.prompt, "reply": reply}) + "\n", encoding="utf-8")
    out = with_checklists({"base": ([snake, deck], ["a", "b"]), "sft": ([snake], ["c"])},
                          PlannerConfig(source="replay", replay_path=str(replay)))
    base, sft = out["base"][0], out["sft"][0]
    assert base[0].checklist == sft[0].checklist and _json.loads(base[0].checklist)["source"] == "llm"
    assert _json.loads(base[1].checklist)["source"] == "rules"  # not in the replay: the rules, with the note
    assert out["base"][1] == ["a", "b"]
