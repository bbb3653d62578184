"""Blind A/B between systems in evaluation, against a real local judge server: pairs, one or two
judges, answers without screenshots, and the evaluation's judge watch."""

import asyncio
import base64
import json

import pytest

from cogevol.evaluate.ab import ABConfig, judge_configs, pairs_of, run_ab, watch
from cogevol.evaluate.run import ItemResult
from cogevol.evaluate.suites import SuiteItem


def results(n: int = 12) -> list[ItemResult]:
    out = []
    for k in range(n):
        item = SuiteItem(f"i{k}", "html", "tool", f"request {k}", suite="html_suite")
        out.append(ItemResult("base", item, 0.5, images=[b"base-page"],
                              details={"terms": {"vlm_visual": 0.6, "vlm_content": 0.6}}))
        out.append(ItemResult("sft", item, 0.7, images=[b"sft-page"] if k else [],
                              details={"terms": {"vlm_visual": 0.2, "vlm_content": 0.2}}))
    return out


def prefers_sft(body: dict) -> str:
    imgs = [base64.b64decode(p["image_url"]["url"].split(",", 1)[1])
            for p in body["messages"][1]["content"] if p.get("type") == "image_url"]
    return json.dumps({"winner": "A" if imgs[0] == b"sft-page" else "B", "reason": "richer"})


def params(url: str) -> dict:
    return {"judge": {"enabled": True, "base_url": url, "model": "vlm-a", "cache_dir": None, "backoff_s": 0.01}}


def test_win_rates_per_pair_and_judge(fake):
    server = fake(responder=prefers_sft)
    cfg = ABConfig(enabled=True, judges=[{"name": "a"}, {"name": "b", "model": "vlm-b"}])
    out = asyncio.run(run_ab(cfg, results(), params(server.url), resamples=200))
    assert set(out) == {"sft vs base"} and set(out["sft vs base"]) == {"a", "b"}
    rec = out["sft vs base"]["a"]
    # item 0: sft has no screenshot, it loses without a call; the other 11 the judge gives to sft
    assert (rec["n"], rec["wins"], rec["losses"]) == (12, 11, 1) and server.calls == 22
    assert rec["win_rate"] == pytest.approx(11 / 12, abs=1e-4) and rec["ci"][0] <= rec["win_rate"] <= rec["ci"][1]
    assert rec["position_bias"] is not None and {b["model"] for b in server.bodies} == {"vlm-a", "vlm-b"}


def test_pairs_and_judges_are_checked():
    assert pairs_of(ABConfig(), ["base", "sft", "grpo"]) == [("sft", "base"), ("grpo", "base")]
    with pytest.raises(ValueError, match="not evaluated"):
        pairs_of(ABConfig(pairs=[["sft", "nope"]]), ["base", "sft"])
    with pytest.raises(ValueError, match="one or two judges"):
        judge_configs(ABConfig(judges=[{}, {}, {}]), {"judge": {}})


def test_the_evaluation_watches_the_judges_length_bias():
    rs = results()
    per_system = {"base": ([r.item for r in rs[::2]], ["x" * 100] * 12),
                  "sft": ([r.item for r in rs[1::2]], ["x" * 900] * 12)}
    stats = watch(rs, per_system)
    assert stats == {}  # two answers a group: too few for a rank correlation
    item = SuiteItem("j", "html", "tool", "r", suite="html_suite")
    three = [ItemResult(s, item, 0.5, details={"terms": {"vlm_visual": v, "vlm_content": v}})
             for s, v in (("a", 0.9), ("b", 0.5), ("c", 0.1))]
    per = {s: ([item], ["x" * n]) for s, n in (("a", 10), ("b", 50), ("c", 90))}
    assert watch(three, per)["length_score_spearman"] == 1.0
