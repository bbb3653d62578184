"""Scoring on a `cogevol serve` service: the same interface as in-process `Scorers`.

A batch is split into requests of `batch_items` items, sent concurrently, and answered in
order. What is worth retrying is retried with backoff: transport errors, 429 (after the
service's Retry-After) and 503 (a service still starting or being replaced). A batch that still
fails raises ScoringServiceError naming the URL and the last answer; a 4xx other than 429 is
not retried (the request itself is wrong). The bearer token comes from the env var named by
scoring.token_env and is never logged.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import asdict

import httpx

from cogevol.core.errors import CogevolError
from cogevol.llm.aclient import retry_after
from cogevol.scoring.base import ScorersBase, in_chunks
from cogevol.scoring.fingerprint import FingerprintMismatch, check_same
from cogevol.scoring.types import GroupScores, Score, ScoreGroup, ScoreItem

log = logging.getLogger(__name__)
RETRY_STATUS = (429, 502, 503, 504)


class ScoringServiceError(CogevolError, RuntimeError):
    """The scoring service did not answer a batch after the retries (the message says why)."""


class HttpScorers(ScorersBase):
    """`expect`: the caller's fingerprint parts (cogevol.scoring.fingerprint.fingerprint_parts of
    its own settings). On open, the service's /health fingerprint must match it, and every score
    that comes back must carry it; otherwise FingerprintMismatch, before a page is sent or a
    score used. None (a caller without settings of its own): take the service's as they are."""

    def __init__(
        self,
        url: str,
        token: str | None = None,
        timeout_s: float = 900.0,
        max_retries: int = 4,
        batch_items: int = 64,
        backoff_s: float = 1.0,
        expect: dict[str, str] | None = None,
    ):
        self.url = url.rstrip("/")
        self.token, self.timeout_s, self.max_retries = token, timeout_s, max_retries
        self.batch_items, self.backoff_s = max(1, batch_items), backoff_s
        self.expect = expect
        self.parts: dict[str, str] | None = None  # the service's, once open
        self._client: httpx.AsyncClient | None = None

    @classmethod
    def from_config(cls, cfg, expect: dict[str, str]) -> HttpScorers:
        """From a cogevol.scoring.transports.ScoringConfig and the caller's fingerprint parts."""
        return cls(
            cfg.url,
            os.environ.get(cfg.token_env) or None,
            cfg.timeout_s,
            cfg.max_retries,
            cfg.batch_items,
            expect=expect,
        )

    async def open(self) -> None:
        if self._client is None:
            headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
            client = httpx.AsyncClient(
                base_url=self.url,
                headers=headers,
                timeout=self.timeout_s,
                limits=httpx.Limits(max_connections=64),
            )
            try:
                self.parts = await self._health(client)
                if self.expect is not None:
                    check_same(self.expect, self.parts, f"the scoring service at {self.url}")
            except BaseException:
                await client.aclose()
                raise
            self._client = client

    async def _health(self, client: httpx.AsyncClient) -> dict[str, str]:
        """The service's fingerprint parts from /health, waiting (with backoff) while it starts."""
        last = ""
        for attempt in range(self.max_retries + 1):
            try:
                r = await client.get("/health")
                if r.status_code == 200:
                    body = r.json()
                    if not body.get("fingerprint"):
                        return {}  # an older service: check_same refuses it
                    return body.get("fingerprint_parts") or {"fingerprint": body["fingerprint"]}
                last = f"HTTP {r.status_code}: {r.text[:200]}"
            except httpx.TransportError as e:
                last = f"{type(e).__name__}: {e}"
            if attempt < self.max_retries:
                await asyncio.sleep(self.backoff_s * 2**attempt * (0.5 + random.random()))
        raise ScoringServiceError(
            f"{self.url}/health: not ready after {self.max_retries + 1} attempts ({last})"
        )

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def _stream(self, items: Sequence[ScoreItem]) -> AsyncIterator[tuple[int, Score]]:
        """(index, Score) per item, a request's worth at a time as requests finish."""
        await self.open()
        async for pair in in_chunks(items, self.batch_items, self._post):
            yield pair

    async def _post(self, items: list[ScoreItem]) -> list[Score]:
        body = await self._send("/score", {"items": [asdict(i) for i in items]})
        scores = [Score.from_json(s) for s in body["scores"]]
        if len(scores) != len(items):
            raise ScoringServiceError(f"{self.url}: {len(scores)} scores for {len(items)} items")
        self._check_scores(scores, "/score")
        return scores

    async def score_groups(self, groups: Sequence[ScoreGroup]) -> list[GroupScores]:
        """Each group's Scores from `POST /score_group`, with the service's comparing judges;
        about `batch_items` items per request, groups never split."""
        await self.open()
        batches: list[list[ScoreGroup]] = [[]]
        for g in groups:
            if (
                batches[-1]
                and sum(len(x.texts) for x in batches[-1]) + len(g.texts) > self.batch_items
            ):
                batches.append([])
            batches[-1].append(g)

        async def one(batch: list[ScoreGroup]) -> list[GroupScores]:
            body = await self._send("/score_group", {"groups": [asdict(g) for g in batch]})
            out = [GroupScores.from_json(g) for g in body["groups"]]
            if [len(g.scores) for g in out] != [len(g.texts) for g in batch]:
                raise ScoringServiceError(f"{self.url}/score_group: the groups came back cut")
            for g in out:
                self._check_scores(g.scores, "/score_group")
            return out

        done = await asyncio.gather(*(one(b) for b in batches if b))
        return [g for part in done for g in part]

    def _check_scores(self, scores: list[Score], path: str) -> None:
        """Refuse scores made with settings other than ours (a service replaced mid-run)."""
        want = (self.expect or self.parts or {}).get("fingerprint")
        stray = next((s.fingerprint for s in scores if want and s.fingerprint != want), None)
        if stray is not None:
            raise FingerprintMismatch(
                f"{self.url}{path} answered with fingerprint {stray or 'none'}, "
                f"not {want}: refusing scores made with other settings"
            )

    async def _send(self, path: str, body: dict) -> dict:
        """The JSON answer to a POST, retrying transport errors, 429 (after its Retry-After)
        and 502-504."""
        last = ""
        for attempt in range(self.max_retries + 1):
            wait = self.backoff_s * 2**attempt * (0.5 + random.random())
            try:
                r = await self._client.post(path, json=body)
            except httpx.TransportError as e:
                last = f"{type(e).__name__}: {e}"
            else:
                if r.status_code == 200:
                    return r.json()
                last = f"HTTP {r.status_code}: {r.text[:200]}"
                if r.status_code not in RETRY_STATUS:
                    raise ScoringServiceError(f"{self.url}{path}: {last}")
                wait = retry_after(r.headers.get("retry-after")) or wait
            if attempt < self.max_retries:
                log.warning(
                    "scoring service %s: %s; retry %d/%d in %.1f s",
                    self.url,
                    last,
                    attempt + 1,
                    self.max_retries,
                    wait,
                )
                await asyncio.sleep(wait)
        raise ScoringServiceError(
            f"{self.url}{path}: no answer after {self.max_retries + 1} attempts ({last})"
        )
