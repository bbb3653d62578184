"""The OpenAI-compatible endpoint schema (EndpointConfig), its errors and reply parsing, for
judges, teachers, the filter and the checklist planner (the one HTTP client, and its synchronous
face ChatClient, live in cogevol.llm.aclient).

Why not the `openai` package: we need exactly one call (chat completions), explicit control of
retries and timeouts per stage, and identical behaviour against vLLM, hosted APIs and the local
HTTP server the tests stand up. The API key is read from an environment variable whose *name*
is configured, so keys never enter params.yaml, dvc.lock or logs.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from cogevol.core.errors import CogevolError
from cogevol.core.text import strip_thinking

log = logging.getLogger(__name__)

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class EndpointError(CogevolError, RuntimeError):
    """The endpoint could not give an answer after all retries (the message says why)."""


class EndpointRefused(EndpointError):
    """The endpoint answered and refused the request (a 4xx that no retry changes: a prompt
    past the model's context, a bad key): the request's fault or the setup's, not the
    network's, so callers that count their fallbacks by cause name it apart."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status

    @property
    def cause(self) -> str:
        return f"endpoint refused (HTTP {self.status})"


def failure_cause(e: EndpointError) -> str:
    """A short, countable cause of an endpoint failure: refused with its status, or unreachable."""
    return e.cause if isinstance(e, EndpointRefused) else "endpoint unreachable"


@dataclass(kw_only=True)
class EndpointConfig:
    """An OpenAI-compatible endpoint: the one schema behind filter.judge, judge,
    distill.teachers[] and evaluate.systems[] (those classes extend it with their own knobs and
    defaults). Each knob is explained in params.yaml, under filter.judge and judge."""

    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "Qwen/Qwen3-8B"
    api_key_env: str = "COGEVOL_JUDGE_API_KEY"
    temperature: float = 0.0
    max_tokens: int = 512
    timeout_s: float = 60.0
    max_retries: int = 4
    backoff_s: float = 1.0
    concurrency: int = 8
    rate_per_s: float | None = None  # HTTP attempts per second; None = unlimited
    # merged into every request body, e.g. {chat_template_kwargs: {enable_thinking: false}} for a
    # Qwen3 served by vLLM (a hosted API may refuse keys it does not know)
    extra_body: dict[str, Any] = field(default_factory=dict)


def parse_json_object(text: str) -> dict:
    """The first JSON object in a model's answer (models wrap JSON in prose or code fences; a
    reasoning model's thinking before it is skipped, drafts included)."""
    text = strip_thinking(text)
    start = text.find("{")
    while start != -1:
        depth = 0
        for k in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            if depth == 0:
                try:
                    obj = json.loads(text[start : k + 1])
                except json.JSONDecodeError:
                    break
                if isinstance(obj, dict):
                    return obj
                break
        start = text.find("{", start + 1)
    raise ValueError(f"no JSON object in reply: {text[:120]!r}")
