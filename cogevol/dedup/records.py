"""Dedup on record files: read ids and texts from JSONL/CSV, write the audit and the survivors."""

from __future__ import annotations

import csv
import gzip
import logging
from pathlib import Path

import orjson

from cogevol.dedup.audit import write_audit
from cogevol.dedup.pipeline import DedupConfig, DedupResult, dedup
from cogevol.errors import CogevolError

log = logging.getLogger(__name__)


class RecordError(CogevolError, ValueError):
    """The input cannot be deduplicated as a whole (unreadable, duplicate ids)."""


def load_records(
    path: str | Path, field: str, id_field: str = "id"
) -> tuple[list[dict], list[str]]:
    """Records that carry a string id and a string field, plus a note per skipped record."""
    p = Path(path)
    if not p.is_file():
        raise RecordError(f"{p}: no such file")
    skipped: list[str] = []
    if p.suffix.lower() == ".csv":
        with open(p, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    else:
        opener = gzip.open if p.name.endswith(".gz") else open
        rows = []
        with opener(p, "rb") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    obj = orjson.loads(line)
                except orjson.JSONDecodeError as e:
                    skipped.append(f"line {n}: invalid JSON ({e})")
                    continue
                if not isinstance(obj, dict):
                    skipped.append(f"line {n}: not a JSON object")
                    continue
                rows.append(obj)
    out, seen = [], set()
    for n, r in enumerate(rows, 1):
        rid, text = r.get(id_field), r.get(field)
        if rid is None or text is None:
            skipped.append(f"record {n}: missing {id_field!r} or {field!r}")
            continue
        if not isinstance(text, str):
            skipped.append(f"record {n}: {field!r} is not a string")
            continue
        rid = str(rid)
        if rid in seen:
            raise RecordError(f"{p}: duplicate {id_field} {rid!r} (record {n}); ids must be unique")
        seen.add(rid)
        out.append(r)
    for s in skipped[:5]:
        log.warning("dedup input %s: skipped %s", p, s)
    return out, skipped


def dedup_file(
    input_path: str | Path,
    field: str,
    out_dir: str | Path,
    cfg: DedupConfig | None = None,
    id_field: str = "id",
    survivors: bool = False,
) -> tuple[DedupResult, dict]:
    """Run dedup on a file; write the audit CSVs (and deduped.jsonl with survivors=True)."""
    records, skipped = load_records(input_path, field, id_field)
    ids = [str(r[id_field]) for r in records]
    res = dedup(ids, [r[field] for r in records], cfg)
    write_audit(res, out_dir, field)
    res.summary["skipped"] = len(skipped)
    if survivors:
        import numpy as np

        sem_size = np.bincount(res.semantic_rep, minlength=len(ids))
        lex_size = np.bincount(res.lexical_rep, minlength=len(ids))
        with open(Path(out_dir) / "deduped.jsonl", "wb") as f:
            for r in np.flatnonzero(res.semantic_rep == np.arange(len(ids))).tolist():
                members = int(sem_size[r])
                f.write(
                    orjson.dumps(
                        {
                            **records[r],
                            "dedup": {
                                "group_size": members,
                                "lexical_group_size": int(lex_size[r]),
                            },
                        }
                    )
                    + b"\n"
                )
    return res, res.summary
