"""In-process scoring: one browser pool, one judge client, the HTML and the slide scorer.

`Scorers` is what every caller uses (distill, GRPO, evaluate, the ratings, the CLI, the HTTP
service and each Ray actor): built from params.yaml, opened once, asked for many batches, closed
once. Launching Chromium costs more than probing a page, so the pool lives as long as the
Scorers. It opens on first use too, on the event loop that uses it (TRL runs async reward
functions on a loop of its own).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field, replace

from cogevol.browser.pool import BrowserConfig, BrowserPool
from cogevol.core.config import check_weights, from_dict
from cogevol.probe import ProbeConfig
from cogevol.rewards.answer_format import answer_fault
from cogevol.rewards.html import DEFAULT_WEIGHTS as HTML_WEIGHTS
from cogevol.rewards.html import HtmlScorer, TermSettings, not_a_page
from cogevol.rewards.slide import SlideScorer
from cogevol.rewards.slide import settings as slide_settings
from cogevol.scoring.base import ScorersBase, in_chunks, split
from cogevol.scoring.extract import extract_html
from cogevol.scoring.fingerprint import fingerprint_parts
from cogevol.scoring.types import GroupScores, Score, ScoreGroup, ScoreItem

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ScoringSettings:
    """Everything a scorer needs, from params.yaml's probe, slides and judge groups. Picklable:
    Ray ships it to each actor."""

    workers: int = 1  # pages (and decks) in flight; one Chromium per worker
    probe: ProbeConfig = field(default_factory=ProbeConfig)
    browser: BrowserConfig = field(default_factory=BrowserConfig)
    weights: dict | None = None  # probe.weights (None: the defaults in cogevol.rewards.html)
    terms: TermSettings = field(default_factory=TermSettings)
    # SlideScorer keyword arguments (cogevol.rewards.slide.settings)
    slides: dict = field(default_factory=dict)
    judge: object | None = None  # a cogevol.judge.vlm.JudgeConfig when judge.enabled, else None
    # keep the first screenshot of each page / every slide in Score.images
    screenshots: bool = False

    @classmethod
    def from_params(cls, params: dict | None, workers: int | None = None) -> ScoringSettings:
        """`workers` overrides probe.workers (GRPO passes grpo.reward_workers, the CLI
        --workers)."""
        params = params or {}
        probe = params.get("probe") or {}
        workers = max(1, int(workers or probe.get("workers", 1)))
        judge = None
        if (params.get("judge") or {}).get("enabled"):
            from cogevol.judge.vlm import from_params

            judge = from_params(params["judge"])
        # weights are checked once, here (slides: in slide_settings): a misspelt weight fails at
        # load, not silently at the first page, and the scorers take the checked values as is
        return cls(
            workers=workers,
            probe=from_dict(ProbeConfig, probe.get("harness")),
            browser=from_dict(BrowserConfig, probe.get("browser")),
            weights=check_weights(probe.get("weights"), HTML_WEIGHTS, "probe.weights"),
            terms=from_dict(TermSettings, probe.get("terms")),
            slides=slide_settings(params.get("slides") or {}),
            judge=judge,
        )


class Scorers(ScorersBase):
    """Scores ScoreItems in process. Use as
    `async with Scorers(settings) as s: await s.score(items)`, or call `score` straight away (it
    opens on first use) and `aclose()` at the end."""

    def __init__(self, settings: ScoringSettings | None = None, judge=None):
        self.settings = settings or ScoringSettings()
        self.parts = fingerprint_parts(self.settings)  # every Score carries parts["fingerprint"]
        self._judge = judge  # a ready VisionJudge (tests); else one is built from settings.judge
        self._own_judge = judge is None
        self._pool: BrowserPool | None = None
        self.html: HtmlScorer | None = None
        self.slides: SlideScorer | None = None
        self._lock: asyncio.Lock | None = None
        self._references: dict[str, str] | None = None  # request -> reference page (anchor)
        self._anchors: dict[str, asyncio.Future] = {}  # request -> its anchor image, once

    async def open(self) -> None:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._pool is not None:
                return
            s = self.settings
            # one Chromium per worker
            pool = await BrowserPool(replace(s.browser, instances=s.workers)).__aenter__()
            if self._judge is None and s.judge is not None:
                from cogevol.judge.vlm import VisionJudge

                self._judge = VisionJudge(s.judge)
            probe = replace(s.probe, screenshot=True) if s.screenshots else s.probe
            self.html = HtmlScorer(
                pool, probe, s.weights, s.terms, judge=self._judge, pages=s.workers
            )
            slide_kw = {**s.slides, "pages": max(s.workers, int(s.slides.get("pages", 1)))}
            self.slides = SlideScorer(
                pool, judge=self._judge, screenshots=s.screenshots, **slide_kw
            )
            self._pool = pool

    async def aclose(self) -> None:
        """Close the slide renderer, the judge (if this object built it) and every Chromium."""
        if self.slides is not None:
            await self.slides.close()
        if self._judge is not None and self._own_judge:
            await self._judge.aclose()
            self._judge = None
        if self._pool is not None:
            await self._pool.close()
        self._pool = self.html = self.slides = None

    async def _stream(self, items: Sequence[ScoreItem]) -> AsyncIterator[tuple[int, Score]]:
        """(index, Score) as each item finishes: for progress on long batches."""
        await self.open()
        async for pair in in_chunks(items, 1, self._each):
            yield pair

    async def _each(self, chunk: list[ScoreItem]) -> list[Score]:
        return [await self.score_one(item) for item in chunk]

    async def score_one(self, item: ScoreItem) -> Score:
        score = await self._verdict(item)
        score.fingerprint = self.parts["fingerprint"]
        return score

    async def _verdict(self, item: ScoreItem) -> Score:
        await self.open()
        if item.modality == "html":
            doc = item.text if item.raw else extract_html(item.text)
            fault = answer_fault(item.text, doc)
            if fault is not None:  # not a page by its text: no browser needed
                return Score.of("html", not_a_page(fault))
            return Score.of("html", await self.html.score(doc, item.request, _stored(item)))
        return Score.of("slide", await self.slides.score(item.text, item.request, _stored(item)))

    async def score_groups(self, groups: Sequence[ScoreGroup]) -> list[GroupScores]:
        """Each group's Scores, with the comparing judges the judge group turns on (group pick,
        Visual Anchor: cogevol.scoring.group_judging) and, with any judge configured, what
        cogevol.judge.monitor watches (lengths and judge scores) in `GroupScores.judge`."""
        from cogevol.scoring.group_judging import judge_group

        out = split(groups, await self.score([it for g in groups for it in g.items()]))
        if self._judge is None:
            return out
        return list(
            await asyncio.gather(
                *(
                    judge_group(self._judge, g, gs.scores, self._weights(g.modality), self._anchor)
                    for g, gs in zip(groups, out)
                )
            )
        )

    def judge_counts(self) -> dict[str, int]:
        """The judge's counters (its client's calls, retries and failures; its verdicts, cache
        hits and repair turns); empty without a judge."""
        if self._judge is None:
            return {}
        c, v = self._judge.client.stats, self._judge.stats
        return {
            "calls": c.calls,
            "retries": c.retries,
            "failures": c.failures,
            "verdicts": v.verdicts,
            "cache_hits": v.cache_hits,
            "repairs": v.repairs,
        }

    def _weights(self, modality: str) -> dict[str, float]:
        return (self.html.weights or HTML_WEIGHTS) if modality == "html" else self.slides.weights

    async def _anchor(self, request: str) -> bytes | None:
        """The reference page's best state for `request` (cogevol.judge.anchor), worked out once
        per request: None when there is no reference, or it fails its own gate."""
        from cogevol.judge.anchor import request_key

        key = request_key(request)
        if key not in self._anchors:
            self._anchors[key] = asyncio.ensure_future(self._make_anchor(key, request))
        return await asyncio.shield(self._anchors[key])

    async def _make_anchor(self, key: str, request: str) -> bytes | None:
        from cogevol.judge.anchor import best_state, load_references
        from cogevol.judge.vlm import JudgeError

        if self._references is None:
            self._references = load_references(self._judge.cfg.anchor.references)
        page = self._references.get(key)
        if page is None:
            return None
        ref = await self.score_one(ScoreItem("html", page, request))
        if not ref.passed or not ref.images:
            log.warning("visual anchor: the reference page fails its own gate: %s", ref.reason)
            return None
        try:
            png, _ = await best_state(self._judge, request, ref.images)
        except JudgeError as e:
            log.warning("visual anchor: no anchor for a request (%s)", e)
            self._anchors.pop(key, None)  # asked again next time
            return None
        return png


def _stored(item: ScoreItem) -> dict | None:
    """The item's stored checklist, or None (the rules plan one from the request)."""
    import json

    return json.loads(item.checklist) if item.checklist else None


async def score_pages(
    pages: Sequence[tuple[str, str]],
    settings: ScoringSettings | None = None,
    requests: dict[str, str] | None = None,
    judge=None,
) -> list[dict]:
    """The probe's record for each (name, html) page file, in order, with "path": name: what
    `cogevol probe` prints, for benchmarks and tests over page corpora."""
    batch = [
        ScoreItem("html", html, (requests or {}).get(name, ""), raw=True) for name, html in pages
    ]
    async with Scorers(settings, judge=judge) as scorers:
        scores = await scorers.score(batch)
    return [{"path": name, **s.line()} for (name, _), s in zip(pages, scores)]
