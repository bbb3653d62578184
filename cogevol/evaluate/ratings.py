"""Human ratings against the rewards: load ratings, score the rated artifacts, correlate.

Ratings file (JSONL or CSV), one row per (artifact, rater):
  artifact      path of the rated artifact, relative to the ratings file (.html page, or a
                slide output under the cogevol-slides/1 contract: .json / .txt)
  human_score   the rater's score (any numeric scale; only ranks matter)
  rater         who rated (several raters of one artifact are averaged)
  kind          optional: html | slide (default: from the extension, .html -> html)
  request       optional: the request the artifact answers (the HTML gate follows what it asks for)
Scores file (optional, JSONL): `artifact` plus `reward` and component fields, for rewards
computed elsewhere; without it the artifacts are scored here with the same rewards as training.
"""

from __future__ import annotations

import asyncio
import csv
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

from cogevol.core.errors import CogevolError
from cogevol.evaluate.agreement import Correlation, correlate


class RatingsError(CogevolError, ValueError):
    """A ratings file that cannot be used (the message names the row and field)."""


def load_ratings(path: str | Path) -> list[dict]:
    path = Path(path)
    if not path.exists():
        raise RatingsError(f"{path}: no such file")
    if path.suffix == ".csv":
        with path.open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
    else:
        rows = []
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise RatingsError(f"{path}:{n}: not JSON ({e.msg})") from None
    out = []
    for n, r in enumerate(rows, 1):
        missing = [k for k in ("artifact", "human_score", "rater") if r.get(k) in (None, "")]
        if missing:
            raise RatingsError(f"{path} row {n}: missing {', '.join(missing)}")
        try:
            score = float(r["human_score"])
        except (TypeError, ValueError):
            raise RatingsError(
                f"{path} row {n}: human_score {r['human_score']!r} is not a number"
            ) from None
        kind = r.get("kind") or (
            "html" if str(r["artifact"]).endswith((".html", ".htm")) else "slide"
        )
        if kind not in ("html", "slide"):
            raise RatingsError(f"{path} row {n}: kind must be html or slide, got {kind!r}")
        out.append(
            {
                "artifact": str(r["artifact"]),
                "human_score": score,
                "rater": str(r["rater"]),
                "kind": kind,
                "request": str(r.get("request") or ""),
            }
        )
    return out


def mean_by_artifact(rows: list[dict]) -> dict[str, dict]:
    acc: dict[str, dict] = defaultdict(lambda: {"scores": [], "raters": set()})
    for r in rows:
        a = acc[r["artifact"]]
        a["scores"].append(r["human_score"])
        a["raters"].add(r["rater"])
        a["kind"] = r["kind"]
        a["request"] = a.get("request") or r["request"]
    return {
        k: {
            "human": float(np.mean(v["scores"])),
            "raters": len(v["raters"]),
            "kind": v["kind"],
            "request": v["request"],
        }
        for k, v in acc.items()
    }


def components(kind: str, rec: dict) -> dict[str, float | None]:
    """Reward and its components on a higher-is-better scale (HTML defect terms as 1 - defect)."""
    out: dict[str, float | None] = {"reward": rec.get("reward")}
    if kind == "html":
        out["interactivity"] = rec.get("interactivity")
        for term, defect in (rec.get("terms") or {}).items():
            if term != "interactivity" and defect is not None:
                out[term] = 1.0 - defect
    else:
        out["rule_score"] = rec.get("rule_score")
        out["vlm_score"] = rec.get("vlm_score")
        for rule, v in (rec.get("rules") or {}).items():
            out[f"rules.{rule}"] = v
    return out


async def score_artifacts(
    items: dict[str, dict], root: Path, params: dict | None = None
) -> dict[str, dict]:
    """Score every rated artifact with the training rewards (probe for HTML, rules for slides),
    configured by params.yaml's `probe` and `slides` groups when given; the judge is left out
    (its terms are correlated on their own)."""
    from cogevol.scoring import open_scorers
    from cogevol.scoring.types import ScoreItem

    params = {k: v for k, v in (params or {}).items() if k != "judge"}
    names = list(items)
    batch = [
        ScoreItem(
            items[a]["kind"],
            (root / a).read_text(encoding="utf-8", errors="replace"),
            items[a].get("request", ""),
            raw=True,
        )
        for a in names
    ]
    from cogevol.core.progress import Progress

    progress = Progress("evaluate: scored rated artifacts", total=len(batch), unit="artifacts")
    out: dict[str, dict] = {}
    async with open_scorers(params) as scorers:
        async for j, score in scorers.stream(batch):
            out[names[j]] = score.details
            progress.update()
    progress.done()
    return {a: out[a] for a in names if a in out}


def agreement(
    items: dict[str, dict], scores: dict[str, dict], resamples: int = 1000, seed: int = 0
) -> tuple[list[Correlation], dict[str, list[tuple[float, float]]]]:
    """Correlations per kind and component, and the (reward, human) points behind each."""
    points: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for a, v in items.items():
        rec = scores.get(a)
        if rec is None:
            continue
        for name, value in components(v["kind"], rec).items():
            if value is not None:
                points[f"{v['kind']}.{name}"].append((float(value), v["human"]))
                if name == "reward":
                    points["all.reward"].append((float(value), v["human"]))
    results = []
    for name in sorted(points, key=lambda k: (not k.startswith("all"), k)):
        xy = np.array(points[name])
        results.append(correlate(name, xy[:, 0], xy[:, 1], resamples=resamples, seed=seed))
    return results, dict(points)


def scatter_figure(name: str, pts: list[tuple[float, float]], corr: Correlation):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 4))
    xy = np.array(pts)
    ax.scatter(xy[:, 0], xy[:, 1], s=18, alpha=0.7, color="#3b6ea5")
    ax.set_xlabel(name)
    ax.set_ylabel("human score (mean over raters)")
    ax.set_title(
        f"{name}: Spearman {corr.spearman:.2f} "
        f"[{corr.spearman_ci[0]:.2f}, {corr.spearman_ci[1]:.2f}], n={corr.n}",
        fontsize=9,
    )
    fig.tight_layout()
    return fig


def run_agreement(
    ratings_path: str | Path,
    scores_path: str | Path | None = None,
    resamples: int = 1000,
    params: dict | None = None,
) -> tuple[dict, dict, dict]:
    """(report, per-artifact scores, points) for a ratings file; scores the artifacts unless given
    (with the reward settings in `params`, the parsed params.yaml)."""
    ratings_path = Path(ratings_path)
    rows = load_ratings(ratings_path)
    items = mean_by_artifact(rows)
    if scores_path:
        scores = {}
        for line in Path(scores_path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                scores[r["artifact"]] = r
    else:
        root = ratings_path.parent
        missing = [a for a in items if not (root / a).is_file()]
        if missing:
            raise RatingsError(
                f"{len(missing)} rated artifact(s) not found next to {ratings_path}: {missing[:3]}"
            )
        scores = asyncio.run(score_artifacts(items, root, params))
    results, points = agreement(items, scores, resamples)
    report = {
        "ratings": str(ratings_path),
        "artifacts": len(items),
        "raters": len({r["rater"] for r in rows}),
        "correlations": [c.record() for c in results],
    }
    return report, scores, points
