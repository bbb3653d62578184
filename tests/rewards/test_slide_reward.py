"""The hybrid slide reward with a real judge endpoint (local OpenAI-compatible server) and the
TRL reward function, in the real Chromium."""

import asyncio
import json
from pathlib import Path

import pytest

from cogevol.browser.pool import BrowserPool
from cogevol.judge.vlm import JudgeConfig, VisionJudge
from cogevol.rewards.slide import SlideScorer
from cogevol.scoring import ScoreItem, Scorers, ScoringSettings
from cogevol.train.monitor import RolloutLog
from cogevol.train.rewards import SLIDE_SPEC, ModalityReward
from tests.judge.server import FakeOpenAI

CORPUS = Path(__file__).parents[1] / "slides" / "corpus"
CLEAN = (CORPUS / "water_cycle__clean.json").read_text()  # two slides
OVERLAP = (CORPUS / "photosynthesis__overlap.json").read_text()
pytestmark = pytest.mark.browser


def score_with(judge_cfg: JudgeConfig | None, *outputs: str):
    async def run():
        async with BrowserPool() as pool:
            judge = VisionJudge(judge_cfg) if judge_cfg else None
            scorer = SlideScorer(pool, judge=judge)
            try:
                return [await scorer.score(o, "The water cycle for grade 5") for o in outputs]
            finally:
                await scorer.close()
                if judge:
                    await judge.aclose()

    return asyncio.run(run())


def test_judge_term_weighs_sixty_percent_and_sees_every_slide(tmp_path):
    verdict = json.dumps({"visual": 3, "content": 5, "reasons": {"visual": "ok", "content": "good"}})
    with FakeOpenAI(responder=lambda body: verdict) as server:
        cfg = JudgeConfig(enabled=True, base_url=server.url, model="vlm", backoff_s=0.01, cache_dir=str(tmp_path / "j"))
        (s,) = score_with(cfg, CLEAN)
        assert server.calls == 2  # one verdict per slide, each with its screenshot
        assert all(b["messages"][1]["content"][1]["image_url"]["url"].startswith("data:image/png;base64,") for b in server.bodies)
        assert "The water cycle for grade 5" in server.bodies[0]["messages"][1]["content"][0]["text"]
        assert s.vlm_score == 4.0 and s.rule_score == 5.0
        # seed 000's 0.6 judge + 0.4 rules, beside the request checklist's fulfilment term (0.25)
        assert s.fulfilment_score == 5.0 and s.weights_used == {"rules": 0.32, "vlm": 0.48, "fulfilment": 0.2}
        assert s.score == pytest.approx((0.6 * 4 + 0.4 * 5 + 0.25 * 5) / 1.25, abs=1e-3)
        (again,) = score_with(cfg, CLEAN)  # the same rendered slides: judged from the cache
        assert server.calls == 2 and all(v["cached"] for v in again.judge)


def test_a_failing_judge_leaves_its_term_out_and_says_so(tmp_path):
    with FakeOpenAI(script=[{"status": 503}] * 20) as server:
        cfg = JudgeConfig(enabled=True, base_url=server.url, model="vlm", backoff_s=0.01, max_retries=1, cache_dir=None)
        (s,) = score_with(cfg, OVERLAP)
    assert s.vlm_score is None and s.terms_used == ["fulfilment", "rules"]
    assert s.reward == pytest.approx((0.4 * s.rule_score + 0.25 * s.fulfilment_score) / 0.65 / 5, abs=1e-3)
    assert "judge failed on 1/1 slide(s)" in s.reason and "HTTP 503" in s.reason


def test_trl_reward_function_scores_completions_and_explains():
    prompts = [[{"role": "user", "content": "slides"}]] * 3
    completions = [[{"role": "assistant", "content": f"```json\n{CLEAN}\n```"}],
                   [{"role": "assistant", "content": OVERLAP}],
                   [{"role": "assistant", "content": "Here are your slides!"}]]
    logged, rollouts = {}, RolloutLog()

    async def go():
        scorers = Scorers()
        try:
            return await ModalityReward("slide", scorers, SLIDE_SPEC, rollouts)(
                prompts=prompts, completions=completions, prompt_id=["a", "b", "c"], log_metric=logged.__setitem__)
        finally:
            await scorers.aclose()

    out = asyncio.run(go())
    assert out[0] == 1.0 and 0 < out[1] < out[0] and out[2] == 0.0
    assert logged["slide/valid_rate"] == pytest.approx(2 / 3) and logged["slide/rules/collisions"] < 5
    rows = {r["prompt_id"]: r for r in rollouts.take()}
    assert rows["c"]["reward"] == 0.0 and rows["c"]["reason"].startswith("contract: no JSON object")


def test_concurrent_decks_share_the_renderers_pages():
    """Distill and GRPO score many decks at once: they must queue for the `pages` pages, not each
    open one (30 pages loading at once in one Chromium time out)."""

    async def go():
        async with Scorers(ScoringSettings(workers=2)) as scorers:
            # 12 distinct items (identical ones would be scored once): the same deck for 12 requests
            scores = await scorers.score([ScoreItem("slide", CLEAN, f"lesson {k}") for k in range(12)])
            return scores, len(scorers.slides.renderer._opened)

    scores, opened = asyncio.run(go())
    assert [s.gate for s in scores] == ["pass"] * 12 and opened == 2
