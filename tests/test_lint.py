"""The code is ruff clean, line length included on the library (pyproject.toml: E501 is on for
cogevol/): CI runs this, so a long line or an unsorted import fails the build like a test."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO


def _ruff() -> str | None:
    local = Path(sys.executable).with_name("ruff")
    return str(local) if local.exists() else shutil.which("ruff")


@pytest.mark.skipif(_ruff() is None, reason="ruff not installed (infra/setup.sh installs it)")
def test_ruff_is_clean():
    p = subprocess.run([_ruff(), "check", "cogevol", "cogevol_samples", "stages", "flows", "tests", "benchmarks", "scripts"], cwd=REPO,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-1000:]
