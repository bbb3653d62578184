"""Inputs cut into chunks: the unit a task reads, the unit of output parts, and record order.

A plain JSONL file is cut into byte ranges of `chunk_bytes` (a line belongs to the range it
starts in); a gzip stream, a JSON array, a CSV, a Parquet file or a `datasets` directory is one
chunk, since none of them can be entered in the middle. Chunks are numbered in input order
(files sorted, ranges in file order), and each record gets a key that sorts the same way:

    key = file_index << 40 | offset      (offset: byte of the line, or row number)

so "the earliest record" means the same on every engine, whatever ran where, and an output
written as one part per chunk, read back in part order, is in input order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from cogevol.core import shards

OFFSET_BITS = 40  # offsets up to 1 TiB per file; 2^23 files
SPLITTABLE = "jsonl"


@dataclass(frozen=True)
class Chunk:
    index: int  # position in input order: names the output parts (part-000007)
    file_index: int
    path: str
    kind: str  # a reader kind of cogevol.traffic.readers, or "csv"
    start: int = 0
    end: int | None = None  # None: the whole file
    newlines_before: int = 0  # newlines in the file before `start` (line numbers)
    first_of_file: bool = True
    last_of_file: bool = True

    def key(self, offsets: np.ndarray | int) -> np.ndarray | int:
        return (self.file_index << OFFSET_BITS) | offsets


def record_key(file_index: int, offset: int) -> int:
    return (file_index << OFFSET_BITS) | offset


def plan_chunks(files: list[tuple[str, str]], chunk_bytes: int) -> list[Chunk]:
    """(path, kind) in input order -> chunks. Only plain JSONL (not a JSON array) is split."""
    out: list[Chunk] = []
    for f, (path, kind) in enumerate(files):
        ranges: list[tuple[int, int | None]] = [(0, None)]
        if kind == SPLITTABLE:
            size = shards.size(path)
            if size > chunk_bytes and not shards.is_json_array(path):
                ranges = [(s, min(s + chunk_bytes, size)) for s in range(0, size, chunk_bytes)]
        for r, (start, end) in enumerate(ranges):
            out.append(
                Chunk(
                    len(out),
                    f,
                    path,
                    kind,
                    start,
                    end,
                    first_of_file=r == 0,
                    last_of_file=r == len(ranges) - 1,
                )
            )
    return out


def count_newlines(chunk: Chunk) -> int:
    """Newlines in the chunk's byte range (a whole-file chunk needs none: it starts at line 1)."""
    if chunk.end is None:
        return 0
    with shards.open_input(chunk.path) as f:
        f.seek(chunk.start)
        n, left = 0, chunk.end - chunk.start
        while left > 0:
            block = f.read(min(left, 1 << 24))
            if not block:
                break
            n += block.count(b"\n")
            left -= len(block)
    return n


def with_line_numbers(chunks: list[Chunk], counts: list[int]) -> list[Chunk]:
    """Chunks with `newlines_before` filled from the newline count of each chunk."""
    out, before = [], 0
    for c, n in zip(chunks, counts):
        before = 0 if c.first_of_file else before
        out.append(replace(c, newlines_before=before))
        before += n
    return out


def chunk_of(keys: np.ndarray, chunks: list[Chunk]) -> np.ndarray:
    """The chunk each record key was read from."""
    starts = np.array([c.key(c.start) for c in chunks], np.int64)
    return np.searchsorted(starts, np.asarray(keys, np.int64), side="right") - 1
