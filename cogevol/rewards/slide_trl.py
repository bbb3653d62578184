"""The hybrid slide reward as a TRL reward function (the slide counterpart of HtmlReward).

One browser pool and one judge client live across GRPO steps. `reward(prompts, completions,
**kwargs)` returns one float per completion (0.0 for output that breaks the contract, with the
reason in `last_details`) and None for a harness failure, which TRL leaves out of the reward.
The judge sees the request (the last user message of the prompt) with each slide's screenshot.
"""

from __future__ import annotations

import asyncio

from cogevol.browser.pool import BrowserConfig, BrowserPool
from cogevol.rewards.background import BackgroundLoop, last_message
from cogevol.rewards.slide import SlideScorer
from cogevol.slides.rules import RuleConfig


class SlideReward:
    __name__ = "slide_reward"  # TRL names reward columns after the function

    def __init__(self, rules: RuleConfig | None = None, weights: dict[str, float] | None = None,
                 judge_cfg=None, workers: int = 1, browser: BrowserConfig | None = None):
        self.rules, self.weights, self.judge_cfg = rules, weights, judge_cfg
        self.workers = max(1, workers)
        self.browser = browser or BrowserConfig(instances=1)
        self._loop = BackgroundLoop("slide-reward")
        self._pool: BrowserPool | None = None
        self._scorer: SlideScorer | None = None
        self._judge = None
        self.last_details: list[dict] = []

    async def _ensure(self) -> SlideScorer:
        if self._scorer is None:
            self._pool = await BrowserPool(self.browser).__aenter__()
            if self.judge_cfg is not None:
                from cogevol.judge.vlm import VisionJudge

                self._judge = VisionJudge(self.judge_cfg)
            self._scorer = SlideScorer(self._pool, self.rules, self.weights, judge=self._judge, pages=self.workers)
        return self._scorer

    async def score(self, completions: list, requests: list[str] | None = None) -> list[float | None]:
        scorer = await self._ensure()
        requests = requests or [""] * len(completions)
        results = await asyncio.gather(*(scorer.score(last_message(c, "assistant"), r)
                                         for c, r in zip(completions, requests)))
        self.last_details = [r.record() for r in results]
        return [r.reward for r in results]

    def __call__(self, prompts=None, completions=None, **kwargs) -> list[float | None]:
        completions = list(completions or [])
        requests = [last_message(p, "user") for p in prompts] if prompts else None
        return self._loop.run(self.score(completions, requests))

    def close(self) -> None:
        async def shutdown() -> None:
            if self._scorer is not None:
                await self._scorer.close()
            if self._judge is not None:
                await self._judge.aclose()
            if self._pool is not None:
                await self._pool.close()

        self._loop.run(shutdown())
        self._scorer = self._pool = self._judge = None
        self._loop.stop()
