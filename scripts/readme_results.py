#!/usr/bin/env python
"""Write README.md's "What the default run shows" table from the committed metrics.

The README quotes the default run in one place only, and that place is generated: the table of
`metrics/evaluate.json` (every evaluated system) and the GRPO stages' spread and KL from
`metrics/grpo_*.json`, between the two markers below. A hand-edited figure there, or metrics
that moved without the README, fail `tests/test_readme_results.py`.

    python scripts/readme_results.py           # rewrite the block after a `dvc repro`
    python scripts/readme_results.py --check   # exit 1 when README and metrics disagree
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START = "<!-- default-run: written by scripts/readme_results.py from metrics/; do not edit -->"
END = "<!-- /default-run -->"


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def block(metrics: Path) -> str:
    """The generated block (markers included) for the metrics folder `metrics`."""
    systems = _read(metrics / "evaluate.json")["systems"]
    rows = [
        "| system | overall (0-100) | HTML | slides | HTML hard fails | slide validity |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, s in systems.items():
        rows.append(
            f"| {name} | {s['overall']:.2f} | {s['html_score']:.2f} | {s['slide_score']:.2f} "
            f"| {s['hard_fails']} of {s['html_items']} | {s['slide_validity']:.0%} |"
        )
    grpo = []
    for stage in ("grpo_slide", "grpo_html"):
        path = metrics / f"{stage}.json"
        if path.exists():
            g = _read(path)
            spread = round((g.get("steps_with_spread") or 0.0) * g["steps"])
            grpo.append(
                f"{stage}: reward spread in {spread} of {g['steps']} steps, reward "
                f"{g.get('reward_first')} -> {g.get('reward_final')}, final KL {g.get('kl_final')}"
            )
    tail = ["", "GRPO (" + "; ".join(grpo) + ")."] if grpo else []
    return "\n".join([START, *rows, *tail, END])


def replace_block(readme: str, new: str) -> str:
    start, end = readme.find(START), readme.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"README.md has no block between {START!r} and {END!r}")
    return readme[:start] + new + readme[end + len(END) :]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    ap.add_argument("--readme", default=str(ROOT / "README.md"))
    ap.add_argument("--metrics", default=str(ROOT / "metrics"))
    a = ap.parse_args()
    readme = Path(a.readme)
    text = readme.read_text(encoding="utf-8")
    new = replace_block(text, block(Path(a.metrics)))
    if a.check:
        if new != text:
            print("README.md's default-run table differs from metrics/: run scripts/readme_results.py", file=sys.stderr)
            return 1
        return 0
    readme.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
