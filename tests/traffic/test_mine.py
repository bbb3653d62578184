import gzip

import orjson

from cogevol.traffic.mine import MineConfig, run_mine, stable_id
from tests.conftest import conversation, write_jsonl


def _read(path):
    return [orjson.loads(x) for x in path.read_bytes().splitlines() if x.strip()]


def test_mine_quarantines_bad_input_and_loses_nothing_valid(tmp_path):
    good = [conversation(f"c-{i}") for i in range(5)]
    bad = [b'{"conversation_id": "x", "messages": [', b"\xd7\xf6\xd2\xbb", orjson.dumps(conversation("c-bad", created_at="yesterday")),
           orjson.dumps(conversation("c-0"))]  # the last one re-uses an id already seen
    src = write_jsonl(tmp_path / "in.jsonl", good[:3] + bad + good[3:])
    blob = gzip.compress(b"\n".join(orjson.dumps(conversation(f"g-{i}")) for i in range(50)))
    (tmp_path / "cut.jsonl.gz").write_bytes(blob[:-30])
    out = tmp_path / "out"
    stats = run_mine([src, tmp_path / "cut.jsonl.gz"], out)
    reqs = _read(out / "requests.jsonl")
    ids = {r["provenance"]["conversation_id"] for r in reqs}
    assert {f"c-{i}" for i in range(5)} <= ids
    assert stats.quarantined == {"invalid_json": 1, "invalid_utf8": 1, "schema:created_at": 1,
                                 "duplicate_conversation_id": 1, "truncated_gzip": 1}
    q = _read(out / "quarantine.jsonl")
    assert all(x["reason"] and x["source"] for x in q)
    assert any("first seen at" in x["detail"] for x in q)


def test_output_records_carry_stable_ids_provenance_and_scrubbed_text(tmp_path):
    rec = conversation("c-42", request="My name is Emily Johnson, build a snake game in HTML, mail me at e.j@x.com")
    src = write_jsonl(tmp_path / "in.jsonl", [rec])
    run_mine([src], tmp_path / "o1")
    run_mine([src], tmp_path / "o2")
    a, b = _read(tmp_path / "o1" / "requests.jsonl"), _read(tmp_path / "o2" / "requests.jsonl")
    assert a == b and a[0]["id"] == stable_id("c-42")
    r = a[0]
    assert "Emily" not in r["request"] and "<EMAIL>" in r["request"]
    assert r["pii"] == {"name": 1, "email": 1}
    assert r["category"] == "html" and r["subcategory"] == "game"
    assert r["provenance"]["line"] == 1 and r["provenance"]["conversation_id"] == "c-42"


def test_failures_are_mined_with_their_signals(tmp_path):
    fb = {"thumb": "down", "regenerations": 3, "edit_count": 5, "render_error": "SyntaxError", "runtime_error": None}
    ok = conversation("c-ok")
    failed = conversation("c-bad", feedback=fb)
    followup = conversation("c-f")
    followup["messages"].append({"role": "user", "content": "the button does not work"})
    off = conversation("c-off", request="tell me a joke")
    run_mine([write_jsonl(tmp_path / "in.jsonl", [ok, failed, followup, off])], tmp_path / "o", MineConfig(regen_threshold=2))
    fails = {f["provenance"]["conversation_id"]: f["signals"] for f in _read(tmp_path / "o" / "failures.jsonl")}
    assert fails == {"c-bad": ["thumb_down", "regenerated", "heavy_edits", "render_error"], "c-f": ["followup"]}
    assert [r["provenance"]["conversation_id"] for r in _read(tmp_path / "o" / "off_scope.jsonl")] == ["c-off"]
    assert "c-off" not in {r["provenance"]["conversation_id"] for r in _read(tmp_path / "o" / "requests.jsonl")}


def test_cli_mine_exit_codes(tmp_path):
    from cogevol.cli import main

    assert main(["mine", "--input", str(tmp_path / "missing"), "--out", str(tmp_path / "o")]) == 2
    src = write_jsonl(tmp_path / "in.jsonl", [conversation()])
    assert main(["mine", "--input", str(src), "--out", str(tmp_path / "o")]) == 0
