"""One label per request, whichever classifier placed it: task type (L1, L2, L3), difficulty
with its six dimension scores and amplifiers, language, which classifier (`llm` or `rules`) and
how confident it is.

The LLM classifier (cogevol.taxonomy.llm) places what it answers; the offline rules place the
rest and everything when no LLM is configured. Difficulty is always graded by the rubric on the
placed task type, and language by cogevol.core.langid, so both classifiers give the same fields.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import asdict, dataclass
from functools import lru_cache

from cogevol.core.langid import TRAFFIC, identify
from cogevol.llm.client import EndpointConfig
from cogevol.taxonomy.difficulty import Rubric, grade, load_rubric
from cogevol.taxonomy.rules import RulesClassifier
from cogevol.taxonomy.terms import TermSet
from cogevol.taxonomy.tree import Taxonomy, load

SOURCES = ("rules", "replay", "openai")
# a slide deck is not a web page: seed 004's WebDev taxonomy has no place for it, and a deck
# about photosynthesis is not an "Online PPT designer" (Visual & Layout Design, an editor)
SLIDE_DECK = "Slide deck"
# a request's language is read from its opening (the model's cost grows with the text; on the
# labelled slices 120 characters already identify every request: docs/taxonomy.md)
LANG_CHARS = 200


@dataclass(kw_only=True)
class TaxonomyConfig(EndpointConfig):
    """params.yaml `taxonomy`: which classifier places requests (module docstring), and for
    `openai` the teacher endpoint (the fields of cogevol.llm.client.EndpointConfig)."""

    source: str = "rules"
    replay_path: str = "data/taxonomy/replay.jsonl"
    base_url: str = "http://127.0.0.1:8001/v1"
    model: str = "Qwen/Qwen3-32B"
    api_key_env: str = "COGEVOL_TEACHER_API_KEY"
    temperature: float = 0.2
    max_tokens: int = 64
    timeout_s: float = 60.0
    concurrency: int = 16
    repair_attempts: int = 3
    cache_dir: str | None = "data/cache/taxonomy"

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(
                f"taxonomy.source must be one of {', '.join(SOURCES)}, not {self.source!r}"
            )


@dataclass(frozen=True)
class Label:
    l1: str
    l2: str
    l3: str
    difficulty: str
    dimensions: dict[str, str]
    amplifiers: tuple[int, ...]
    lang: str
    source: str
    confidence: float

    def to_json(self) -> dict:
        out = asdict(self)
        out["amplifiers"] = list(self.amplifiers)
        return out


@lru_cache(maxsize=1)
def _offline() -> tuple[Taxonomy, RulesClassifier, Rubric, TermSet]:
    """The taxonomy, the rules, the rubric, and every term of both in one set: a request is
    scanned once."""
    tax = load()
    rules, rubric = RulesClassifier(tax), load_rubric()
    return tax, rules, rubric, TermSet.build([*rules.entries, *rubric.entries])


def leaf_scores(request: str) -> dict[str, float]:
    """The offline rules' evidence for each task type (L3 leaf) in `request` (STRONG terms weigh
    3, cues 1): what the reward's gate reads to decide whether a page must change
    (cogevol.rewards.expects.expects_for)."""
    _, rules, _, terms = _offline()
    return rules.scores(terms.terms[k] for k in terms.matches(request))


def label_one(request: str, leaf: str | None = None, modality: str = "html") -> Label:
    """The label of one request: placed by the rules unless `leaf` (the LLM's answer) is given.
    A slide request (`modality` slide) is outside seed 004's WebDev taxonomy: it is labelled
    SLIDE_DECK at all three levels, graded by the same rubric with no task-type floor."""
    tax, rules, rubric, terms = _offline()
    hits = [terms.terms[k] for k in terms.matches(request)]
    if modality == "slide":
        path, source, confidence = (SLIDE_DECK,) * 3, "modality", 1.0
    else:
        if leaf is None:
            guess = rules.place(hits)
            leaf, source, confidence = guess.leaf, "rules", guess.confidence
        else:
            source, confidence = "llm", 1.0
        node = tax.leaf(leaf)
        path = (node.l1, node.l2, node.name)
    g = grade(hits, request, path[2], rubric)
    lang, _ = identify(request[:LANG_CHARS], TRAFFIC)
    return Label(*path, g.difficulty, g.dimensions, g.amplifiers, lang or "", source, confidence)


def classify(
    requests: list[str],
    cfg: TaxonomyConfig | None = None,
    transport=None,
    modalities: list[str] | None = None,
) -> tuple[list[Label], dict[str, int]]:
    """Label every request from `cfg`'s source (default: the rules): (labels in order, how many
    each classifier placed and why any fell back). `modalities` (html | slide per request;
    default all html): slide requests are labelled by their modality, never asked."""
    cfg = cfg or TaxonomyConfig()
    modalities = modalities or ["html"] * len(requests)
    slides = sum(m == "slide" for m in modalities)
    pages = [r for r, m in zip(requests, modalities) if m != "slide"]
    if cfg.source == "rules" or not pages:
        labels = [label_one(r, modality=m) for r, m in zip(requests, modalities)]
        return labels, {k: v for k, v in (("rules", len(pages)), ("modality", slides)) if v}
    from cogevol.taxonomy.llm import LLMClassifier

    async def run() -> list[str | None]:
        try:
            return await llm.classify_many(pages)
        finally:
            await llm.aclose()

    llm = LLMClassifier(
        cfg,
        _offline()[0],
        source=cfg.source,
        replay_path=cfg.replay_path,
        cache_dir=cfg.cache_dir,
        repair_attempts=cfg.repair_attempts,
        transport=transport,
    )
    answers = iter(asyncio.run(run()))
    labels = [
        label_one(r, modality=m) if m == "slide" else label_one(r, next(answers))
        for r, m in zip(requests, modalities)
    ]
    counts = Counter(llm.stats)
    if slides:
        counts["modality"] = slides
    return labels, dict(counts)
