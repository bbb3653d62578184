"""The language benchmark (issue 41): a working page in another language than its request's is
priced, not zeroed, and still answers its own request better than another one.

data/probe_language/tasks.json holds five working pages (a countdown timer, a tip calculator, a
to-do list, a BMI calculator, a quiz), each in the eight traffic languages, and each task's
request in the eight languages. Every score goes through the real scorers with the checklist the
rules plan from the request. Figures, each over the eight request languages:

* same vs other: the page in the request's language against its copy in another language
  (English; Chinese for an English request): the share of pairs where the same-language page
  scores higher, and the other-language copies hard-failed (target: none);
* cross-language swap: an English and a Chinese page scored for their own task's request and for
  the next task's request, both written in the request language: the share where the own
  request scores higher, and the mean reward against the other request (target: at most 0.35);
* same-language swap: the same, with page and request in the same language.

Results go to benchmarks/results/probe_language.json.

Run: python benchmarks/probe_language.py [--workers 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
from pathlib import Path

from cogevol.core.config import load_params
from cogevol.core.logs import setup_logging
from cogevol.scoring import ScoreItem, Scorers, ScoringSettings

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "data" / "probe_language" / "tasks.json"
RESULTS = ROOT / "benchmarks" / "results"
LANGS = ("en", "es", "fr", "de", "pt", "zh", "ja", "ko")


def page(task: dict, lang: str) -> str:
    strings = task["strings"][lang]
    return re.sub(r"\{s\.(\w+)\}", lambda m: strings[m.group(1)], task["template"])


def plan() -> list[tuple[str, str, str, str, str]]:
    """(figure, task, page language, request language, whose request) rows to score."""
    names = sorted(json.loads(TASKS.read_text(encoding="utf-8"))["tasks"])
    rows = []
    for k, t in enumerate(names):
        other = names[(k + 1) % len(names)]
        for lang in LANGS:
            copy = "zh" if lang == "en" else "en"
            rows += [("same", t, lang, lang, t), ("other", t, copy, lang, t)]
            rows += [("same_swap", t, lang, lang, other)]
            for p in ("en", "zh"):
                if p != lang:
                    rows += [("cross_own", t, p, lang, t), ("cross_swap", t, p, lang, other)]
    return rows


async def score(rows: list, params: dict, workers: int) -> list:
    tasks = json.loads(TASKS.read_text(encoding="utf-8"))["tasks"]
    items = [ScoreItem("html", page(tasks[t], p), tasks[r]["requests"][lang], raw=True)
             for _, t, p, lang, r in rows]
    async with Scorers(ScoringSettings.from_params(params, workers)) as scorers:
        return await scorers.score(items)


def summarise(rows: list, scores: list) -> dict:
    by = {(f, t, p, lang): s for (f, t, p, lang, _), s in zip(rows, scores, strict=True)}
    rec = [{"figure": f, "task": t, "page": p, "request_lang": lang, "request_of": r,
            "reward": s.reward, "gate": s.gate, "reason": s.reason[:160]}
           for (f, t, p, lang, r), s in zip(rows, scores, strict=True)]

    def share(pairs: list[tuple[float, float]]) -> float:
        return round(sum(a > b for a, b in pairs) / len(pairs), 4) if pairs else None

    same = [(by[("same", t, lang, lang)].reward or 0, s.reward or 0)
            for (f, t, p, lang), s in by.items() if f == "other"]
    other_scores = [s for (f, *_), s in by.items() if f == "other"]
    cross = [(by[("cross_own", t, p, lang)].reward or 0, s.reward or 0)
             for (f, t, p, lang), s in by.items() if f == "cross_swap"]
    same_swap = [(by[("same", t, lang, lang)].reward or 0, s.reward or 0)
                 for (f, t, p, lang), s in by.items() if f == "same_swap"]
    cross_langs = {lang: share([(by[("cross_own", t, p, lg)].reward or 0, s.reward or 0)
                                for (f, t, p, lg), s in by.items() if f == "cross_swap" and lg == lang])
                   for lang in LANGS}
    return {
        "same_vs_other": {"pairs": len(same), "share_same_higher": share(same),
                          "other_hard_failed": sum(s.gate == "fail" for s in other_scores),
                          "other_min_reward": min((s.reward or 0) for s in other_scores),
                          "mean_same": round(sum(a for a, _ in same) / len(same), 4),
                          "mean_other": round(sum(b for _, b in same) / len(same), 4)},
        "cross_language_swap": {"pairs": len(cross), "share_own_higher": share(cross),
                                "per_request_language": cross_langs,
                                "mean_own": round(sum(a for a, _ in cross) / len(cross), 4),
                                "mean_swap": round(sum(b for _, b in cross) / len(cross), 4)},
        "same_language_swap": {"pairs": len(same_swap), "share_own_higher": share(same_swap),
                               "mean_own": round(sum(a for a, _ in same_swap) / len(same_swap), 4),
                               "mean_swap": round(sum(b for _, b in same_swap) / len(same_swap), 4)},
        "rows": rec,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--params", default=str(ROOT / "params.yaml"))
    a = ap.parse_args()
    setup_logging()
    rows = plan()
    t0 = time.perf_counter()
    scores = asyncio.run(score(rows, load_params(a.params), a.workers))
    report = summarise(rows, scores) | {"items": len(rows), "wall_s": round(time.perf_counter() - t0, 1)}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "probe_language.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k != "rows"}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
