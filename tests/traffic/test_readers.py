import gzip

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cogevol.traffic.readers import InputError, read_all
from tests.conftest import conversation, write_jsonl


def test_jsonl_bad_lines_are_items_not_failures(tmp_path):
    p = write_jsonl(tmp_path / "a.jsonl", [conversation("c-1"), b'{"broken": ', b"\xff\xfe not utf8", b"", conversation("c-2")])
    recs = list(read_all([p]))
    assert [r.obj["conversation_id"] for r in recs if r.obj] == ["c-1", "c-2"]
    errors = [(r.line, r.error.split(":")[0]) for r in recs if r.error]
    assert errors == [(2, "invalid JSON"), (3, "invalid UTF-8 at byte 0")]


def test_truncated_gzip_keeps_what_was_readable(tmp_path):
    payload = b"\n".join(orjson.dumps(conversation(f"c-{i}")) for i in range(200)) + b"\n"
    blob = gzip.compress(payload)
    p = tmp_path / "t.jsonl.gz"
    p.write_bytes(blob[: len(blob) * 2 // 3])
    recs = list(read_all([p]))
    good = [r for r in recs if r.obj]
    assert 0 < len(good) < 200
    assert recs[-1].error.startswith("corrupt or truncated gzip stream after line")


def test_empty_file_is_reported(tmp_path):
    (tmp_path / "e.jsonl").write_bytes(b"")
    recs = list(read_all([tmp_path / "e.jsonl"]))
    assert [r.error for r in recs] == ["empty file"]


def test_parquet_and_json_array_and_directory(tmp_path):
    pq.write_table(pa.Table.from_pylist([conversation("c-p1"), conversation("c-p2")]), tmp_path / "x.parquet")
    (tmp_path / "y.json").write_bytes(orjson.dumps([conversation("c-j1")]))
    ids = sorted(r.obj["conversation_id"] for r in read_all([tmp_path]))
    assert ids == ["c-j1", "c-p1", "c-p2"]


def test_datasets_saved_to_disk(tmp_path):
    import datasets

    datasets.Dataset.from_list([{"conversation_id": "c-d1", "created_at": "2026-10-01T00:00:00Z",
                                 "messages": [{"role": "user", "content": "make slides on cells"}]}]).save_to_disk(str(tmp_path / "ds"))
    recs = list(read_all([tmp_path / "ds"]))
    assert recs[0].obj["conversation_id"] == "c-d1"


def test_missing_path_and_unknown_type_are_clear_errors(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        list(read_all([tmp_path / "nope.jsonl"]))
    (tmp_path / "x.txt").write_text("hi")
    with pytest.raises(InputError, match="unsupported file type"):
        list(read_all([tmp_path / "x.txt"]))
    (tmp_path / "empty_dir").mkdir()
    with pytest.raises(InputError, match="no readable traffic files"):
        list(read_all([tmp_path / "empty_dir"]))
