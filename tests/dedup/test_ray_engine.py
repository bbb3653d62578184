"""The Ray backend of dedup gives the in-process answer, byte for byte: the same groups,
representatives, links and vetoes in every audit file and the same surviving records, in the
same order once each output's parts are read in order, however the input is cut into chunks and
the shuffles into partitions (a real local Ray instance, tests/conftest.py `ray_local`)."""

import csv
import json

import orjson
import pytest

from cogevol.core import shards
from cogevol.dedup.audit import FILES
from cogevol.dedup.engines import dedup
from cogevol.dedup.records import RecordError
from cogevol.pipeline.curation import CurationConfig
from cogevol.raydata.session import RayDataConfig
from cogevol_samples.queries import labelled_set
from tests.dedup.test_pipeline import TEXTS

pytestmark = [pytest.mark.usefixtures("ray_local"), pytest.mark.timeout(400)]
OUTPUTS = (*FILES, "vetoed_links.csv", "deduped.jsonl")


def joined(path) -> bytes:
    """A file's bytes, or its parts' bytes in order (a CSV part's header only once)."""
    out = b""
    for k, part in enumerate(shards.parts(path)):
        data = open(part, "rb").read()
        out += data if k == 0 or not part.endswith(".csv") else data.split(b"\r\n", 1)[1]
    return out


def records() -> list:
    recs = [{"id": k, "request": v, "n": i} for i, (k, v) in enumerate(TEXTS.items())]
    recs += [{"id": r["id"], "request": r["text"], "group": r["group"]} for r in labelled_set(60, seed=5)]
    recs += [{"id": "dup-a", "request": recs[3]["request"]}, {"id": "short", "request": "x"},
             {"id": "empty", "request": " !! "}, {"id": "empty2", "request": "?"}]
    return recs


def write_input(tmp_path, recs, bad=True):
    lines = [orjson.dumps(r) for r in recs]
    if bad:  # skipped, not fatal: broken JSON, a record without the field, a non-string text
        lines[5:5] = [b'{"broken": ', b"", orjson.dumps({"id": "nofield"}), orjson.dumps({"id": "num", "request": 3})]
    p = tmp_path / "in.jsonl"
    p.write_bytes(b"\n".join(lines) + b"\n")
    return p


def run_both(tmp_path, inp, field, **ray):
    summary_l, local = dedup(inp, field, tmp_path / "local", survivors=True)
    where = CurationConfig(engine="ray", ray=RayDataConfig(**ray))
    summary_r, sizes_r = dedup(inp, field, tmp_path / "ray", survivors=True, where=where)
    return (summary_l, local), (summary_r, sizes_r)


def test_ray_engine_writes_the_local_files_byte_for_byte(tmp_path):
    inp = write_input(tmp_path, records())
    (summary_l, sizes_l), (summary_r, sizes_r) = run_both(tmp_path, inp, "request", chunk_mb=0.002,
                                                          rows_per_partition=40)
    assert len(shards.parts(tmp_path / "ray" / "query_groups.csv")) > 3  # several chunks, several parts
    for name in OUTPUTS:
        assert joined(tmp_path / "ray" / name) == (tmp_path / "local" / name).read_bytes(), name
    same = {k: v for k, v in summary_l.items() if not k.endswith("_s")}
    assert {k: v for k, v in summary_r.items() if not k.endswith("_s")} == same
    assert summary_r["skipped"] == 3 and summary_r["vetoed"] > 0 and summary_r["simhash_links"]["accepted"] > 0
    assert sizes_r == sizes_l and sum(sizes_r.values()) == summary_r["semantic_groups"]
    # the parts are what downstream stages read: the same survivors, in the same order
    survivors = [r["id"] for r in shards.iter_jsonl(tmp_path / "ray" / "deduped.jsonl")]
    assert survivors == [r["id"] for r in shards.iter_jsonl(tmp_path / "local" / "deduped.jsonl")]


def test_cli_on_csv_with_other_cuts_gives_the_same_answer(tmp_path, monkeypatch, capsys):
    """`cogevol dedup --engine ray` on a CSV input, one chunk and few partitions (the defaults)."""
    from cogevol.cli import main

    recs = records()
    inp = tmp_path / "in.csv"
    with open(inp, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=["id", "text"])
        w.writeheader()
        w.writerows({"id": r["id"], "text": r["request"]} for r in recs)
    summary_l, _ = dedup(inp, "text", tmp_path / "local", survivors=True)
    monkeypatch.chdir(tmp_path)  # no params.yaml here: the flags decide; relative paths as given
    args = ["dedup", "--input", "in.csv", "--field", "text", "--out", "ray", "--survivors"]
    assert main([*args, "--engine", "ray"]) == 0
    summary_r = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert shards.is_dir(tmp_path / "ray" / "query_groups.csv")
    for name in OUTPUTS:
        assert joined(tmp_path / "ray" / name) == (tmp_path / "local" / name).read_bytes(), name
    assert summary_r["semantic_groups"] == summary_l["semantic_groups"] and summary_r["skipped"] == 0


def test_duplicate_ids_are_refused_as_in_process(tmp_path):
    inp = write_input(tmp_path, [{"id": "a", "request": "x y"}, {"id": "b", "request": "z"}, {"id": "a", "request": "w"}], bad=False)
    with pytest.raises(RecordError, match="duplicate id 'a'.*must be unique"):
        dedup(inp, "request", tmp_path / "ray", where=CurationConfig(engine="ray"))
    with pytest.raises(RecordError, match="no such file"):
        dedup(tmp_path / "missing.jsonl", "request", tmp_path / "ray", where=CurationConfig(engine="ray"))
