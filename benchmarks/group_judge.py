"""Group pick against scripted judges on a real local OpenAI-compatible server (no model, no
browser): does the protocol do what issue 40 asks of it?

Groups of `--size` synthetic pages, each with a hidden quality and a length. Three judges:
- `first`: always picks the first image shown as clearly better (pure position bias);
- `noisy`: sees quality (picks the best and the worst), but in `--bias` of its calls picks the
  first and last images shown instead;
- `length`: picks the longest page as better and the shortest as worse.
For each: the mean pick score (centred and raw), position bias, round agreement, the rank
correlation of pick score with the hidden quality (one round vs the shifted rounds), and the
length bias the monitor reports. A group of identical pages must cost no call.

    python benchmarks/group_judge.py [--groups 200] [--size 5] [--bias 0.3]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import random
import sys
import time
from pathlib import Path

from scipy.stats import spearmanr

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogevol.judge.group_pick import group_pick  # noqa: E402
from cogevol.judge.monitor import judge_stats  # noqa: E402
from cogevol.judge.vlm import GroupPickConfig, JudgeConfig, VisionJudge  # noqa: E402
from tests.judge.server import FakeOpenAI  # noqa: E402


def page_png(group: int, k: int, quality: float, length: int) -> bytes:
    return json.dumps({"g": group, "k": k, "q": quality, "len": length}).encode()


def pages_shown(body: dict) -> list[dict]:
    return [
        json.loads(base64.b64decode(p["image_url"]["url"].split(",", 1)[1]))
        for p in body["messages"][1]["content"]
        if p.get("type") == "image_url"
    ]


def judge_fn(kind: str, bias: float, seed: int):
    rng = random.Random(seed)

    def reply(body: dict) -> str:
        shown = pages_shown(body)
        n = len(shown)
        if kind == "first" or (kind == "noisy" and rng.random() < bias):
            good, bad = [0], [n - 1] if kind == "noisy" else []
        else:
            key = "q" if kind == "noisy" else "len"
            vals = [p[key] for p in shown]
            good, bad = [vals.index(max(vals))], [vals.index(min(vals))]
        return json.dumps({"reason": kind, "good": good, "bad": bad, "no_clear_difference": False})

    return reply


async def run_judge(url: str, groups: list[list[dict]], rounds: int | None, centre: bool) -> list:
    cfg = JudgeConfig(enabled=True, base_url=url, model="scripted", cache_dir=None, concurrency=16)
    async with VisionJudge(cfg) as judge:
        gp = GroupPickConfig(enabled=True, rounds=rounds, centre=centre)
        return await asyncio.gather(
            *(group_pick(judge, "page", f"request {i}", [[p["png"]] for p in g], gp)
              for i, g in enumerate(groups))
        )  # fmt: skip


def summary(groups: list[list[dict]], results: list) -> dict:
    watched = [
        {"lengths": [p["len"] for p in g], "judge": r.scores, "pick": r.record()}
        for g, r in zip(groups, results)
    ]
    stats = judge_stats(watched)
    q = [p["q"] for g in groups for p in g]
    s = [x for r in results for x in r.scores]
    stats["quality_spearman"] = round(float(spearmanr(q, s).statistic), 4) if len(set(s)) > 1 else 0.0
    # how far apart the judge put pages of one group (0 for a judge that sees only positions,
    # once the rounds have shifted every page through every position)
    spread = [max(r.scores) - min(r.scores) for r in results]
    stats["within_group_spread"] = round(sum(spread) / len(spread), 4)
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, default=200)
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--bias", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(ROOT / "benchmarks/results/group_judge.json"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    groups = []
    for g in range(args.groups):
        members = []
        for k in range(args.size):
            q, n = round(rng.random(), 4), rng.randint(500, 8000)
            members.append({"q": q, "len": n, "png": page_png(g, k, q, n)})
        groups.append(members)
    out: dict = {"groups": args.groups, "size": args.size, "bias": args.bias, "judges": {}}
    for kind in ("first", "noisy", "length"):
        with FakeOpenAI(responder=judge_fn(kind, args.bias, args.seed)) as server:
            t0 = time.perf_counter()
            shifted = asyncio.run(run_judge(server.url, groups, None, True))
            calls, secs = server.calls, time.perf_counter() - t0
            raw = [r.raw for r in shifted]
            one = asyncio.run(run_judge(server.url, groups, 1, True))
        row = {
            "shifted_rounds": summary(groups, shifted),
            "one_round": summary(groups, one),
            "raw_pick_mean": round(sum(x for r in raw for x in r) / sum(len(r) for r in raw), 4),
            "calls": calls,
            "seconds": round(secs, 2),
        }
        out["judges"][kind] = row
        print(kind, json.dumps(row))
    with FakeOpenAI(responder=judge_fn("first", 0, 0)) as server:
        same = [[{"q": 0.5, "len": 100, "png": b"same"}] * args.size] * 20
        res = asyncio.run(run_judge(server.url, same, None, True))
        out["identical"] = {
            "groups": 20,
            "calls": server.calls,
            "same_score": all(len(set(r.scores)) == 1 for r in res),
            "no_clear_difference": all(r.no_clear_difference for r in res),
        }
    print("identical", json.dumps(out["identical"]))
    Path(args.out).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
