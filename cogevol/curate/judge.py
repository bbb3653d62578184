"""The filter's LLM method (filter.method: llm): a judge for the seven admissibility axes
(Cookie-Bench A.2).

Each query is judged independently on every axis in one low-temperature call with a strict
JSON output. Decision rule from the paper: auto-reject if safety, privacy, executability or
logical completeness fails; auto-accept if all seven pass; otherwise route to expert review.
A judge that stays unreachable after retries routes the query to review with that reason:
nothing is silently accepted or lost. Verdicts are cached on disk (filter.judge.cache_dir): a
rerun, or a retried Ray task, asks nothing twice.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from cogevol.curate.axes import AUTO_REJECT_AXES, AXES, COUNT, judge_lines
from cogevol.curate.base import JUDGE, Verdict
from cogevol.llm.aclient import AsyncChatClient
from cogevol.llm.cache import DiskCache
from cogevol.llm.client import EndpointConfig, EndpointError, parse_json_object

log = logging.getLogger(__name__)

SYSTEM_PROMPT = (
    "You screen user requests for a dataset of classroom slide decks and self-contained "
    "interactive HTML pages.\n"
    f"Assess the request independently along {COUNT.get(len(AXES), len(AXES))} axes:\n"
    + judge_lines()
    + "\nReply with one JSON object and nothing else, with exactly these keys:\n"
    + "{"
    + ", ".join(
        f'"{a}": {{"pass": true, "reason": ""}}' if k == 0 else f'"{a}": {{...}}'
        for k, a in enumerate(AXES)
    )
    + "}\nGive a short reason for every axis that does not pass."
)


@dataclass(kw_only=True)
class FilterJudgeConfig(EndpointConfig):
    """params.yaml: filter.judge (the endpoint's fields, and where verdicts are cached)."""

    cache_dir: str | None = "data/cache/filter_judge"


@dataclass
class JudgeDecision:
    decision: str  # "accept" | "reject" | "route"
    verdicts: list[Verdict]
    error: str | None = None


def decide(verdicts: list[Verdict]) -> str:
    failed = {v.axis for v in verdicts if not v.keep}
    if failed & AUTO_REJECT_AXES:
        return "reject"
    return "route" if failed else "accept"


def parse_verdicts(reply: str) -> list[Verdict]:
    obj = parse_json_object(reply)
    out = []
    for axis in AXES:
        item = obj.get(axis)
        if isinstance(item, bool):
            item = {"pass": item}
        if not isinstance(item, dict) or not isinstance(item.get("pass"), bool):
            raise ValueError(f"judge reply lacks a boolean verdict for {axis}")
        detail = "" if item["pass"] else str(item.get("reason") or "fails")[:200]
        out.append(Verdict(axis, item["pass"], "" if item["pass"] else JUDGE, detail))
    return out


class LLMJudge:
    """The filter's LLM route: one judge call per request on the async client, `concurrency` in
    flight; a request the endpoint cannot judge is routed to review with the error."""

    def __init__(self, cfg: EndpointConfig, concurrency: int | None = None):
        self.cfg, self.concurrency = cfg, concurrency or cfg.concurrency
        self.endpoint_stats: dict = {}  # the last judge_many's calls, retries, failures
        cache_dir = getattr(cfg, "cache_dir", None)
        self.cache = DiskCache(cache_dir) if cache_dir else None

    def judge(self, request: str) -> JudgeDecision:
        return self.judge_many([request])[0]

    def judge_many(self, requests: list[str]) -> list[JudgeDecision]:
        async def run() -> list[JudgeDecision]:
            async with AsyncChatClient(
                self.cfg, concurrency=self.concurrency, cache=self.cache
            ) as client:
                try:
                    return list(await asyncio.gather(*(self._one(client, r) for r in requests)))
                finally:
                    self.endpoint_stats = client.stats.summary()

        return asyncio.run(run())

    async def _one(self, client: AsyncChatClient, request: str) -> JudgeDecision:
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": request},
        ]
        try:
            verdicts = parse_verdicts(await client.chat(messages, json_mode=True))
        except (EndpointError, ValueError) as e:
            log.warning("judge failed on a request: %s", e)
            return JudgeDecision("route", [], error=str(e)[:300])
        return JudgeDecision(decide(verdicts), verdicts)

    def close(self) -> None:
        """Nothing held between calls (kept for callers that close what they open)."""
