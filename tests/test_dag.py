"""Each stage declared once: dvc.yaml is generated from cogevol/dag.py and must match it."""

import yaml

from cogevol.dag import STAGES, dvc_yaml, stage
from tests.conftest import REPO

PARAMS = yaml.safe_load((REPO / "params.yaml").read_text())


def test_dvc_yaml_is_generated_from_the_stage_declarations():
    assert (REPO / "dvc.yaml").read_text() == dvc_yaml(PARAMS), "dvc.yaml is stale: python scripts/write_dvc_yaml.py"


def test_every_declared_stage_has_its_script_and_every_script_a_stage():
    scripts = {p.stem for p in (REPO / "stages").glob("*.py")} - {"grpo"}  # grpo.py: shared by both GRPO stages
    assert {s.name for s in STAGES} == scripts
    assert all((REPO / s.script).exists() for s in STAGES)


def test_a_group_with_operational_knobs_is_tracked_key_by_key_without_them():
    tracked = stage("dedup").tracked(PARAMS)
    assert "dedup.workers" not in tracked and "dedup.tfidf_threshold" in tracked
    assert stage("distill").tracked(PARAMS) == ["distill"]  # no operational knob: the whole group
    scoring = stage("scoring").tracked(PARAMS)
    assert "probe.harness" in scoring and "probe.workers" not in scoring and "judge.concurrency" not in scoring
