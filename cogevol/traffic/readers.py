"""Readers for production traffic: JSONL, JSONL.gz, Parquet, and anything `datasets` loads.

Every reader yields `RawRecord`s: either a parsed object or the reason it could not be parsed.
A bad line, a non-UTF-8 byte or a truncated gzip stream never ends the run; it becomes a
quarantined item with its source and line number, and everything readable is still read.
"""

from __future__ import annotations

import gzip
import logging
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson

from cogevol.core import shards
from cogevol.core.errors import InputError

log = logging.getLogger(__name__)

JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")
GZ_SUFFIXES = (".jsonl.gz", ".ndjson.gz", ".json.gz")
PARQUET_SUFFIXES = (".parquet", ".pq")


@dataclass(slots=True)
class RawRecord:
    source: str
    line: int  # 1-based line (JSONL) or row (Parquet / datasets); 0 for whole-file problems
    obj: object = None
    error: str | None = None
    raw: str | None = None  # the offending text, kept for the quarantine file


def _kind(path: Path) -> str | None:
    name = path.name.lower()
    if name.endswith(GZ_SUFFIXES):
        return "jsonl.gz"
    if name.endswith(JSONL_SUFFIXES):
        return "jsonl"
    if name.endswith(PARQUET_SUFFIXES):
        return "parquet"
    return None


def discover(paths: Iterable[str | Path]) -> list[tuple[str, str]]:
    """Expand files and directories into (path, kind) pairs, sorted for determinism. Paths may
    be URIs of any filesystem pyarrow reads (`s3://bucket/logs/`).

    A directory saved by `datasets.save_to_disk` or a path that is not on disk (a hub id) is
    handed to `datasets` as a whole."""
    out: list[tuple[str, str]] = []
    for p in map(str, paths):
        if shards.is_dir(p):
            marks = (shards.join(p, "dataset_info.json"), shards.join(p, "state.json"))
            if not shards.is_uri(p) and any(shards.exists(m) for m in marks):
                out.append((p, "datasets"))
                continue
            files = [f for f in shards.list_files(p) if _kind(Path(f))]
            out += [(f, _kind(Path(f))) for f in files]
        elif shards.exists(p):
            kind = _kind(Path(p))
            if kind is None:
                raise InputError(
                    f"{p}: unsupported file type (expected .jsonl, .jsonl.gz, .parquet)"
                )
            out.append((p, kind))
        elif "/" in p and not p.startswith((".", "/")) and not shards.is_uri(p):
            out.append((p, "datasets"))  # looks like a hub id: owner/name
        else:
            raise InputError(f"{p}: no such file or directory")
    return out


def _parse_lines(source: str, lines: Iterable[tuple[int, bytes]]) -> Iterator[RawRecord]:
    """Numbered lines -> records or the reason each could not be parsed."""
    for n, raw in lines:
        line = raw.strip()
        if not line:
            continue  # blank lines are formatting, not data
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as e:
            yield RawRecord(
                source,
                n,
                error=f"invalid UTF-8 at byte {e.start}",
                raw=line.decode("utf-8", "backslashreplace")[:2000],
            )
            continue
        try:
            yield RawRecord(source, n, obj=orjson.loads(text))
        except orjson.JSONDecodeError as e:
            yield RawRecord(source, n, error=f"invalid JSON: {e}"[:200], raw=text[:2000])


def read_jsonl(
    path: str, start: int = 0, end: int | None = None, newlines_before: int = 0
) -> Iterator[RawRecord]:
    """A JSONL file, or the lines that start in its byte range [start, end) (a chunk of a large
    file read by one task: `newlines_before` keeps the line numbers the file's)."""
    if end is None and shards.is_json_array(path):
        with shards.open_input(path) as f:
            try:
                arr = orjson.loads(f.read())
            except orjson.JSONDecodeError as e:
                yield RawRecord(path, 0, error=f"invalid JSON array: {e}"[:200])
                return
        for i, obj in enumerate(arr if isinstance(arr, list) else [arr], 1):
            yield RawRecord(path, i, obj=obj)
        return
    lines = shards.numbered_lines(path, start, end, newlines_before)
    yield from _parse_lines(path, ((n, line) for _, n, line in lines))


def read_jsonl_gz(path: str) -> Iterator[RawRecord]:
    count = 0
    try:
        with shards.open_input(path) as raw, gzip.open(raw, "rb") as f:
            for rec in _parse_lines(path, enumerate(f, 1)):
                count = rec.line
                yield rec
    except (EOFError, gzip.BadGzipFile, zlib.error, OSError) as e:
        yield RawRecord(
            path, 0, error=f"corrupt or truncated gzip stream after line {count}: {e}"[:240]
        )


def read_parquet(path: str, batch_size: int = 8192) -> Iterator[RawRecord]:
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(shards.open_input(path) if shards.is_uri(path) else path)
        row = 0
        for batch in pf.iter_batches(batch_size=batch_size):
            for obj in batch.to_pylist():
                row += 1
                yield RawRecord(path, row, obj=obj)
    except Exception as e:  # pyarrow raises several types for broken files
        yield RawRecord(path, 0, error=f"unreadable Parquet: {type(e).__name__}: {e}"[:240])


def read_datasets(path: str, split: str = "train") -> Iterator[RawRecord]:
    try:
        import datasets

        if Path(path).is_dir():
            ds = datasets.load_from_disk(path)
            if isinstance(ds, datasets.DatasetDict):
                ds = ds[split]
        else:
            ds = datasets.load_dataset(path, split=split)
    except Exception as e:
        yield RawRecord(path, 0, error=f"datasets could not load it: {type(e).__name__}: {e}"[:300])
        return
    for i, obj in enumerate(ds, 1):
        yield RawRecord(path, i, obj=obj)


READERS = {
    "jsonl": read_jsonl,
    "jsonl.gz": read_jsonl_gz,
    "parquet": read_parquet,
    "datasets": read_datasets,
}


def read_all(paths: Iterable[str | Path]) -> Iterator[RawRecord]:
    """All records of all inputs; raises InputError only when nothing can be read at all."""
    paths = [str(p) for p in paths]
    found = discover(paths)
    if not found:
        raise InputError(f"no readable traffic files under {paths}")
    for path, kind in found:
        n = 0
        for rec in READERS[kind](path):
            n += 1
            yield rec
        if n == 0:
            log.warning("%s: empty input file", path)
            yield RawRecord(path, 0, error="empty file")
