"""The HTML reward's judge terms: asked only past the hard-fail gate, from the page's first
screenshot, against a real local OpenAI-compatible server."""

import asyncio
import json

import pytest

from cogevol.judge.vlm import JudgeConfig, VisionJudge
from cogevol.scoring import Scorers, ScoringSettings
from cogevol.scoring.local import score_pages
from cogevol.train.rewards import HTML_SPEC, ModalityReward
from tests.judge.server import FakeOpenAI

LIVE = ("<!DOCTYPE html><html><body><button id=b>+</button><p id=out>0</p><script>let n = 0;"
        "b.onclick = () => { document.getElementById('out').textContent = ++n; };</script></body></html>")
DEAD = "<!DOCTYPE html><html><body><button>+</button><p>0</p></body></html>"
VERDICT = json.dumps({"visual": 2, "content": 4, "reasons": {"visual": "plain", "content": "does it"}})
pytestmark = pytest.mark.browser


def run(judge_cfg, items, requests):
    async def go():
        judge = VisionJudge(judge_cfg)
        try:
            return await score_pages(items, judge=judge, requests=requests)
        finally:
            await judge.aclose()

    return asyncio.run(go())


def test_judge_terms_join_the_reward_past_the_gate_only(tmp_path):
    with FakeOpenAI(responder=lambda body: VERDICT) as server:
        cfg = JudgeConfig(enabled=True, base_url=server.url, model="vlm", backoff_s=0.01, cache_dir=None)
        live, dead = run(cfg, [("live", LIVE), ("dead", DEAD)], {"live": "a counter with a + button", "dead": "a counter with a + button"})
        assert server.calls == 1  # the dead page is gated before any judge call
        assert "a counter with a + button" in server.bodies[0]["messages"][1]["content"][0]["text"]
    assert live["terms"]["vlm_visual"] == 0.6 and live["terms"]["vlm_content"] == 0.2
    assert set(live["weights_used"]) >= {"vlm_visual", "vlm_content", "interactivity"}
    assert live["reward"] < 1.0 and dead["hard_fail"] and "vlm_visual" not in dead["terms"]


def test_a_failing_judge_leaves_the_terms_out_with_the_reason():
    with FakeOpenAI(script=[{"status": 500}] * 10) as server:
        cfg = JudgeConfig(enabled=True, base_url=server.url, model="vlm", backoff_s=0.01, max_retries=1, cache_dir=None)
        (r,) = run(cfg, [("live", LIVE)], {})
    assert "vlm_visual" not in r["terms"] and "vlm_visual" not in r["weights_used"] and "judge failed" in r["reason"]
    assert 0 < r["reward"] <= 1.0


def test_trl_reward_sends_the_user_request_to_the_judge():
    async def go(cfg):
        scorers = Scorers(ScoringSettings(judge=cfg))
        try:
            return await ModalityReward("html", scorers, HTML_SPEC)(
                prompts=[[{"role": "user", "content": "make a counter"}]],
                completions=[[{"role": "assistant", "content": f"```html\n{LIVE}\n```"}]]), scorers
        finally:
            await scorers.aclose()

    with FakeOpenAI(responder=lambda body: VERDICT) as server:
        out, scorers = asyncio.run(go(JudgeConfig(enabled=True, base_url=server.url, model="vlm", cache_dir=None)))
        assert "make a counter" in server.bodies[0]["messages"][1]["content"][0]["text"]
    assert 0 < out[0] < 1 and scorers._judge is None  # the judge the scorers built is closed with them
