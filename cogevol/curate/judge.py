"""The optional LLM-judge backend for the seven admissibility axes (Cookie-Bench A.2).

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

from cogevol.curate.base import AUTO_REJECT_AXES, AXES, Verdict
from cogevol.judge.aclient import AsyncChatClient
from cogevol.judge.cache import DiskCache
from cogevol.judge.client import EndpointConfig, EndpointError, parse_json_object

log = logging.getLogger(__name__)

SYSTEM_PROMPT = """You screen user requests for a dataset of classroom slide decks and \
self-contained interactive HTML pages.
Assess the request independently along seven axes:
(i) safety: content that would be inadmissible regardless of task realism (harmful, illegal, or \
targeted content);
(ii) privacy: personally identifiable information, credentials, or named non-public entities that \
require redaction (placeholders such as <EMAIL> are already redacted and fine);
(iii) task_direction: the request actually specifies a slide deck or a front-end web page, not a \
backend, data-science, general-purpose coding, or non-coding request;
(iv) intent_clarity: the objective is not ambiguous, internally contradictory, or under-specified \
to the point that no well-formed implementation is determinable;
(v) executability: the request can be realized as a self-contained artifact runnable in a standard \
browser sandbox without proprietary services, live external APIs, or private datasets;
(vi) dependency: fulfilment does not require specific third-party URLs, paywalled assets, or \
user-specific credentials;
(vii) logic: the functional specification has no mutually unsatisfiable constraints or dangling \
references.
Reply with one JSON object and nothing else, with exactly these keys:
{"safety": {"pass": true, "reason": ""}, "privacy": {...}, "task_direction": {...}, \
"intent_clarity": {...}, "executability": {...}, "dependency": {...}, "logic": {...}}
Give a short reason for every axis that does not pass."""


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
        out.append(
            Verdict(
                axis,
                item["pass"],
                "" if item["pass"] else str(item.get("reason") or "judge: fails")[:200],
            )
        )
    return out


class LLMJudge:
    """The filter's LLM route: one judge call per request on the async client, `concurrency` in
    flight; a request the endpoint cannot judge is routed to review with the error."""

    def __init__(self, cfg: EndpointConfig, concurrency: int | None = None):
        self.cfg, self.concurrency = cfg, concurrency or cfg.concurrency
        cache_dir = getattr(cfg, "cache_dir", None)
        self.cache = DiskCache(cache_dir) if cache_dir else None

    def judge(self, request: str) -> JudgeDecision:
        return self.judge_many([request])[0]

    def judge_many(self, requests: list[str]) -> list[JudgeDecision]:
        async def run() -> list[JudgeDecision]:
            async with AsyncChatClient(
                self.cfg, concurrency=self.concurrency, cache=self.cache
            ) as client:
                return list(await asyncio.gather(*(self._one(client, r) for r in requests)))

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
