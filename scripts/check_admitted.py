"""Re-checks the distilled SFT set from the outside: every admitted HTML target, rescored by the
`cogevol probe` CLI, is not hard-failed; every admitted slide target parses under the contract.

Run after `dvc repro distill`: python scripts/check_admitted.py [data/sft/train]
Exit 1 when any record breaks the promise (the offending ids are printed).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from datasets import load_from_disk

from cogevol.slides.contract import ContractError, parse


def main() -> int:
    ds = load_from_disk(sys.argv[1] if len(sys.argv) > 1 else "data/sft/train")
    bad: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        pages = []
        for r in ds:
            target = r["messages"][-1]["content"]
            if r["modality"] == "html":
                path = Path(tmp) / f"{r['prompt_id']}.html"
                path.write_text(target, encoding="utf-8")
                pages.append(str(path))
            else:
                try:
                    parse(target)
                except ContractError as e:
                    bad.append(f"{r['prompt_id']}: slide target breaks the contract: {e}")
        cli = Path(sys.executable).parent / "cogevol"
        out = subprocess.run([str(cli), "probe", *pages], capture_output=True, text=True, check=True).stdout
        rows = [json.loads(line) for line in out.splitlines()]
        bad += [f"{Path(r['path']).stem}: hard-failed on rescoring: {r['reason']}" for r in rows if r["hard_fail"]]
    n_html = len(pages)
    print(json.dumps({"records": len(ds), "html_rescored": n_html, "html_hard_failed": sum(r["hard_fail"] for r in rows),
                      "html_reward_min": min((r["reward"] for r in rows), default=None),
                      "slides_parsed": len(ds) - n_html - sum("slide target" in b for b in bad), "problems": bad}, indent=2))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
