"""Dedup on record files: read ids and texts from JSONL/CSV, write the audit and the survivors."""

from __future__ import annotations

import csv
import gzip
import io
import logging
from collections.abc import Iterator
from pathlib import Path

import orjson

from cogevol.core import shards
from cogevol.core.errors import CogevolError
from cogevol.dedup.audit import write_audit
from cogevol.dedup.pipeline import DedupConfig, DedupResult, dedup

log = logging.getLogger(__name__)


class RecordError(CogevolError, ValueError):
    """The input cannot be deduplicated as a whole (unreadable, duplicate ids)."""


def record_kind(path: str) -> str:
    name = path.lower()
    return "csv" if name.endswith(".csv") else "gz" if name.endswith(".gz") else "jsonl"


def raw_records(
    path: str, start: int = 0, end: int | None = None
) -> Iterator[tuple[int, object, str | None]]:
    """(position, parsed object or None, why not) for each record of a file: a CSV row, or a
    non-blank JSONL line (.gz too). The position orders records: the line's byte offset for
    plain JSONL (whose byte range [start, end) a task may read alone), else the row number."""
    kind = record_kind(path)
    with shards.open_input(path) as raw:
        if kind == "csv":
            text = io.TextIOWrapper(raw, "utf-8", newline="")
            for n, row in enumerate(csv.DictReader(text), 1):
                yield n, row, None
            return
        if kind == "gz":
            with gzip.open(raw, "rb") as f:
                numbered = ((n, n, line) for n, line in enumerate(f, 1))
                yield from _parse(numbered)
            return
    yield from _parse(shards.numbered_lines(path, start, end))


def _parse(numbered: Iterator[tuple[int, int, bytes]]) -> Iterator[tuple[int, object, str | None]]:
    for pos, n, line in numbered:
        if not line.strip():
            continue
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as e:
            yield pos, None, f"line {n}: invalid JSON ({e})"
            continue
        if not isinstance(obj, dict):
            yield pos, None, f"line {n}: not a JSON object"
            continue
        yield pos, obj, None


def accept(obj: object, where: str, field: str, id_field: str) -> tuple[str, str] | str:
    """(id, text) of a record to deduplicate, or why it is skipped."""
    if not isinstance(obj, dict):
        return f"{where}: not a record"
    rid, text = obj.get(id_field), obj.get(field)
    if rid is None or text is None:
        return f"{where}: missing {id_field!r} or {field!r}"
    if not isinstance(text, str):
        return f"{where}: {field!r} is not a string"
    return str(rid), text


def load_records(
    path: str | Path, field: str, id_field: str = "id"
) -> tuple[list[dict], list[str]]:
    """Records that carry a string id and a string field, plus a note per skipped record. `path`
    is a file or a directory of part files (the Ray engines' outputs)."""
    if not shards.exists(path):
        raise RecordError(f"{path}: no such file")
    skipped: list[str] = []
    out, seen = [], set()
    n = 0
    for part in shards.parts(path):
        for _, obj, why in raw_records(part):
            if why is not None:
                skipped.append(why)
                continue
            n += 1
            got = accept(obj, f"record {n}", field, id_field)
            if isinstance(got, str):
                skipped.append(got)
                continue
            rid = got[0]
            if rid in seen:
                raise RecordError(
                    f"{path}: duplicate {id_field} {rid!r} (record {n}); ids must be unique"
                )
            seen.add(rid)
            out.append(obj)
    for s in skipped[:5]:
        log.warning("dedup input %s: skipped %s", path, s)
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
