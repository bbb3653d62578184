"""README's benchmark table and each docs/benchmarks.md section's current figure are written
from benchmarks/results/ and must agree with it (scripts/benchmark_figures.py)."""

import json
import shutil
import subprocess
import sys

from tests.conftest import REPO

SCRIPT = REPO / "scripts" / "benchmark_figures.py"


def _run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_the_committed_documents_quote_the_committed_results():
    r = _run("--check")
    assert r.returncode == 0, r.stderr


def test_a_hand_edited_figure_fails_the_check_and_the_script_mends_it(tmp_path):
    readme, docs = tmp_path / "README.md", tmp_path / "benchmarks.md"
    shutil.copy(REPO / "README.md", readme)
    shutil.copy(REPO / "docs" / "benchmarks.md", docs)
    hostile = json.loads((REPO / "benchmarks" / "results" / "probe_hostile.json").read_text())
    docs.write_text(docs.read_text().replace(f"{hostile['wall_s']} s", "426.9 s"))
    args = ("--readme", str(readme), "--docs", str(docs))
    r = _run("--check", *args)
    assert r.returncode == 1 and "benchmarks.md" in r.stderr
    assert _run(*args).returncode == 0 and _run("--check", *args).returncode == 0
    assert f"{hostile['wall_s']} s" in docs.read_text()
