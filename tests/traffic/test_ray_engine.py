"""The Ray backend of mine gives the in-process records byte for byte, chunk by chunk: the same
requests, failures, off-scope and quarantine lines in the same order (parts read in order), the
same counts, with a duplicated conversation id, bad lines and an empty file split across chunks
(a real local Ray instance, tests/conftest.py `ray_local`)."""

import gzip

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cogevol.core import shards
from cogevol.pipeline.curation import CurationConfig
from cogevol.raydata.session import RayDataConfig
from cogevol.traffic.engines import mine
from cogevol.traffic.mine import OUTPUTS
from tests.conftest import conversation, write_jsonl

pytestmark = [pytest.mark.usefixtures("ray_local"), pytest.mark.timeout(300)]


def test_ray_engine_mines_the_local_records_in_the_local_order(tmp_path, monkeypatch):
    src = tmp_path / "traffic"
    src.mkdir()
    convs = [conversation(f"c-{i}", request=f"Make a {i + 3}-slide deck about volcanoes, part {i}",
                          feedback={"thumb": "down" if i % 3 == 0 else None, "regenerations": i % 4,
                                    "edit_count": 0, "render_error": None, "runtime_error": None})
             for i in range(40)]
    lines = [orjson.dumps(c) for c in convs]
    lines[7:7] = [b'{"conversation_id": "x", "messages": [', b"", b"\xd7\xf6\xd2\xbb"]
    lines[30:30] = [orjson.dumps(convs[2]), orjson.dumps(conversation("c-off", request="what is the weather"))]
    lines.append(orjson.dumps(convs[35]))  # the same id again, far from its first record
    (src / "a.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    (src / "b.jsonl").write_bytes(b"\n\n   \n")  # blank lines only: an empty file
    (src / "c.jsonl.gz").write_bytes(gzip.compress(b"\n".join(orjson.dumps(conversation(f"g-{i}")) for i in range(5))))
    pq.write_table(pa.Table.from_pylist([conversation("c-p1"), conversation("c-3")]), src / "d.parquet")
    write_jsonl(src / "e.json", [])  # an empty JSON Lines file
    (src / "f.json").write_bytes(orjson.dumps([conversation("c-j1")]))
    monkeypatch.chdir(tmp_path)  # sources are cited relative to the root, as the stage runs
    local = mine(["traffic"], tmp_path / "local", root=tmp_path)
    ray_cfg = RayDataConfig(chunk_mb=0.0015, rows_per_partition=8)
    ray = mine(["traffic"], tmp_path / "ray", root=tmp_path, where=CurationConfig("ray", ray_cfg))
    assert len(shards.parts(tmp_path / "ray" / "requests.jsonl")) > 5
    for name in OUTPUTS:
        got = b"".join(open(p, "rb").read() for p in shards.parts(tmp_path / "ray" / f"{name}.jsonl"))
        assert got == (tmp_path / "local" / f"{name}.jsonl").read_bytes(), name
    a, b = local.as_metrics(), ray.as_metrics()
    a.pop("records_per_s"), b.pop("records_per_s")
    assert a == b
    assert a["quarantine_reasons"] == {"duplicate_conversation_id": 3, "empty_file": 2, "invalid_json": 1,
                                       "invalid_utf8": 1}
    q = list(shards.iter_jsonl(tmp_path / "ray" / "quarantine.jsonl"))
    assert {x["detail"] for x in q if x["reason"] == "duplicate_conversation_id"} == {
        "conversation_id 'c-2' first seen at traffic/a.jsonl:3",
        "conversation_id 'c-35' first seen at traffic/a.jsonl:41",
        "conversation_id 'c-3' first seen at traffic/a.jsonl:4"}
