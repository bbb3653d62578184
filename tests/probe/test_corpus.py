"""Every verdict of the labelled corpus, with the real Chromium (tests/probe/corpus/labels.json)."""

import asyncio
import json
from pathlib import Path

import pytest

from cogevol.browser.pool import BrowserConfig
from cogevol.probe import ProbeConfig
from cogevol.scoring.local import ScoringSettings, score_pages

CORPUS = Path(__file__).parent / "corpus"
LABELS = json.loads((CORPUS / "labels.json").read_text())
pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def results():
    items = [(name, (CORPUS / name).read_text()) for name in LABELS]
    # two pages in flight: the virtual clock keeps verdicts the same under load (probe_stability)
    return {r["path"]: r for r in asyncio.run(score_pages(items, ScoringSettings(workers=2)))}


def test_corpus_is_large_and_mixed():
    assert len(LABELS) >= 40
    assert sum(not e["hard_fail"] for e in LABELS.values()) >= 20
    assert sum(not e["rendered_ok"] for e in LABELS.values()) >= 3


@pytest.mark.parametrize("name", sorted(LABELS))
def test_page_verdict(results, name):
    r, e = results[name], LABELS[name]
    assert (r["rendered_ok"], r["hard_fail"]) == (e["rendered_ok"], e["hard_fail"]), r["reason"]
    assert r["reason"]
    assert (r["reward"] == 0.0) == e["hard_fail"]
    by_label = {c.get("label", ""): c for c in r["controls"]}
    for label in e["live"]:
        assert by_label[label]["verdict"] == "live", (label, r["controls"])
        assert by_label[label]["evidence"]
    for label in e["dead"]:
        assert by_label[label].get("verdict") == "dead", (label, r["controls"])
    for label in e.get("excluded", []):  # a canvas nothing listens to the pointer over
        assert by_label[label]["status"] == "excluded", (label, r["controls"])


def test_overlay_and_disabled_controls_are_not_operable(results):
    overlay = results["dead_overlay.html"]
    assert all(c["status"] == "not_operable" and c["reason"].startswith("covered by") for c in overlay["controls"])
    disabled = results["dead_disabled_only.html"]
    assert {c["reason"] for c in disabled["controls"]} == {"disabled"}


def test_render_failures_say_why(results):
    assert "script error" in results["render_blank_error.html"]["reason"]
    loop = results["render_infinite_loop.html"]
    # a hung page costs the load wait, one ping unanswered for the grace, and cleanup
    bound = BrowserConfig().load_timeout_ms / 1000 + ProbeConfig().hang_grace_s + 2.5
    assert loop["outcome"] == "page_hung" and loop["seconds"] <= bound, (loop["seconds"], bound)
    assert "stopped answering" in loop["reason"]
    assert not results["render_infinite_loop.html"]["harness_error"]
