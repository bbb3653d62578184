"""Turn a profile overlay (infra/profiles/NAME.yaml) into DVC parameter overrides.

    dvc exp run $(python infra/profiles/apply.py gpu)   # prints: -S key=value -S ...
    python infra/profiles/apply.py gpu --write          # applies them to params.yaml in place

Overrides use DVC's Hydra grammar (strings quoted, no spaces, so the shell keeps each one a
single word); --write goes through DVC's own override code, so params.yaml keeps its comments.
Keys that params.yaml does not have are refused: a typo must not silently add a dead knob.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from cogevol.config import profile_leaves, profile_path


def hydra(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(v, list):
        return "[" + ",".join(hydra(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(f"{k}:{hydra(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"cannot express {v!r} as an override")


def overrides(overlay: dict, params: dict) -> list[str]:
    """Leaf overrides in DVC's grammar (cogevol.config.profile_leaves: how an overlay applies)."""
    return [f"{k}={hydra(v)}" for k, v in profile_leaves(params, overlay)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("profile", help="gpu, or a path to an overlay YAML")
    ap.add_argument("--params", default="params.yaml")
    ap.add_argument("--write", action="store_true", help="apply to --params in place instead of printing -S args")
    a = ap.parse_args()
    path = profile_path(a.profile)
    ovs = overrides(yaml.safe_load(path.read_text()), yaml.safe_load(Path(a.params).read_text()))
    if a.write:
        from dvc.utils.hydra import apply_overrides

        apply_overrides(a.params, ovs)
        print(f"{a.params}: {len(ovs)} values from {path}", file=sys.stderr)
    else:
        print(" ".join(f"-S {o}" for o in ovs))


if __name__ == "__main__":
    main()
