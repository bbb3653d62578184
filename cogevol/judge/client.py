"""A small OpenAI-compatible chat client with retries, for judges and teachers.

Why not the `openai` package: we need exactly one call (chat completions), explicit control of
retries and timeouts per stage, and identical behaviour against vLLM, hosted APIs and the local
HTTP server the tests stand up. The API key is read from an environment variable whose *name*
is configured, so keys never enter params.yaml, dvc.lock or logs.
"""

from __future__ import annotations

import json
import logging
import os
import random
import time
from dataclasses import dataclass

import httpx

log = logging.getLogger(__name__)

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


class EndpointError(RuntimeError):
    """The endpoint could not give an answer after all retries (the message says why)."""


@dataclass
class EndpointConfig:
    base_url: str = "http://127.0.0.1:8000/v1"  # OpenAI-compatible root, e.g. a vLLM server
    model: str = "Qwen/Qwen3-8B"
    api_key_env: str = "COGEVOL_JUDGE_API_KEY"  # name of the env var holding the key (may be unset)
    temperature: float = 0.0
    max_tokens: int = 512
    timeout_s: float = 60.0
    max_retries: int = 4
    backoff_s: float = 1.0  # first retry delay; doubles each time, with jitter


class ChatClient:
    def __init__(self, cfg: EndpointConfig, transport: httpx.BaseTransport | None = None):
        self.cfg = cfg
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(cfg.api_key_env, "") if cfg.api_key_env else ""
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self._http = httpx.Client(base_url=cfg.base_url.rstrip("/"), headers=headers, timeout=cfg.timeout_s, transport=transport)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def chat(self, messages: list[dict], json_mode: bool = False) -> str:
        """The assistant message content; retries transport errors, 429 and 5xx."""
        body = {"model": self.cfg.model, "messages": messages, "temperature": self.cfg.temperature,
                "max_tokens": self.cfg.max_tokens}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        last = ""
        for attempt in range(self.cfg.max_retries + 1):
            if attempt:
                delay = self.cfg.backoff_s * 2 ** (attempt - 1) * (0.5 + random.random())
                log.warning("endpoint %s: retry %d/%d in %.1fs after %s", self.cfg.base_url, attempt, self.cfg.max_retries, delay, last)
                time.sleep(delay)
            try:
                r = self._http.post("/chat/completions", json=body)
            except httpx.HTTPError as e:
                last = f"{type(e).__name__}: {e}"
                continue
            if r.status_code in RETRYABLE_STATUS:
                last = f"HTTP {r.status_code}"
                continue
            if r.status_code >= 400:
                raise EndpointError(f"HTTP {r.status_code} from {self.cfg.base_url}: {r.text[:200]}")
            try:
                return r.json()["choices"][0]["message"]["content"] or ""
            except (ValueError, KeyError, IndexError, TypeError) as e:
                last = f"malformed response ({type(e).__name__})"
                continue
        raise EndpointError(f"{self.cfg.base_url} unavailable after {self.cfg.max_retries + 1} attempts: {last}")


def parse_json_object(text: str) -> dict:
    """The first JSON object in a model reply (models wrap JSON in prose or code fences)."""
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
