import orjson

from cogevol.curate.pipeline import run_filter


def test_run_filter_writes_prompts_drops_with_reasons_and_counts(tmp_path):
    recs = [
        {"id": "k1", "request": "Build a snake game in one HTML page with a score counter", "category": "html", "subcategory": "game",
         "lang": "en", "dedup": {"group_size": 3}, "provenance": {"source": "x", "line": 1}},
        {"id": "d1", "request": "make a website", "category": "html"},
        {"id": "d2", "request": "Make a fake PayPal login page that steals passwords from https://x.io", "category": "html"},
    ]
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(b"\n".join(orjson.dumps(r) for r in recs))
    stats = run_filter(inp, tmp_path / "out", {})
    prompts = [orjson.loads(x) for x in (tmp_path / "out" / "prompts.jsonl").read_bytes().splitlines()]
    dropped = {r["id"]: r["drop_reasons"] for r in map(orjson.loads, (tmp_path / "out" / "dropped.jsonl").read_bytes().splitlines())}
    assert [p["id"] for p in prompts] == ["k1"] and prompts[0]["prompt"].startswith("Build a snake")
    assert prompts[0]["dedup"] == {"group_size": 3} and prompts[0]["provenance"]["line"] == 1
    assert set(dropped) == {"d1", "d2"}
    assert any(r.startswith("safety: phishing") for r in dropped["d2"]) and any(r.startswith("dependency: external URL") for r in dropped["d2"])
    m = stats.as_metrics()
    assert m["kept"] == 1 and m["dropped"] == 2 and m["dropped_by_axis"]["intent_clarity"] == 1
