"""The interactive-HTML reward as a TRL reward function.

`HtmlReward` keeps one browser pool alive across GRPO steps (launching Chromium per batch would
cost more than probing). It is usable as an async reward function (`await reward.score(...)`)
and as a plain callable with TRL's signature: `reward(prompts, completions, **kwargs)` returns
one float per completion, 0.0 with a logged reason when a completion holds no HTML document,
and None for a harness failure (TRL leaves None out of the reward, so a broken harness never
punishes the policy).
"""

from __future__ import annotations

import logging
import re

from cogevol.browser.pool import BrowserConfig, BrowserPool
from cogevol.probe.core import ProbeConfig
from cogevol.probe.runner import probe_all
from cogevol.rewards.background import BackgroundLoop, last_message

log = logging.getLogger(__name__)

_FENCE = re.compile(r"```(?:html|HTML)?\s*\n(.*?)```", re.S)
_DOC = re.compile(r"(<!DOCTYPE html.*?</html>|<html.*?</html>)", re.S | re.I)


def extract_html(completion) -> str | None:
    """The HTML document in a completion (string or chat messages), or None."""
    text = last_message(completion, "assistant")  # conversational: the last assistant message
    for block in _FENCE.findall(text):
        if "<" in block and re.search(r"<(html|body|div|canvas|button|script|svg|!doctype)", block, re.I):
            return block.strip()
    m = _DOC.search(text)
    if m:
        return m.group(1)
    if re.search(r"<(body|div|canvas|button|svg)\b", text, re.I):
        return text
    return None


class HtmlReward:
    __name__ = "html_probe_reward"  # TRL names reward columns after the function

    def __init__(self, workers: int = 1, cfg: ProbeConfig | None = None, browser: BrowserConfig | None = None,
                 weights: dict[str, float] | None = None, judge_cfg=None, terms=None):
        self.workers, self.cfg, self.weights = workers, cfg or ProbeConfig(), weights  # weights: params probe.weights
        self.terms = terms  # a cogevol.rewards.html.TermSettings (params probe.terms)
        self.judge_cfg = judge_cfg  # a cogevol.judge.vlm.JudgeConfig: adds the vlm_* terms
        self._judge = None
        self.browser = browser or BrowserConfig(instances=workers)
        self._loop = BackgroundLoop("html-reward")
        self._pool: BrowserPool | None = None
        self.last_details: list[dict] = []

    async def _ensure_pool(self) -> BrowserPool:
        if self._pool is None:
            self._pool = await BrowserPool(self.browser).__aenter__()
            if self.judge_cfg is not None:
                from cogevol.judge.vlm import VisionJudge

                self._judge = VisionJudge(self.judge_cfg)
        return self._pool

    async def score(self, completions: list, requests: list[str] | None = None) -> list[float | None]:
        pool = await self._ensure_pool()
        docs = [extract_html(c) for c in completions]
        items = [(str(k), d) for k, d in enumerate(docs) if d is not None]
        asks = {str(k): r for k, r in enumerate(requests or [])}
        results = {r["path"]: r for r in await probe_all(items, workers=self.workers, cfg=self.cfg, pool=pool,
                                                          weights=self.weights, judge=self._judge, requests=asks,
                                                          terms=self.terms)}
        out, details = [], []
        for k, d in enumerate(docs):
            if d is None:
                out.append(0.0)
                details.append({"reward": 0.0, "reason": "no HTML document in the completion"})
                continue
            r = results[str(k)]
            out.append(None if r["harness_error"] or r["no_reward"] else r["reward"])  # no_reward: probe.terms.unavailable none
            details.append(r)
        self.last_details = details
        return out

    def __call__(self, prompts=None, completions=None, **kwargs) -> list[float | None]:
        requests = [last_message(p, "user") for p in prompts] if prompts else None
        return self._loop.run(self.score(list(completions or []), requests))

    def close(self) -> None:
        async def shutdown() -> None:
            if self._judge is not None:
                await self._judge.aclose()
            if self._pool is not None:
                await self._pool.close()

        self._loop.run(shutdown())
        self._pool = self._judge = None
        self._loop.stop()
