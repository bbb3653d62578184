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
    reasons = {(r["axis"], r["reason"]) for r in dropped["d2"]}
    assert {("safety", "phishing"), ("dependency", "external_url")} <= reasons
    assert next(r for r in dropped["d2"] if r["reason"] == "external_url")["detail"] == "https://x.io"
    m = stats.as_metrics()
    assert m["dropped_by_reason"]["safety.phishing"] == 1 and m["dropped_by_reason"]["intent_clarity.under_specified"] == 1
    assert m["kept"] == 1 and m["dropped"] == 2 and m["dropped_by_axis"]["intent_clarity"] == 1
    # each kept prompt carries its task type, difficulty and language; the metrics count them
    tax = prompts[0]["taxonomy"]
    assert (tax["l1"], tax["l2"], tax["l3"]) == ("Dynamic", "Browser Games", "Action & Reflex")
    assert tax["lang"] == "en" and tax["source"] == "rules" and tax["difficulty"]
    assert m["kept_by_l2"] == {"Browser Games": 1} and m["kept_by_lang"] == {"en": 1}
    assert m["kept_by_difficulty"] == {tax["difficulty"]: 1} and m["taxonomy"] == {"rules": 1}
    assert ("l2", "Browser Games", 1) in stats.strata_rows()


def test_each_kept_prompt_gets_its_checklist_planned_once_with_how_it_was_planned(tmp_path):
    import json

    from cogevol.checklist.planner import PlannerConfig

    snake = "Build a snake game in one HTML page with arrow keys and a score counter"
    deck = "Make a 5-slide deck about the water cycle with a chart"
    recs = [{"id": "a", "request": snake, "category": "html"}, {"id": "b", "request": deck, "category": "slide"}]
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(b"\n".join(orjson.dumps(r) for r in recs))
    reply = {"language": "en", "checks": [{"check": "key", "value": "ArrowKeys"}, {"check": "mentions", "value": "snake"},
                                          {"check": "mentions", "value": "score"}]}
    replay = tmp_path / "replay.jsonl"
    replay.write_text(json.dumps({"modality": "html", "request": snake, "reply": reply}) + "\n", encoding="utf-8")
    stats = run_filter(inp, tmp_path / "out", {}, PlannerConfig(source="replay", replay_path=str(replay)))
    prompts = {p["id"]: p for p in map(orjson.loads, (tmp_path / "out" / "prompts.jsonl").read_bytes().splitlines())}
    assert prompts["a"]["checklist"]["source"] == "llm"
    assert [c["value"] for c in prompts["a"]["checklist"]["checks"]] == ["en", "ArrowKeys", "snake", "score"]
    slide = prompts["b"]["checklist"]  # not in the replay: the rules, and the note says why
    assert slide["source"] == "rules" and slide["note"].startswith("not in the replay file")
    assert {"check": "slides", "n": 5}.items() <= next(c for c in slide["checks"] if c["check"] == "slides").items()
    assert stats.as_metrics()["checklists"] == {"llm": 1, "rules (not in the replay file)": 1}
