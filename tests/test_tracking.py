import mlflow

from cogevol.tracking import flatten, stage_run


def _runs():
    c = mlflow.MlflowClient()
    exp = c.get_experiment_by_name("cogevol")
    return c.search_runs([exp.experiment_id], order_by=["attributes.start_time ASC"])


def test_stages_group_under_one_parent_until_a_stage_repeats():
    for stage in ("mine", "dedup", "filter", "filter"):
        with stage_run(stage, {"x": {"y": 1}}) as run:
            run.log_metrics({"kept": 3, "by": {"a": 1}, "name": "not numeric"})
    runs = _runs()
    parents = [r for r in runs if r.data.tags.get("cogevol.kind") == "pipeline"]
    children = [r for r in runs if r.data.tags.get("cogevol.kind") == "stage"]
    assert len(parents) == 2 and len(children) == 4
    first, second = (p.info.run_id for p in parents)
    by_parent = {}
    for c in children:
        by_parent.setdefault(c.data.tags["mlflow.parentRunId"], []).append(c.data.tags["cogevol.stage"])
    assert by_parent == {first: ["mine", "dedup", "filter"], second: ["filter"]}
    assert children[0].data.metrics == {"kept": 3.0, "by.a": 1.0} and children[0].data.params == {"x.y": "1"}
    assert parents[0].data.metrics["mine.kept"] == 3.0


def test_failed_stage_is_marked_failed():
    try:
        with stage_run("mine"):
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert [r.info.status for r in _runs() if r.info.run_name == "mine"] == ["FAILED"]


def test_tracking_can_be_turned_off_and_never_blocks(monkeypatch):
    monkeypatch.setenv("COGEVOL_TRACKING", "0")
    with stage_run("mine") as run:
        run.log_metrics({"a": 1})
        assert not run.active
    monkeypatch.setenv("COGEVOL_TRACKING", "1")
    monkeypatch.setenv("MLFLOW_TRACKING_URI", "postgresql://nobody@127.0.0.1:9/none")
    with stage_run("mine") as run:  # unreachable store: the stage still runs, untracked
        assert not run.active


def test_flatten():
    assert flatten({"a": {"b": 1, "c": {"d": 2}}, "e": 3}) == {"a.b": 1, "a.c.d": 2, "e": 3}


def test_metric_names_keyed_by_reasons_are_made_valid():
    from cogevol.tracking import metric_name

    assert metric_name("checklists.rules (not in the replay file)") == "checklists.rules _not in the replay file_"
    assert metric_name("dropped_by_reason.safety: phishing") == "dropped_by_reason.safety: phishing"
