"""`cogevol agreement` on a tiny ratings file: scored for real, or from precomputed scores."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SLIDES = Path(__file__).parents[1] / "slides" / "corpus"
LIVE = ("<!DOCTYPE html><html><body><button id=b>+</button><p id=out>0</p><script>let n = 0;"
        "b.onclick = () => { document.getElementById('out').textContent = ++n; };</script></body></html>")
DEAD = "<!DOCTYPE html><html><body><button>+</button><p>0</p></body></html>"


def cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "cogevol.cli", "agreement", *args], capture_output=True, text=True, cwd=cwd)


def write(tmp_path, rows):
    p = tmp_path / "ratings.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return p


@pytest.mark.browser
def test_artifacts_are_scored_and_correlated_with_plots(tmp_path):
    (tmp_path / "live.html").write_text(LIVE)
    (tmp_path / "dead.html").write_text(DEAD)
    for name in ("photosynthesis__clean", "photosynthesis__overlap", "photosynthesis__empty", "fractions__clean"):
        shutil.copy(SLIDES / f"{name}.json", tmp_path / f"{name}.json")
    rows = [{"artifact": "live.html", "human_score": 4, "rater": "a"}, {"artifact": "dead.html", "human_score": 1, "rater": "a"},
            {"artifact": "photosynthesis__clean.json", "human_score": 5, "rater": "a"},
            {"artifact": "photosynthesis__overlap.json", "human_score": 3, "rater": "a"},
            {"artifact": "photosynthesis__empty.json", "human_score": 1, "rater": "a"},
            {"artifact": "fractions__clean.json", "human_score": 4, "rater": "b"}]
    p = cli(str(write(tmp_path, rows)), "--out", str(tmp_path / "out"), "--resamples", "200", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    by = {c["name"]: c for c in report["correlations"]}
    assert report["artifacts"] == 6 and report["raters"] == 2
    assert by["all.reward"]["n"] == 6 and by["all.reward"]["spearman"] > 0.7
    assert by["slide.reward"]["spearman"] > 0.9  # the two clean decks tie on reward (1.0), humans split them 5 / 4
    assert (tmp_path / "out" / "all.reward.png").stat().st_size > 0 and (tmp_path / "out" / "agreement.json").exists()


def test_precomputed_scores_and_bad_files(tmp_path):
    rows = [{"artifact": f"p{k}.html", "human_score": k, "rater": "a"} for k in range(5)]
    scores = tmp_path / "scores.jsonl"
    scores.write_text("".join(json.dumps({"artifact": f"p{k}.html", "reward": k / 10, "interactivity": 1 - k / 10}) + "\n" for k in range(5)))
    p = cli(str(write(tmp_path, rows)), "--scores", str(scores), "--resamples", "100", cwd=tmp_path)
    by = {c["name"]: c for c in json.loads(p.stdout)["correlations"]}
    assert by["html.reward"]["spearman"] == 1.0 and by["html.interactivity"]["spearman"] == -1.0
    missing = cli(str(write(tmp_path, [{"artifact": "gone.html", "human_score": 1, "rater": "a"}])), cwd=tmp_path)
    assert missing.returncode == 2 and "not found" in missing.stderr
    assert cli(str(tmp_path / "nope.jsonl"), cwd=tmp_path).returncode == 2
