import mlflow
import pytest

from cogevol.pipeline.tracking import flatten, stage_run


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
    from cogevol.pipeline.tracking import metric_name

    assert metric_name("checklists.rules (not in the replay file)") == "checklists.rules _not in the replay file_"
    assert metric_name("dropped_by_reason.safety: phishing") == "dropped_by_reason.safety: phishing"


@pytest.mark.slow  # the server takes 20-30 s to start here
def test_checkpoints_register_against_a_real_tracking_server(tmp_path, monkeypatch):
    """`mlflow server` refuses a file:// model version source outside the run's artifacts; a
    checkpoint registered as an external logged model is accepted and keeps its path in a tag."""
    import os
    import socket
    import subprocess
    import sys
    import time

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mlflow_bin = os.path.join(os.path.dirname(sys.executable), "mlflow")
    server = subprocess.Popen(
        [mlflow_bin, "server", "--host", "127.0.0.1", "--port", str(port), "--workers", "1",
         "--backend-store-uri", f"sqlite:///{tmp_path / 'server.db'}",
         "--artifacts-destination", str(tmp_path / "artifacts")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 240
        while True:  # wait for the server to answer, however long its start takes here
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail("mlflow server did not start")
            time.sleep(0.5)
        monkeypatch.setenv("MLFLOW_TRACKING_URI", url)
        ckpt = tmp_path / "models" / "sft"
        ckpt.mkdir(parents=True)
        (ckpt / "config.json").write_text("{}")
        with stage_run("evaluate") as run:
            version = run.register_checkpoint(str(ckpt), "sft", {"html": 0.5})
            run.set_model_alias("best", version)
        assert version == "1"
        client = mlflow.MlflowClient(url)
        mv = client.get_model_version_by_alias("cogevol-policy", "best")
        assert mv.version == "1" and mv.tags["checkpoint"] == str(ckpt) and mv.tags["html"] == "0.5"
        assert client.get_model_version_by_alias("cogevol-policy", "sft").run_id == run.run_id
    finally:
        server.terminate()
        server.wait(30)
