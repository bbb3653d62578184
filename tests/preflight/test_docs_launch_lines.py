"""Every launch line the README and docs/training.md show is one preflight accepts."""

import re
import shutil

from cogevol.preflight.environment import Launcher, launcher_problems
from tests.conftest import REPO

LINE = re.compile(r'export COGEVOL_LAUNCH="([^"]+)"')


def test_documented_launch_lines_pass_preflight(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a checkout whose hostfile was written from the example
    (tmp_path / "infra/hosts").mkdir(parents=True)
    shutil.copy(REPO / "infra/hosts/hostfile.example", tmp_path / "infra/hosts/hostfile")
    shutil.copy(REPO / "infra/hosts/node_env.sh", tmp_path / "infra/hosts/node_env.sh")
    lines = [m for doc in ("README.md", "docs/training.md") for m in LINE.findall((REPO / doc).read_text())]
    assert len(lines) >= 3
    for line in lines:
        launch = Launcher.parse(line.replace("$PWD", str(tmp_path)))
        nodes = 2 if launch.hostfile else 1
        assert launcher_problems(launch, 7 * nodes, nodes, 7) == [], line
