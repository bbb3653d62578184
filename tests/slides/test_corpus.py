"""The labelled slide corpus (tests/slides/corpus, built by build_corpus.py), scored for real in
Chromium: every clean deck beats every defective twin of the same lesson, and each defect is
reported by the rule that owns it."""

import asyncio
import json
from collections import defaultdict
from pathlib import Path

import pytest

from cogevol.browser.pool import BrowserPool
from cogevol.rewards.slide import SlideScorer

CORPUS = Path(__file__).parent / "corpus"
LABELS = json.loads((CORPUS / "labels.json").read_text())
pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def scores():
    async def run():
        async with BrowserPool() as pool:
            scorer = SlideScorer(pool)
            try:
                return {n: await scorer.score((CORPUS / n).read_text(encoding="utf-8")) for n in LABELS}
            finally:
                await scorer.close()

    return asyncio.run(run())


def test_corpus_is_large_and_covers_every_defect():
    assert len(LABELS) >= 30
    assert sum(v["clean"] for v in LABELS.values()) >= 10
    defects = {v["defect"] for v in LABELS.values() if not v["clean"]}
    assert {"overlap", "overflow", "tiny_font", "empty", "broken_chart", "off_canvas", "invalid_not_json"} <= defects


def test_every_clean_deck_beats_every_defective_twin(scores):
    by_lesson = defaultdict(lambda: {"clean": [], "bad": []})
    for name, label in LABELS.items():
        by_lesson[label["lesson"]]["clean" if label["clean"] else "bad"].append(scores[name].reward)
    for lesson, s in by_lesson.items():
        assert s["clean"] and s["bad"], lesson
        assert min(s["clean"]) > max(s["bad"]), (lesson, s)


@pytest.mark.parametrize("name", sorted(LABELS))
def test_each_deck_is_scored_for_the_right_reason(scores, name):
    s, label = scores[name], LABELS[name]
    assert s.harness_error == ""
    if label["clean"]:
        assert s.valid and s.violations == [] and s.reward == 1.0
    elif label["rule"] == "contract":
        assert not s.valid and s.reward == 0.0 and s.reason.startswith("contract: ")
    else:
        assert s.valid and s.rules[label["rule"]] < 5.0
        assert any(v.startswith(label["rule"] + ":") for v in s.violations), s.violations
    assert s.terms_used in (["rules"], []) and s.vlm_score is None  # no judge configured here
