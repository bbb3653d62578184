"""Keys and flags that once were all called "backend" now say what they choose; the old spelling
is refused with the new one named, wherever it comes in (params file, overlay, -S, a dict, a CLI
flag, the environment)."""

import re

import pytest
import yaml

from cogevol.cli import main
from cogevol.core.config import (
    RENAMED,
    RenamedKey,
    check_renamed,
    from_dict,
    load_params,
    with_overrides,
)
from cogevol.distill.teacher import TeacherConfig
from cogevol.pipeline.curation import CurationConfig
from cogevol.scoring.transports import ScoringConfig


def test_params_yaml_uses_only_the_new_names():
    params = load_params()
    assert params["filter"]["method"] == "rules" and params["curation"]["engine"] == "local"
    assert params["scoring"]["transport"] == "local" and params["taxonomy"]["source"] == "rules"
    assert all("source" in t for t in params["distill"]["teachers"])


def _nested(dotted: str) -> dict:
    """{"a": {"b": [{"c": "x"}]}} for "a.b[].c": the old key where a params file holds it."""
    head, _, rest = dotted.partition(".")
    if not rest:
        return {head: "x"}
    if head.endswith("[]"):
        return {head[:-2]: [_nested(rest)]}
    return {head: _nested(rest)}


@pytest.mark.parametrize("old,new", sorted(RENAMED.items()))
def test_an_old_key_in_a_params_file_names_the_new_one(tmp_path, old, new):
    with pytest.raises(RenamedKey, match=re.escape(f"{old} is now {new}")):
        check_renamed(_nested(old))
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(_nested(old)), encoding="utf-8")
    with pytest.raises(RenamedKey, match=re.escape(new)):
        load_params(path)


def test_overrides_and_group_dicts_name_the_new_key():
    params = load_params()
    with pytest.raises(RenamedKey, match="scoring.backend is now scoring.transport"):
        with_overrides(params, ["scoring.backend=http"])
    with pytest.raises(RenamedKey, match="backend is now transport"):
        ScoringConfig.from_params({"backend": "http"})
    with pytest.raises(RenamedKey, match="backend is now source"):
        from_dict(TeacherConfig, {"name": "t", "backend": "openai"})
    with pytest.raises(RenamedKey, match="backend is now engine"):
        CurationConfig.from_params({"curation": {"backend": "ray"}})


def test_the_old_environment_variable_is_refused(monkeypatch):
    monkeypatch.setenv("COGEVOL_CURATION_BACKEND", "ray")
    with pytest.raises(RenamedKey, match=r"\$COGEVOL_CURATION_BACKEND is now \$COGEVOL_CURATION_ENGINE"):
        CurationConfig.from_params({})


@pytest.mark.parametrize("argv,message", [
    (["dedup", "--input", "x.jsonl", "--field", "q", "--out", "o", "--backend", "ray"], "--backend is now --engine"),
    (["filter", "--input", "x.jsonl", "--out", "o", "--judge", "llm"], "--judge is now --method"),
    (["classify", "--input", "x.jsonl", "--field", "q", "--classifier", "rules"], "--classifier is now --source"),
])
def test_old_cli_flags_exit_2_with_the_new_flag(capsys, argv, message):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and message in capsys.readouterr().err
