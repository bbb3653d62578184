"""The `mine` stage's library: production traffic in, curated request records out.

Per record: validate against the schema, scrub PII, classify, mine failure signals, and give
the result a stable id and its provenance. Bad records are quarantined with their reason and
counted; they never stop the run and nothing valid is dropped on their account.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from cogevol.core import shards
from cogevol.core.langid import identify, script_language
from cogevol.core.progress import Progress
from cogevol.pipeline.stage_counts import add_counts
from cogevol.traffic import pii
from cogevol.traffic.classify import classify
from cogevol.traffic.readers import RawRecord, read_all
from cogevol.traffic.schema import SchemaError, validate

log = logging.getLogger(__name__)


@dataclass
class MineConfig:
    """Thresholds that turn feedback into a regeneration candidate (params.yaml: mine)."""

    regen_threshold: int = 2
    edit_threshold: int = 3
    keep_off_scope: bool = False


@dataclass
class MineStats:
    read: int = 0
    valid: int = 0
    kept: int = 0
    quarantined: Counter = field(default_factory=Counter)
    categories: Counter = field(default_factory=Counter)
    subcategories: Counter = field(default_factory=Counter)
    langs: Counter = field(default_factory=Counter)
    failures: Counter = field(default_factory=Counter)
    pii: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    def merge(self, other: MineStats) -> None:
        """Add another piece's counts (the Ray engine mines chunk by chunk)."""
        add_counts(self, other, skip=("seconds",))

    def as_metrics(self) -> dict:
        return {
            "read": self.read,
            "valid": self.valid,
            "kept": self.kept,
            "quarantined": sum(self.quarantined.values()),
            "failures": self.failures.get("any", 0),
            "records_per_s": round(self.read / self.seconds, 1) if self.seconds else 0.0,
            "quarantine_reasons": dict(self.quarantined.most_common()),
            "categories": dict(self.categories),
            "subcategories": dict(self.subcategories),
            "langs": dict(self.langs.most_common()),
            "failure_signals": dict(self.failures),
            "pii": dict(self.pii),
        }


def stable_id(conversation_id: str) -> str:
    """Same conversation, same id, across reruns and machines."""
    return "r-" + hashlib.sha1(conversation_id.encode("utf-8")).hexdigest()[:16]


def failure_signals(feedback: dict, followups: int, cfg: MineConfig) -> list[str]:
    signals = []
    if feedback["thumb"] == "down":
        signals.append("thumb_down")
    if feedback["regenerations"] >= cfg.regen_threshold:
        signals.append("regenerated")
    if feedback["edit_count"] >= cfg.edit_threshold:
        signals.append("heavy_edits")
    if feedback["render_error"]:
        signals.append("render_error")
    if feedback["runtime_error"]:
        signals.append("runtime_error")
    if followups:
        signals.append("followup")
    return signals


def _read_reason(error: str) -> str:
    """Group reader errors into a few countable reasons (the detail stays in the file)."""
    for prefix, reason in (
        ("invalid JSON", "invalid_json"),
        ("invalid UTF-8", "invalid_utf8"),
        ("corrupt or truncated gzip", "truncated_gzip"),
        ("empty file", "empty_file"),
    ):
        if error.startswith(prefix):
            return reason
    return "unreadable_file"


def mine_records(
    raws: Iterable[RawRecord],
    cfg: MineConfig,
    stats: MineStats,
    root: Path | None = None,
    duplicates: dict[tuple[str, int], str] | None = None,
) -> Iterator[tuple[str, dict]]:
    """Yield (destination, record) with destination in requests / failures / off_scope /
    quarantine. A conversation id seen before is quarantined; `duplicates` says which records
    those are when the records are mined in pieces (the Ray engine: (source, line) -> where
    the id was first seen), else the ids seen so far do."""
    seen: dict[str, str] = {}
    sources: dict[str, str] = {}
    for raw in raws:
        stats.read += raw.line > 0
        source = sources.get(raw.source) or sources.setdefault(
            raw.source, relative_source(raw.source, root)
        )
        if raw.error is not None:
            reason = _read_reason(raw.error)
            stats.quarantined[reason] += 1
            yield (
                "quarantine",
                {
                    "source": source,
                    "line": raw.line,
                    "reason": reason,
                    "detail": raw.error,
                    "raw": raw.raw,
                },
            )
            continue
        try:
            conv = validate(raw.obj)
        except SchemaError as e:
            reason = e.reason
            stats.quarantined[reason] += 1
            yield (
                "quarantine",
                {
                    "source": source,
                    "line": raw.line,
                    "reason": reason,
                    "detail": str(e),
                    "raw": _dump_raw(raw.obj),
                },
            )
            continue
        where = f"{source}:{raw.line}"
        first = (
            seen.get(conv.conversation_id)
            if duplicates is None
            else duplicates.get((raw.source, raw.line))
        )
        if first is not None:
            stats.quarantined["duplicate_conversation_id"] += 1
            yield (
                "quarantine",
                {
                    "source": source,
                    "line": raw.line,
                    "reason": "duplicate_conversation_id",
                    "detail": f"conversation_id {conv.conversation_id!r} first seen at {first}",
                    "raw": None,
                },
            )
            continue
        seen[conv.conversation_id] = where
        stats.valid += 1

        request, response, followups = _turns(conv.messages)
        hits: Counter = Counter()
        request = pii.scrub(request, hits)
        response = pii.scrub(response, hits) if response else response
        stats.pii.update(hits)
        cls = classify(request, response)
        # the log's locale wins; else the model (cogevol.core.langid), else the script
        lang = (
            (conv.locale or "").split("-")[0].lower()
            or identify(request)[0]
            or script_language(request)
        )
        signals = failure_signals(conv.feedback, followups, cfg)
        rec = {
            "id": stable_id(conv.conversation_id),
            "request": request,
            "response": response,
            "category": cls.category,
            "subcategory": cls.subcategory,
            "cues": cls.cues[:8],
            "lang": lang,
            "locale": conv.locale,
            "pii": dict(hits),
            "failure": {"signals": signals, "is_failure": bool(signals)},
            "feedback": conv.feedback,
            "provenance": {
                "source": source,
                "line": raw.line,
                "conversation_id": conv.conversation_id,
                "session_id": conv.session_id,
                "user_id": conv.user_id,
                "created_at": conv.created_at,
                "client": conv.client,
                "model": conv.model,
            },
        }
        stats.categories[cls.category] += 1
        stats.langs[lang] += 1
        if cls.category == "off_scope":
            stats.subcategories[f"off_scope/{cls.subcategory}"] += 1
            yield "off_scope", rec
            if not cfg.keep_off_scope:
                continue
        else:
            stats.subcategories[f"{cls.category}/{cls.subcategory}"] += 1
        stats.kept += 1
        yield "requests", rec
        if signals and cls.category != "off_scope":
            stats.failures["any"] += 1
            stats.failures.update(signals)
            yield (
                "failures",
                {
                    "id": rec["id"],
                    "request": request,
                    "category": cls.category,
                    "failed_response": response,
                    "signals": signals,
                    "feedback": conv.feedback,
                    "provenance": rec["provenance"],
                },
            )


def _turns(messages: list[dict]) -> tuple[str, str | None, int]:
    """The first user request, the assistant's answer to it, and how many user turns followed."""
    user_idx = next(
        i for i, m in enumerate(messages) if m["role"] == "user" and m["content"].strip()
    )
    response = next(
        (m["content"] for m in messages[user_idx + 1 :] if m["role"] == "assistant"), None
    )
    followups = sum(1 for m in messages[user_idx + 1 :] if m["role"] == "user")
    return messages[user_idx]["content"].strip(), response, followups


def _dump_raw(obj: object) -> str:
    try:
        return orjson.dumps(obj, default=str).decode()[:2000]
    except TypeError:
        return repr(obj)[:2000]


def relative_source(source: str, root: Path | None) -> str:
    """An input path as records name it: relative to the repository root when under it."""
    if root is None:
        return source
    try:
        return str(Path(source).resolve().relative_to(root.resolve()))
    except ValueError:
        return source


OUTPUTS = ("requests", "failures", "off_scope", "quarantine")


def run_mine(
    inputs: list[str], out_dir: str | Path, cfg: MineConfig | None = None, root: Path | None = None
) -> MineStats:
    """Mine every input into out_dir/{requests,failures,off_scope,quarantine}.jsonl."""
    cfg = cfg or MineConfig()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stats = MineStats()
    for name in OUTPUTS:
        shards.clear(out / f"{name}.jsonl")  # a Ray run may have left a part directory here
    files = {name: open(out / f"{name}.jsonl", "wb") for name in OUTPUTS}
    progress = Progress("mine", unit="records")
    t0 = time.perf_counter()
    try:
        for dest, rec in mine_records(read_all(inputs), cfg, stats, root):
            files[dest].write(orjson.dumps(rec) + b"\n")
            if dest != "failures":
                progress.update()
    finally:
        for f in files.values():
            f.close()
    stats.seconds = time.perf_counter() - t0
    progress.done()
    if stats.valid == 0:
        log.error("no valid record in %s; see %s", inputs, out / "quarantine.jsonl")
    return stats
