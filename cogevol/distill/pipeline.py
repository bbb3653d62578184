"""Browser-verified distillation: teacher candidates -> executed -> admitted -> SFT records.

Seed 000, stage 1: a teacher's output enters the SFT set only after it has been executed. Per
prompt: K candidates from each teacher; the artifact is extracted (an HTML document, or a deck
under the slide contract); HTML is run by the probe (a hard-failed page is never admitted) and
slides are rendered and scored by the rule engine (and the judge when one is configured); the
best admitted candidates become chat records whose system prompt states the output contract.
Mined production failures are regenerated the same way, first. Every candidate is written with
its scores and decision, so rejections are auditable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path

from cogevol.core import shards
from cogevol.core.config import from_dict
from cogevol.core.progress import Progress
from cogevol.distill.teacher import NOT_IN_REPLAY, Candidate, TeacherConfig, make_teacher
from cogevol.prompts import system_prompt
from cogevol.scoring.extract import extract_html
from cogevol.scoring.types import Score, ScoreItem
from cogevol.slides.contract import ContractError, extract_json
from cogevol.taxonomy.strata import stratified_order, stratum

log = logging.getLogger(__name__)


DRAWS = ("stratified", "random")


@dataclass
class DistillConfig:
    """params.yaml: distill (the teachers are a list of TeacherConfig)."""

    teachers: list[TeacherConfig] = field(default_factory=list)
    max_prompts: int = 40
    slide_share: float = 0.4
    failures_first: bool = True
    keep_per_prompt: int = 1
    html_min_reward: float = 0.75
    slide_min_reward: float = 0.8
    max_answer_chars: int | None = 2000
    seed: int = 0
    draw: str = "stratified"

    def __post_init__(self) -> None:
        if self.draw not in DRAWS:
            raise ValueError(f"distill.draw must be one of {', '.join(DRAWS)}, not {self.draw!r}")

    @classmethod
    def from_params(cls, d: dict) -> DistillConfig:
        d = dict(d)
        teachers = [TeacherConfig.from_params(t) for t in d.pop("teachers", [])]
        return replace(from_dict(cls, d), teachers=teachers)


@dataclass
class Prompt:
    id: str
    request: str
    modality: str  # slide | html
    subcategory: str = ""
    lang: str = ""
    is_failure: bool = False
    # the request's checklist as planned by the filter stage (JSON); "": planned at score time
    checklist: str = ""
    # the filter stage's labels (cogevol.taxonomy): task type, difficulty, language
    taxonomy: dict = field(default_factory=dict)

    def messages(self) -> list[dict]:
        return [
            {"role": "system", "content": system_prompt(self.modality)},
            {"role": "user", "content": self.request},
        ]


def load_prompts(prompts_path: str | Path, failures_path: str | Path | None = None) -> list[Prompt]:
    """Curated prompts; those whose production answer failed (data/mined/failures.jsonl) flagged."""
    failed = set()
    if failures_path and shards.exists(failures_path):
        failed = {r["id"] for r in shards.iter_jsonl(failures_path)}
    out = []
    for n, r in enumerate(shards.iter_jsonl(prompts_path), 1):
        missing = [k for k in ("id", "prompt", "category") if k not in r]
        if missing:  # the filter stage writes `prompt` (the miner's `request` is renamed there)
            raise ValueError(
                f"{prompts_path}: record {n}: a curated prompt needs {', '.join(missing)}"
            )
        out.append(
            Prompt(
                id=r["id"],
                request=r["prompt"],
                modality=r["category"],
                subcategory=r.get("subcategory", ""),
                lang=r.get("lang", ""),
                is_failure=r["id"] in failed,
                checklist=json.dumps(r["checklist"], ensure_ascii=False)
                if r.get("checklist")
                else "",
                taxonomy=r.get("taxonomy") or {},
            )
        )
    return out


def select(prompts: list[Prompt], cfg: DistillConfig, available: set[str] | None) -> list[Prompt]:
    """Up to max_prompts, slide_share of them slides, failures first, the rest sampled by seed:
    stratified on L1 x L2 x difficulty (`draw: stratified`, seed 004 A.6) or uniformly."""
    pool = [p for p in prompts if available is None or p.id in available]
    rng = random.Random(cfg.seed)
    want = {"slide": round(cfg.max_prompts * cfg.slide_share)}
    want["html"] = cfg.max_prompts - want["slide"]
    chosen = []
    for modality, n in want.items():
        cands = sorted((p for p in pool if p.modality == modality), key=lambda p: p.id)
        if cfg.draw == "stratified":
            cands = stratified_order(cands, cfg.seed, key=lambda p: stratum(p.taxonomy))
        else:
            rng.shuffle(cands)
        if cfg.failures_first:
            cands.sort(key=lambda p: not p.is_failure)  # stable: shuffled order within each group
        chosen += cands[:n]
    return sorted(chosen, key=lambda p: p.id)


class Outcome(str, Enum):
    """What happened to a candidate; the value is the class counted in `rejected_by_reason`."""

    PENDING = "pending"  # not executed yet
    ADMITTED = "admitted"
    # executed, passed the gate, scored under the modality's threshold
    BELOW_THRESHOLD = "below threshold"
    TOO_LONG = "too long"  # longer than the student can write (max_answer_chars): not executed
    HARD_FAIL = "hard fail"  # an HTML page not alive the way the request asks
    CONTRACT = "contract"  # a deck breaking the slide contract
    NO_DOCUMENT = "no HTML document"  # no page in the answer
    HARNESS_ERROR = "harness error"  # no verdict: the harness's fault, not the answer's
    TEACHER_ERROR = "teacher endpoint"  # the teacher did not answer
    NOT_IN_REPLAY = "not in replay"  # the replay file has no such answer: not a rejection


@dataclass
class Scored:
    prompt: Prompt
    cand: Candidate
    artifact: str | None
    score: float | None = None  # the reward, 0..1, for pages and decks alike
    kept: bool = False  # among the best keep_per_prompt admitted candidates: in the SFT set
    reason: str = ""
    details: dict = field(default_factory=dict)
    outcome: Outcome = Outcome.PENDING

    @property
    def admitted(self) -> bool:
        """Passed execution and the thresholds."""
        return self.outcome is Outcome.ADMITTED

    def record(self) -> dict:
        return {
            "prompt_id": self.prompt.id,
            "modality": self.prompt.modality,
            "subcategory": self.prompt.subcategory,
            "is_failure": self.prompt.is_failure,
            "teacher": self.cand.teacher,
            "candidate": self.cand.index,
            "score": self.score,
            "admitted": self.admitted,
            "kept": self.kept,
            "outcome": self.outcome.value,
            "reason": self.reason,
            **self.details,
        }


def extract_artifact(modality: str, response: str) -> tuple[str | None, str]:
    """The artifact to execute and to train on, or (None, why)."""
    if modality == "html":
        doc = extract_html(response)
        return (doc, "") if doc else (None, "no HTML document in the answer")
    try:
        obj = extract_json(response)
    except ContractError as e:
        return None, f"contract: {e}"
    # the training target is the deck alone, compact and canonical, as the contract asks
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")), ""


async def gather_candidates(prompts: list[Prompt], teachers: list) -> list[Scored]:
    progress = Progress(
        "distill: teacher answers", total=len(prompts) * len(teachers), unit="prompt-teacher"
    )

    async def ask(p: Prompt, t) -> list[Candidate]:
        got = await t.candidates(p.id, p.messages())
        progress.update()
        return got

    jobs = [(p, t) for p in prompts for t in teachers]
    answers = await asyncio.gather(*(ask(p, t) for p, t in jobs))
    progress.done()
    out = []
    for (p, _), cands in zip(jobs, answers):
        for c in cands:
            if c.response is None:
                missing = (
                    Outcome.NOT_IN_REPLAY if c.error == NOT_IN_REPLAY else Outcome.TEACHER_ERROR
                )
                out.append(Scored(p, c, None, reason=c.error, outcome=missing))
                continue
            artifact, why = extract_artifact(p.modality, c.response)
            failed = Outcome.CONTRACT if p.modality == "slide" else Outcome.NO_DOCUMENT
            out.append(
                Scored(
                    p,
                    c,
                    artifact,
                    reason=why,
                    score=None if artifact else 0.0,
                    outcome=Outcome.PENDING if artifact else failed,
                )
            )
    return out


async def execute(items: list[Scored], cfg: DistillConfig, scorers) -> None:
    """Run every extracted artifact on `scorers` (cogevol.scoring: any transport) and decide
    admission in place."""
    todo = [s for s in items if s.outcome is Outcome.PENDING]
    progress = Progress("distill: executed candidates", total=len(todo), unit="candidates")
    batch = [
        ScoreItem(
            s.prompt.modality, s.artifact, s.prompt.request, raw=True, checklist=s.prompt.checklist
        )
        for s in todo
    ]
    async for k, score in scorers.stream(batch):
        admit(todo[k], score, cfg)
        progress.update()
    progress.done()


def bar_too_long(items: list[Scored], limit: int | None) -> None:
    """Reject, before execution, every artifact longer than `limit` characters: SFT would cut it
    before its end and teach the student answers that never close, and the student could not
    write it in its completion budget anyway; executing it would only cost browser time."""
    if limit is None:
        return
    for s in items:
        if s.outcome is Outcome.PENDING and len(s.artifact) > limit:
            s.outcome = Outcome.TOO_LONG
            s.reason = (
                f"too long: {len(s.artifact)} characters > max_answer_chars {limit} (not executed)"
            )


def admit(s: Scored, score: Score, cfg: DistillConfig) -> None:
    """Decide one candidate from its Score: a harness error is nobody's verdict, a failed gate
    scores 0, a pass is admitted at the modality's threshold, both on the reward's 0..1 scale."""
    d = score.details
    if s.prompt.modality == "html":
        s.details = {
            k: d.get(k)
            for k in (
                "hard_fail",
                "reason_id",
                "rendered_ok",
                "terms",
                "controls_live",
                "controls_operable",
            )
        }
        value, threshold = score.reward, cfg.html_min_reward
    else:
        s.details = {k: d.get(k) for k in ("valid", "rule_score", "vlm_score", "rules")} | {
            "violations": (d.get("violations") or [])[:10]
        }
        value, threshold = score.reward, cfg.slide_min_reward
    if score.gate == "none":
        s.outcome, s.reason = (
            Outcome.HARNESS_ERROR,
            f"harness error: {score.harness_error or score.reason}",
        )
    elif score.gate == "fail":
        s.score = 0.0
        if s.prompt.modality == "html":
            s.outcome, s.reason = Outcome.HARD_FAIL, score.reason
        else:
            s.outcome, s.reason = Outcome.CONTRACT, score.reason
    else:
        s.score = value
        s.outcome = Outcome.ADMITTED if value >= threshold else Outcome.BELOW_THRESHOLD
        s.reason = (
            score.reason if s.admitted else f"reward {value:.2f} < {threshold}: {score.reason}"
        )


def keep_best(items: list[Scored], keep: int) -> list[Scored]:
    """The `keep` best admitted candidates of each prompt (ties: earlier teacher, lower index)."""
    by_prompt: dict[str, list[Scored]] = defaultdict(list)
    for s in items:
        if s.admitted:
            by_prompt[s.prompt.id].append(s)
    out = []
    for group in by_prompt.values():
        group.sort(key=lambda s: -s.score)  # stable: teacher order and candidate index break ties
        out += group[:keep]
    for s in out:
        s.kept = True
    return out


def sft_features():
    """The schema of data/sft/train, fixed so that an empty or partial run still loads the same."""
    from datasets import Features, Value

    return Features(
        {
            "messages": [{"role": Value("string"), "content": Value("string")}],
            "modality": Value("string"),
            "category": Value("string"),
            "prompt_id": Value("string"),
            "teacher": Value("string"),
            "candidate": Value("int32"),
            "score": Value("float64"),
            "reasons": Value("string"),
            "is_failure": Value("bool"),
            "lang": Value("string"),
        }
    )


def sft_record(s: Scored) -> dict:
    p = s.prompt
    return {
        "messages": [*p.messages(), {"role": "assistant", "content": s.artifact}],
        "modality": p.modality,
        "category": p.subcategory,
        "prompt_id": p.id,
        "teacher": s.cand.teacher,
        "candidate": s.cand.index,
        "score": float(s.score),
        "reasons": s.reason,
        "is_failure": p.is_failure,
        "lang": p.lang,
    }


def summarise(items: list[Scored], kept: list[Scored], prompts: list[Prompt]) -> dict:
    """Admission rates per modality, category and teacher (over the candidates a teacher gave:
    a replay file without a k-th answer is not a rejection); rejection reasons."""
    answered = [s for s in items if s.outcome is not Outcome.NOT_IN_REPLAY]

    def rates(key) -> dict:
        total, ok = Counter(), Counter()
        for s in answered:
            total[key(s)] += 1
            ok[key(s)] += s.admitted
        return {
            k: {"candidates": total[k], "admitted": ok[k], "rate": round(ok[k] / total[k], 3)}
            for k in sorted(total)
        }

    rejected = Counter(s.outcome.value for s in answered if not s.admitted)
    n_slide = sum(s.prompt.modality == "slide" for s in kept)
    return {
        "prompts": len(prompts),
        "failures_regenerated": sum(p.is_failure for p in prompts),
        "failures_admitted": sum(s.prompt.is_failure for s in kept),
        "candidates": len(answered),
        "unanswered": len(items) - len(answered),
        "admitted": sum(s.admitted for s in answered),
        "records": len(kept),
        "prompts_without_record": len(prompts) - len({s.prompt.id for s in kept}),
        "slide_share": round(n_slide / len(kept), 3) if kept else 0.0,
        "admission_rate": round(sum(s.admitted for s in answered) / len(answered), 3)
        if answered
        else 0.0,
        "by_modality": rates(lambda s: s.prompt.modality),
        "by_category": rates(lambda s: f"{s.prompt.modality}/{s.prompt.subcategory}"),
        "by_teacher": rates(lambda s: s.cand.teacher),
        "rejected_by_reason": dict(rejected.most_common()),
        "harness_errors": sum(s.outcome is Outcome.HARNESS_ERROR for s in items),
    }


def score_bins(items: list[Scored], width: float = 0.1) -> list[tuple[str, int]]:
    """Counts per modality and reward bin for `dvc plots`."""
    rows: dict[str, int] = {}
    for s in items:
        if s.score is None:
            continue
        lo = min(int(s.score / width), int(1 / width) - 1) * width
        key = f"{s.prompt.modality} {lo:.1f}-{lo + width:.1f}"
        rows[key] = rows.get(key, 0) + 1
    return sorted(rows.items())


async def distill(
    prompts: list[Prompt], cfg: DistillConfig, scorers, teachers: list | None = None
) -> tuple[list[Scored], list[Scored], list[Prompt]]:
    """Select prompts, ask the teachers, execute on `scorers` (cogevol.scoring.open_scorers),
    admit. Returns (all candidates, kept, prompts). Closes the teachers and the scorers."""
    teachers = teachers or [make_teacher(t) for t in cfg.teachers]
    if not teachers:
        raise ValueError("distill: no teachers configured (params.yaml distill.teachers)")
    avail = [t.available() for t in teachers]
    available = None if any(a is None for a in avail) else set().union(*avail)
    chosen = select(prompts, cfg, available)
    log.info(
        "distill: %d prompts (%d slide, %d html, %d production failures) x %d teacher(s)",
        len(chosen),
        sum(p.modality == "slide" for p in chosen),
        sum(p.modality == "html" for p in chosen),
        sum(p.is_failure for p in chosen),
        len(teachers),
    )
    try:
        items = await gather_candidates(chosen, teachers)
    finally:
        for t in teachers:
            await t.aclose()
    bar_too_long(items, cfg.max_answer_chars)
    async with scorers:
        await execute(items, cfg, scorers)
    kept = keep_best(items, cfg.keep_per_prompt)
    return items, kept, chosen


def write_outputs(out_dir: str | Path, items: list[Scored], kept: list[Scored]) -> None:
    """data/sft: train/ (a `datasets` dataset), candidates.jsonl (every decision),
    rejected.jsonl."""
    from datasets import Dataset

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    records = [sft_record(s) for s in sorted(kept, key=lambda s: s.prompt.id)]
    Dataset.from_list(records, features=sft_features()).save_to_disk(str(out / "train"))
    with (
        open(out / "candidates.jsonl", "w", encoding="utf-8") as f,
        open(out / "rejected.jsonl", "w", encoding="utf-8") as rej,
    ):
        for s in items:
            line = json.dumps(s.record(), ensure_ascii=False) + "\n"
            f.write(line)
            if not s.admitted and s.outcome is not Outcome.NOT_IN_REPLAY:
                rej.write(line)
