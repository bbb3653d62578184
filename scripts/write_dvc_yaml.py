"""Write dvc.yaml from the stage declarations in cogevol/dag.py (`--check`: exit 1 if it differs)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from cogevol.dag import dvc_yaml

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="only compare; exit 1 when dvc.yaml is stale")
    a = ap.parse_args()
    text = dvc_yaml(yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8")))
    path = REPO / "dvc.yaml"
    if a.check:
        same = path.read_text(encoding="utf-8") == text
        print("dvc.yaml is up to date" if same else "dvc.yaml is stale: run python scripts/write_dvc_yaml.py")
        return 0 if same else 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
