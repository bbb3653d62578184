"""Record outputs as one file or a directory of parts: every reader gets the same records in the
same order from either shape, and an engine switch leaves no stale shape behind."""

import orjson
import pytest

from cogevol.core import shards
from cogevol.distill.pipeline import load_prompts
from cogevol.pipeline.curation import ENGINE_ENV, CurationConfig
from cogevol.train.data import read_prompts


def _split(path, tmp_path, cut):
    lines = path.read_bytes().splitlines(keepends=True)
    d = tmp_path / "parts" / path.name
    d.mkdir(parents=True)
    for k, s in enumerate(range(0, len(lines), cut)):
        (d / shards.part_name(k * 7, path.name)).write_bytes(b"".join(lines[s : s + cut]))
    (d / ".part-000001.jsonl.1234.tmp").write_bytes(b'{"half a part": ')  # a killed write's leftover
    return d


def test_readers_take_a_file_or_its_parts(tmp_path):
    recs = [{"id": f"p{i}", "prompt": f"make slides {i}", "category": "slide" if i % 2 else "html",
             "checklist": {"version": 1, "checks": [{"check": "mentions", "value": str(i)}]}} for i in range(11)]
    f = tmp_path / "prompts.jsonl"
    f.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in recs))
    d = _split(f, tmp_path, 3)
    assert [p.rsplit("/", 1)[1] for p in shards.parts(d)] == [f"part-{k * 7:06d}.jsonl" for k in range(4)]
    assert list(shards.iter_jsonl(d)) == list(shards.iter_jsonl(f)) == recs
    assert read_prompts(d) == read_prompts(f)
    assert load_prompts(d) == load_prompts(f)


def test_csv_parts_each_carry_the_header(tmp_path):
    d = tmp_path / "groups.csv"
    d.mkdir()
    (d / shards.part_name(0, "groups.csv")).write_bytes(shards.csv_bytes(["id", "text"], [("a", "x,y"), ("b", "line\nbreak")]))
    (d / shards.part_name(1, "groups.csv")).write_bytes(shards.csv_bytes(["id", "text"], [("c", "z")]))
    assert list(shards.iter_csv(d)) == [{"id": "a", "text": "x,y"}, {"id": "b", "text": "line\nbreak"},
                                        {"id": "c", "text": "z"}]


def test_clear_removes_either_shape_and_paths_resolve_for_workers(tmp_path, monkeypatch):
    (tmp_path / "a.jsonl").write_text("{}\n")
    (tmp_path / "b.jsonl").mkdir()
    (tmp_path / "b.jsonl" / "part-000000.jsonl").write_text("{}\n")
    shards.clear(tmp_path / "a.jsonl")
    shards.clear(tmp_path / "b.jsonl")
    shards.clear(tmp_path / "missing")
    assert not any(tmp_path.iterdir())
    monkeypatch.chdir(tmp_path)
    assert shards.absolute("x/y.jsonl") == str(tmp_path / "x" / "y.jsonl")
    assert shards.absolute("s3://bucket/x.jsonl") == "s3://bucket/x.jsonl"


def test_where_curation_runs_comes_from_params_flag_or_environment(monkeypatch):
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    params = {"curation": {"engine": "local", "ray": {"address": "", "chunk_mb": 4}}}
    assert CurationConfig.from_params(params).engine == "local"
    assert CurationConfig.from_params(params, "ray", "10.0.0.1:6379").ray.address == "10.0.0.1:6379"
    monkeypatch.setenv(ENGINE_ENV, "ray")
    c = CurationConfig.from_params(params)
    assert c.engine == "ray" and c.ray.chunk_mb == 4
    with pytest.raises(ValueError, match="curation.engine"):
        CurationConfig.from_params(params, "spark")
    with pytest.raises(KeyError, match="chunk_size"):
        CurationConfig.from_params({"curation": {"ray": {"chunk_size": 1}}})
