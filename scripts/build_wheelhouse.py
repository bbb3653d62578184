#!/usr/bin/env python
"""Pack what `cogevol smoke` needs beyond torch, transformers, peft and accelerate into a
wheelhouse, for a GPU machine that has those but no package index.

    python scripts/build_wheelhouse.py --out wheelhouse            # this machine's Python
    python scripts/build_wheelhouse.py --out wheelhouse --python-version 3.12 --present pandas

The packages are TRL, DeepSpeed and datasets and every requirement of theirs that the target
does not already hold: the closure is read from this environment's installed metadata (the same
versions CI tests), minus the closure of the packages the target has (`--present`, repeatable,
added to torch, transformers, peft and accelerate). Binary wheels are fetched for the target's
Python and platform; DeepSpeed, published as a source archive only, is built here as a
pure-Python wheel (DS_BUILD_OPS=0: no compiled ops, as infra/setup.sh installs it). It prints
the install line and exits 1 when the wheelhouse is larger than --max-mib.

On the target, from the repository root (cogevol itself runs from the checkout):

    pip install --no-index --no-deps wheelhouse/*.whl
    PYTHONPATH=. python -m cogevol.cli smoke
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

WANTED = ("trl", "deepspeed", "datasets")
PRESENT = ("torch", "transformers", "peft", "accelerate")
SOURCE_ONLY = {"deepspeed"}  # published as an sdist: built here
# pip matches --platform exactly, so every manylinux tag a glibc 2.28+ x86_64 machine runs
GLIBC_X86_64 = ["manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64",
                "manylinux_2_12_x86_64", "manylinux2010_x86_64", "manylinux_2_5_x86_64",
                "manylinux1_x86_64", "any"]


def closure(roots: list[str]) -> dict[str, str | None]:
    """name -> installed version for `roots` and everything they require (no extras)."""
    seen: dict[str, str | None] = {}
    todo = list(roots)
    while todo:
        name = canonicalize_name(todo.pop())
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            seen[name] = None
            continue
        seen[name] = dist.version
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


def to_pack(present: list[str]) -> dict[str, str]:
    have = closure([*PRESENT, *present])
    want = closure(list(WANTED))
    missing = sorted(n for n, v in want.items() if v is None and n not in have)
    if missing:
        raise SystemExit(f"not installed here, so no version to pin: {missing}")
    return {n: v for n, v in want.items() if n not in have and v is not None}


def fetch(pkgs: dict[str, str], out: Path, python_version: str, platforms: list[str]) -> None:
    pip = [sys.executable, "-m", "pip"]
    binary = [f"{n}=={v}" for n, v in sorted(pkgs.items()) if n not in SOURCE_ONLY]
    if binary:
        subprocess.run(
            [*pip, "download", "--no-deps", "--only-binary=:all:", "--python-version",
             python_version, "--implementation", "cp",
             *[x for p in platforms for x in ("--platform", p)], "-d", str(out), *binary],
            check=True,
        )  # fmt: skip
    for n in sorted(SOURCE_ONLY & set(pkgs)):
        env = dict(os.environ, DS_BUILD_OPS="0")
        subprocess.run(
            [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(out),
             f"{n}=={pkgs[n]}"], check=True, env=env,
        )  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="wheelhouse")
    ap.add_argument("--python-version", default=f"{sys.version_info.major}.{sys.version_info.minor}")
    ap.add_argument("--platform", action="append", default=None,
                    help="wheel platform tags the target accepts (default: glibc x86_64, manylinux 2.5-2.28)")
    ap.add_argument("--present", action="append", default=[], help="a package the target already has")
    ap.add_argument("--max-mib", type=float, default=48.0)
    ap.add_argument("--dry-run", action="store_true", help="list what would be packed")
    a = ap.parse_args()
    pkgs = to_pack(a.present)
    if a.dry_run:
        print(json.dumps(pkgs, indent=1))
        return 0
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    fetch(pkgs, out, a.python_version, a.platform or GLIBC_X86_64)
    wheels = sorted(out.glob("*.whl"))
    mib = sum(w.stat().st_size for w in wheels) / 2**20
    biggest = sorted(((w.stat().st_size / 2**20, w.name) for w in wheels), reverse=True)[:3]
    print(json.dumps({
        "wheels": len(wheels), "mib": round(mib, 1), "max_mib": a.max_mib,
        "largest": [f"{n} {s:.1f} MiB" for s, n in biggest],
        "install": f"pip install --no-index --no-deps {out}/*.whl",
    }, indent=1))  # fmt: skip
    return 0 if mib <= a.max_mib else 1


if __name__ == "__main__":
    sys.exit(main())
