"""`cogevol slide-score`: one JSON line per file with the contract's fields; exit 0 whatever the
outputs are, 2 for a usage error."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"
pytestmark = pytest.mark.browser


def cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "cogevol.cli", "slide-score", *args], capture_output=True, text=True, cwd=cwd)


def test_one_json_line_per_file_with_pngs(tmp_path):
    files = [str(CORPUS / "photosynthesis__clean.json"), str(CORPUS / "photosynthesis__overlap.json"),
             str(CORPUS / "pythagoras__invalid_not_json.json")]
    p = cli(*files, "--png-dir", str(tmp_path / "png"), cwd=tmp_path)  # no params.yaml here: defaults
    assert p.returncode == 0, p.stderr
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert [r["path"] for r in rows] == files
    for r in rows:
        assert {"path", "valid", "rule_score", "vlm_score", "reward", "violations"} <= set(r)
    assert rows[0]["reward"] == 1.0 and rows[1]["reward"] < 1.0 and rows[1]["violations"]
    assert rows[2]["valid"] is False and rows[2]["reward"] == 0.0 and rows[2]["rule_score"] is None
    assert sorted(f.name for f in (tmp_path / "png").iterdir()) == ["photosynthesis__clean.slide1.png", "photosynthesis__overlap.slide1.png"]


def test_missing_file_is_a_usage_error(tmp_path):
    p = cli(str(tmp_path / "nope.json"), cwd=tmp_path)
    assert p.returncode == 2 and "no such file" in p.stderr
