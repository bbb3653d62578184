"""Turn a profile overlay (infra/profiles/NAME.yaml) into DVC parameter overrides.

    dvc exp run $(python infra/profiles/apply.py gpu)   # prints: -S key=value -S ...
    python infra/profiles/apply.py gpu --write          # applies them to params.yaml in place
    python infra/profiles/apply.py gpu-1x24 -S grpo.learning_rate=2e-6   # a profile, then overrides

A profile may extend another (`extends: gpu`): the parent's values come first, the child's win.

Overrides use DVC's Hydra grammar (strings quoted, no spaces, so the shell keeps each one a
single word); --write goes through DVC's own override code, so params.yaml keeps its comments.
Keys that params.yaml does not have are refused: a typo must not silently add a dead knob.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from cogevol.core.config import parse_overrides, profile_leaves, profile_overlays


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


def overrides(overlays: list[dict], params: dict) -> list[str]:
    """Leaf overrides in DVC's grammar (cogevol.core.config.profile_leaves: how an overlay applies),
    one per key: where several overlays set a key, the last one's value."""
    leaves: dict = {}
    for overlay in overlays:
        leaves.update(profile_leaves(params, overlay))
    return [f"{k}={hydra(v)}" for k, v in leaves.items()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("profile", help="gpu, or a path to an overlay YAML")
    ap.add_argument("--params", default="params.yaml")
    ap.add_argument("--write", action="store_true", help="apply to --params in place instead of printing -S args")
    ap.add_argument("-S", "--set-param", dest="extra", action="append", default=[], metavar="KEY=VALUE",
                    help="one more override after the profile's, in dvc exp run's syntax (repeatable)")
    a = ap.parse_args()
    overlays = [*profile_overlays(a.profile), parse_overrides(a.extra)]
    ovs = overrides(overlays, yaml.safe_load(Path(a.params).read_text()))
    if a.write:
        from dvc.utils.hydra import apply_overrides

        apply_overrides(a.params, ovs)
        print(f"{a.params}: {len(ovs)} values from {a.profile}", file=sys.stderr)
    else:
        print(" ".join(f"-S {o}" for o in ovs))


if __name__ == "__main__":
    main()
