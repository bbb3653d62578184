"""The one OpenAI-compatible chat client: bounded concurrency, rate limit, retries, disk cache.

Teachers, the vision judge, the filter's LLM route and outside systems in evaluate all use it
(`ChatClient`, below, is its synchronous face). Scoring a GRPO batch or distilling
K candidates per prompt means hundreds of independent calls whose latency is the endpoint's,
not ours; a thread per call does not scale and gives no single place to bound what we send.
Here one event loop keeps up to `concurrency` requests in flight, spaces them to `rate_per_s`,
retries what is worth retrying (honouring Retry-After), and answers repeated questions from the
disk cache without a call.

The key comes from the environment variable *named* by `cfg.api_key_env`; it is never logged.
vLLM servers, hosted APIs and the tests' local server are interchangeable.
"""

from __future__ import annotations

import asyncio
import base64
import email.utils
import logging
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from cogevol.llm.cache import DiskCache, SingleFlight
from cogevol.llm.client import RETRYABLE_STATUS, EndpointConfig, EndpointError, EndpointRefused

log = logging.getLogger(__name__)

MAX_RETRY_AFTER_S = 120.0  # a server asking for longer is treated as down for this attempt


def image_part(png: bytes, detail: str | None = None) -> dict:
    """An OpenAI `image_url` content part carrying the PNG inline as a data URL.

    Inline because judge servers (vLLM, hosted APIs) cannot reach our files, and because the
    image bytes then become part of the cache key through the message content.
    """
    url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    part: dict[str, Any] = {"type": "image_url", "image_url": {"url": url}}
    if detail:
        part["image_url"]["detail"] = detail
    return part


@dataclass
class ClientStats:
    """Counters for one client; `summary()` is what benchmarks and stage metrics log."""

    requests: int = 0  # chat() calls
    calls: int = 0  # HTTP attempts actually sent (retries included, cache hits excluded)
    cache_hits: int = 0  # answered from the disk cache
    coalesced: int = 0  # answered by joining an identical request already in flight
    retries: int = 0  # attempts after the first, over all requests
    failures: int = 0  # chat() calls that ended in EndpointError
    in_flight: int = 0
    max_in_flight: int = 0
    latency: list[float] = field(default_factory=list)  # seconds per HTTP attempt that got a reply

    def summary(self) -> dict:
        lat = sorted(self.latency)

        def q(f: float) -> float | None:
            return round(lat[min(len(lat) - 1, int(f * len(lat)))], 4) if lat else None

        return {
            "requests": self.requests,
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "coalesced": self.coalesced,
            "retries": self.retries,
            "failures": self.failures,
            "max_in_flight": self.max_in_flight,
            "latency_p50_s": q(0.5),
            "latency_p90_s": q(0.9),
            "latency_max_s": q(1.0),
        }


class TokenBucket:
    """`rate` tokens per second, at most `burst` saved up; acquire() waits for one.

    Kept as a schedule of slots (the virtual-scheduling form of a token bucket): each caller
    books the next free slot and sleeps until it. Callers are served in arrival order, and a
    late wake-up does not push later slots back, so the long-run rate is `rate`, not `rate`
    minus the event loop's sleep overshoot.
    """

    def __init__(self, rate: float, burst: float = 1.0):
        if rate <= 0:
            raise ValueError("rate must be positive (use None for unlimited)")
        self.rate, self.burst = float(rate), max(1.0, float(burst))
        self._next = time.monotonic()  # the earliest time the next slot may start

    async def acquire(self) -> None:
        now = time.monotonic()
        # idle time earns at most `burst` slots of credit
        self._next = max(self._next, now - (self.burst - 1.0) / self.rate)
        wait = self._next - now
        self._next += 1.0 / self.rate
        if wait > 0:
            await asyncio.sleep(wait)


def retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or an HTTP date); None if absent/bad."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class _Retry(Exception):
    def __init__(self, why: str, wait: float | None = None):
        super().__init__(why)
        self.why, self.wait = why, wait


class AsyncChatClient:
    """Chat completions over one `httpx.AsyncClient`; see the module docstring.

    concurrency: requests in flight at most (also the connection pool size); default
    cfg.concurrency.
    rate_per_s: HTTP attempts per second at most (token bucket, burst 1); default cfg.rate_per_s.
    cache: answers are stored and looked up there; identical concurrent requests share one call.
    transport: for tests or custom networking; the default is httpx's.
    """

    def __init__(
        self,
        cfg: EndpointConfig,
        concurrency: int | None = None,
        rate_per_s: float | None = None,
        cache: DiskCache | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ):
        concurrency = cfg.concurrency if concurrency is None else concurrency
        rate_per_s = cfg.rate_per_s if rate_per_s is None else rate_per_s
        if concurrency < 1:
            raise ValueError("concurrency must be >= 1")
        self.cfg, self.concurrency, self.cache = cfg, concurrency, cache
        self.stats = ClientStats()
        self._sem = asyncio.Semaphore(concurrency)
        self._bucket = TokenBucket(rate_per_s) if rate_per_s else None
        self._flights = SingleFlight()
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(cfg.api_key_env, "") if cfg.api_key_env else ""
        if key:
            headers["Authorization"] = f"Bearer {key}"
        limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        self._http = httpx.AsyncClient(
            base_url=cfg.base_url.rstrip("/"),
            headers=headers,
            timeout=httpx.Timeout(cfg.timeout_s),
            limits=limits,
            transport=transport,
        )

    async def aclose(self) -> None:
        await self._flights.cancel_all()
        await self._http.aclose()

    async def __aenter__(self) -> AsyncChatClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def body(
        self, messages: list[dict], json_mode: bool = False, extra_body: dict | None = None
    ) -> dict:
        """The request body; the endpoint's `extra_body` (e.g. vLLM's `chat_template_kwargs`), then
        this call's, win over the defaults."""
        body: dict[str, Any] = {
            "model": self.cfg.model,
            "messages": messages,
            "temperature": self.cfg.temperature,
            "max_tokens": self.cfg.max_tokens,
        }
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        body.update(self.cfg.extra_body)
        body.update(extra_body or {})
        return body

    def cache_key(
        self,
        messages: list[dict],
        *,
        json_mode: bool = False,
        cache_parts: dict | None = None,
        extra_body: dict | None = None,
    ) -> str:
        """Everything that determines the answer, nothing that does not (not base_url, not key).

        Images are in `messages` as data URLs, so a different picture is a different key. Give
        `cache_parts` (e.g. {"sample": k}) to keep deliberately repeated samples apart.
        """
        return DiskCache.key(
            kind="chat",
            model=self.cfg.model,
            messages=messages,
            temperature=self.cfg.temperature,
            max_tokens=self.cfg.max_tokens,
            json_mode=json_mode,
            extra_body={**self.cfg.extra_body, **(extra_body or {})},
            cache_parts=cache_parts or {},
        )

    async def chat(
        self,
        messages: list[dict],
        *,
        json_mode: bool = False,
        cache_parts: dict | None = None,
        extra_body: dict | None = None,
    ) -> str:
        """The assistant message content.

        Raises EndpointError at once on a non-retryable 4xx, or after `cfg.max_retries` retries
        of transport errors, timeouts, 408/409/425/429/5xx and malformed bodies.
        """
        self.stats.requests += 1
        body = self.body(messages, json_mode, extra_body)
        if self.cache is None:
            return await self._send(body)
        key = self.cache_key(
            messages, json_mode=json_mode, cache_parts=cache_parts, extra_body=extra_body
        )
        hit = self.cache.get(key)
        if hit is not None and isinstance(hit.get("content"), str):
            self.stats.cache_hits += 1
            return hit["content"]

        async def fetch() -> str:
            content = await self._send(body)
            self.cache.try_put(key, {"content": content, "model": self.cfg.model})
            return content

        content, shared = await self._flights.run(key, fetch)
        if shared:
            self.stats.coalesced += 1
        return content

    async def _send(self, body: dict) -> str:
        cfg = self.cfg
        last = ""
        for attempt in range(cfg.max_retries + 1):
            try:
                return await self._attempt(body)
            except _Retry as r:
                last = r.why
                if attempt == cfg.max_retries:
                    break
                delay = cfg.backoff_s * 2**attempt * (0.5 + random.random())
                if r.wait is not None:  # the server said when; a little jitter avoids a herd
                    delay = min(r.wait, MAX_RETRY_AFTER_S) * (1 + 0.1 * random.random())
                self.stats.retries += 1
                # info, not warning: under load 429s are routine; stats.retries counts them and
                # a request that finally fails is one EndpointError
                log.info(
                    "endpoint %s: retry %d/%d in %.2fs after %s",
                    cfg.base_url,
                    attempt + 1,
                    cfg.max_retries,
                    delay,
                    r.why,
                )
                await asyncio.sleep(delay)  # outside the semaphore: others use the slot meanwhile
            except EndpointError:
                self.stats.failures += 1
                raise
        self.stats.failures += 1
        raise EndpointError(
            f"{cfg.base_url} ({cfg.model}) gave no answer after "
            f"{cfg.max_retries + 1} attempts; last: {last}"
        )

    async def _attempt(self, body: dict) -> str:
        """One HTTP attempt: the content, or _Retry(why), or EndpointError for a hard 4xx."""
        async with self._sem:
            if self._bucket is not None:
                await self._bucket.acquire()
            st = self.stats
            st.calls += 1
            st.in_flight += 1
            st.max_in_flight = max(st.max_in_flight, st.in_flight)
            t0 = time.perf_counter()
            try:
                r = await self._http.post("/chat/completions", json=body)  # body read in full
            except httpx.TimeoutException as e:
                raise _Retry(f"timeout after {self.cfg.timeout_s}s ({type(e).__name__})") from e
            except httpx.HTTPError as e:
                raise _Retry(f"{type(e).__name__}: {e}") from e
            finally:
                st.in_flight -= 1
            st.latency.append(time.perf_counter() - t0)
        if r.status_code in RETRYABLE_STATUS or r.status_code >= 500:
            wait = retry_after(r.headers.get("Retry-After"))
            after = f" (Retry-After {wait:.2f}s)" if wait is not None else ""
            raise _Retry(f"HTTP {r.status_code}{after}", wait)
        if r.status_code >= 400:
            raise EndpointRefused(
                f"HTTP {r.status_code} from {self.cfg.base_url} (not retried): {r.text[:300]}",
                r.status_code,
            )
        try:
            msg = r.json()["choices"][0]["message"]
            content = msg.get("content")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
            raise _Retry(f"malformed response body ({type(e).__name__}): {r.text[:120]!r}") from e
        if content is not None and not isinstance(content, str):
            raise _Retry(f"malformed response body: content is {type(content).__name__}")
        return content or ""


class ChatClient:
    """The synchronous face of AsyncChatClient, for callers without an
    event loop: the same retries (Retry-After honoured, 5xx retried, other 4xx not), one request
    at a time. Callers with many requests should use the async client directly."""

    def __init__(self, cfg: EndpointConfig):
        self.cfg = cfg

    def close(self) -> None:
        """Nothing to close: each call opens and closes its own connection."""

    def __enter__(self) -> ChatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def chat(self, messages: list[dict], json_mode: bool = False) -> str:
        """The assistant message content; raises EndpointError when the endpoint gives none."""

        async def once() -> str:
            async with AsyncChatClient(self.cfg, concurrency=1) as client:
                return await client.chat(messages, json_mode=json_mode)

        return asyncio.run(once())
