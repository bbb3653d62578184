"""Distillation end to end on inline prompts and replayed answers, executed in the real Chromium."""

import asyncio
import json
from pathlib import Path

import pytest

from cogevol.distill.pipeline import (
    Candidate,
    DistillConfig,
    Outcome,
    Prompt,
    Scored,
    bar_too_long,
    distill,
    extract_artifact,
    load_prompts,
    select,
    summarise,
    write_outputs,
)
from cogevol.distill.teacher import TeacherConfig
from cogevol.scoring import Scorers

CLEAN_DECK = (Path(__file__).parents[1] / "slides" / "corpus" / "photosynthesis__clean.json").read_text()
LIVE = """```html
<!DOCTYPE html><html><body><button id="b">Add</button><p id="n">0</p>
<script>let n = 0; document.getElementById('b').onclick = () => { document.getElementById('n').textContent = ++n; };</script>
</body></html>
```"""
DEAD = LIVE.replace("getElementById('b')", "getElementById('start')")


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_selection_keeps_the_mix_ratio_and_puts_failures_first():
    prompts = [Prompt(f"s{k}", "x", "slide") for k in range(10)] + [Prompt(f"h{k}", "x", "html", is_failure=k < 3) for k in range(10)]
    chosen = select(prompts, DistillConfig(max_prompts=5, slide_share=0.4), None)
    assert sum(p.modality == "slide" for p in chosen) == 2 and sum(p.modality == "html" for p in chosen) == 3
    assert {p.id for p in chosen if p.modality == "html"} == {"h0", "h1", "h2"}
    assert select(prompts, DistillConfig(max_prompts=5), {"s1", "h9"}) == [prompts[19], prompts[1]]


def test_stratified_selection_keeps_the_pools_task_type_and_difficulty_shape():
    def p(k, l2, diff):
        return Prompt(f"h{k:02d}", "x", "html", taxonomy={"l1": "Dynamic", "l2": l2, "difficulty": diff})

    prompts = [p(k, "Browser Games", "Medium") for k in range(30)] + [p(30 + k, "Simulation", "Hard") for k in range(10)]
    cfg = DistillConfig(max_prompts=8, slide_share=0.0, failures_first=False)
    chosen = select(prompts, cfg, None)
    assert sum(c.taxonomy["l2"] == "Simulation" for c in chosen) == 2  # 10/40 of 8
    assert chosen == select(prompts, cfg, None)
    with pytest.raises(ValueError, match="distill.draw"):
        DistillConfig(draw="round robin")


def test_artifacts_are_extracted_or_rejected_with_a_reason():
    assert extract_artifact("html", LIVE)[0].startswith("<!DOCTYPE html>")
    assert extract_artifact("html", "Sorry, I can't.") == (None, "no HTML document in the answer")
    deck, why = extract_artifact("slide", "Here:\n```json\n" + CLEAN_DECK + "\n```")
    assert why == "" and json.loads(deck)["version"] == "cogevol-slides/1" and "\n" not in deck
    assert extract_artifact("slide", "no deck")[1].startswith("contract: no JSON object")


def test_an_answer_longer_than_the_student_can_write_is_rejected_before_execution():
    page = extract_artifact("html", LIVE)[0]

    def decide(limit: int | None) -> Scored:
        s = Scored(Prompt("h1", "a counter", "html"), Candidate("a", 0, LIVE), page)
        bar_too_long([s], limit)
        return s

    assert decide(None).outcome is Outcome.PENDING and decide(len(page)).outcome is Outcome.PENDING
    long = decide(len(page) - 1)
    assert long.outcome is Outcome.TOO_LONG and not long.admitted and long.score is None
    assert long.reason == f"too long: {len(page)} characters > max_answer_chars {len(page) - 1} (not executed)"
    no_page = Scored(Prompt("h1", "a counter", "html"), Candidate("a", 0, "sorry"), None, outcome=Outcome.NO_DOCUMENT)
    bar_too_long([no_page], 1)
    assert no_page.outcome is Outcome.NO_DOCUMENT  # only what would be executed is barred


@pytest.mark.browser
def test_only_executed_and_verified_candidates_are_admitted(tmp_path):
    prompts = write_jsonl(tmp_path / "prompts.jsonl", [
        {"id": "h1", "prompt": "a click counter page: a button adds one", "category": "html", "subcategory": "tool", "lang": "en"},
        {"id": "s1", "prompt": "slides on photosynthesis", "category": "slide", "subcategory": "lesson", "lang": "en"},
        {"id": "h2", "prompt": "never answered", "category": "html", "subcategory": "game", "lang": "en"}])
    failures = write_jsonl(tmp_path / "failures.jsonl", [{"id": "h1", "request": "a click counter page: a button adds one"}])
    replay = write_jsonl(tmp_path / "replay.jsonl", [
        {"teacher": "a", "prompt_id": "h1", "candidate": 0, "response": DEAD},
        {"teacher": "a", "prompt_id": "h1", "candidate": 1, "response": LIVE},
        {"teacher": "a", "prompt_id": "s1", "candidate": 0, "response": CLEAN_DECK},
        {"teacher": "a", "prompt_id": "s1", "candidate": 1, "response": CLEAN_DECK[:-30]}])
    cfg = DistillConfig(teachers=[TeacherConfig(name="a", replay_path=str(replay), k=2)], max_prompts=4, slide_share=0.5,
                        max_answer_chars=None)
    loaded = load_prompts(prompts, failures)
    assert [p.is_failure for p in loaded] == [True, False, False]
    items, kept, chosen = asyncio.run(distill(loaded, cfg, Scorers()))
    assert [p.id for p in chosen] == ["h1", "s1"]  # h2 has no replayed answers
    decided = {(s.prompt.id, s.cand.index): s for s in items}
    assert decided["h1", 0].reason.startswith("hard fail") and not decided["h1", 0].admitted
    assert decided["h1", 1].admitted and decided["h1", 1].score >= 0.75
    assert decided["s1", 0].admitted and decided["s1", 0].score == 1.0  # a perfect deck: reward 1 (0-5 score 5)
    assert decided["s1", 1].reason.startswith("contract: invalid JSON")
    write_outputs(tmp_path / "sft", items, kept)
    from datasets import load_from_disk

    ds = load_from_disk(str(tmp_path / "sft" / "train"))
    assert ds["prompt_id"] == ["h1", "s1"] and ds["is_failure"] == [True, False]
    roles = [m["role"] for m in ds[0]["messages"]]
    assert roles == ["system", "user", "assistant"] and ds[0]["messages"][2]["content"].startswith("<!DOCTYPE html>")
    assert "cogevol-slides/1" in ds[1]["messages"][0]["content"]
    rejected = [json.loads(line) for line in (tmp_path / "sft" / "rejected.jsonl").read_text().splitlines()]
    assert {(r["prompt_id"], r["candidate"]) for r in rejected} == {("h1", 0), ("s1", 1)}
    m = summarise(items, kept, chosen)
    assert m["by_modality"]["html"] == {"candidates": 2, "admitted": 1, "rate": 0.5}
    assert m["rejected_by_reason"] == {"hard fail": 1, "contract": 1} and m["failures_admitted"] == 1
