"""The 48-page labelled corpus (tests/probe/corpus) on 1 worker with whichever `cogevol` is first on
sys.path: wall time, verdicts that agree with the labels, p50 per page. For a ratio against
another version in the same session (the machine is shared and noisy), alternate the two:

    git worktree add /tmp/base <commit>
    for i in 1 2; do PYTHONPATH=. python benchmarks/probe_corpus_time.py
                     PYTHONPATH=/tmp/base python benchmarks/probe_corpus_time.py; done

Target (issue 22, unchanged since issue 11): <= 45 s on 1 worker.
"""

import asyncio
import json
import time
from pathlib import Path

import cogevol
from cogevol.scoring.local import score_pages


def main() -> None:
    root = Path(cogevol.__file__).resolve().parents[1]
    corpus = root / "tests" / "probe" / "corpus"
    labels = json.loads((corpus / "labels.json").read_text())
    items = [(n, (corpus / n).read_text()) for n in labels]
    t = time.perf_counter()
    res = asyncio.run(score_pages(items))
    wall = time.perf_counter() - t
    agree = sum((r["rendered_ok"], r["hard_fail"]) == (labels[r["path"]]["rendered_ok"], labels[r["path"]]["hard_fail"]) for r in res)
    secs = sorted(r["seconds"] for r in res)
    print(json.dumps({"tree": str(root), "pages": len(items), "wall_s": round(wall, 1), "agree": agree, "p50": secs[len(secs) // 2]}))


if __name__ == "__main__":
    main()
