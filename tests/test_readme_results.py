"""README.md's default-run table is generated from metrics/ and must agree with it."""

import json
import shutil
import subprocess
import sys

from tests.conftest import REPO

SCRIPT = REPO / "scripts" / "readme_results.py"


def _run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_the_committed_readme_quotes_the_committed_metrics():
    r = _run("--check")
    assert r.returncode == 0, r.stderr


def test_a_metric_that_moves_without_the_readme_fails_the_check_and_the_script_mends_it(tmp_path):
    metrics = tmp_path / "metrics"
    shutil.copytree(REPO / "metrics", metrics)
    readme = tmp_path / "README.md"
    shutil.copy(REPO / "README.md", readme)
    ev = json.loads((metrics / "evaluate.json").read_text())
    ev["systems"]["sft"]["overall"] = 42.0
    (metrics / "evaluate.json").write_text(json.dumps(ev))
    args = ("--readme", str(readme), "--metrics", str(metrics))
    r = _run("--check", *args)
    assert r.returncode == 1 and "differs from metrics" in r.stderr
    assert _run(*args).returncode == 0
    assert "| sft | 42.00 |" in readme.read_text() and _run("--check", *args).returncode == 0


def test_the_grpo_line_counts_the_steps_with_spread(tmp_path):
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import readme_results
    finally:
        sys.path.remove(str(SCRIPT.parent))
    metrics = tmp_path / "metrics"
    shutil.copytree(REPO / "metrics", metrics)
    g = json.loads((metrics / "grpo_html.json").read_text())
    (metrics / "grpo_html.json").write_text(json.dumps(g | {"steps": 4, "steps_with_spread": 0.25}))
    assert "grpo_html: reward spread in 1 of 4 steps" in readme_results.block(metrics)
