"""Running a Ray cluster test where it cannot reach anything else: its own network namespace
(Ray's servers listen on every interface) and its own PID namespace (`ray stop` in there must
not reach another Ray on the machine, such as the one the curation tests share)."""

import shutil
import subprocess

import pytest

NS = ["unshare", "-n", "-p", "-f", "--mount-proc"]


def _netns_ok() -> bool:
    if not shutil.which("unshare") or not shutil.which("ip"):
        return False
    return subprocess.run([*NS, "true"], capture_output=True).returncode == 0


needs_private_network = pytest.mark.skipif(
    not _netns_ok(),
    reason="needs `unshare -n` (root): Ray's servers listen on every interface, so the cluster "
    "test runs only where a private network namespace keeps it off the network",
)
