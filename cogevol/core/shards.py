"""Record files as one file or as a directory of part files, on any filesystem pyarrow reads.

The local curation engine writes one file per output (`requests.jsonl`); the Ray engine writes
the same name as a directory of parts (`requests.jsonl/part-000000.jsonl`, ...), one per input
chunk, in input order, the way Spark names its outputs. Reading the parts in name order gives
the same records in the same order as the single file, so every reader downstream goes through
`iter_lines` / `iter_jsonl` / `iter_csv` here and accepts either shape. Paths with a scheme
(`s3://bucket/x`, `gs://...`) go through pyarrow's filesystems; plain paths stay on `open`.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import orjson

PART_PREFIX = "part-"


def is_uri(path: str | Path) -> bool:
    return "://" in str(path)


def absolute(path: str | Path) -> str:
    """A local path made absolute (a Ray worker does not run in the driver's directory); a URI
    as it is."""
    return str(path) if is_uri(path) else str(Path(path).resolve())


def filesystem(path: str | Path):
    """(pyarrow filesystem, path inside it) for a URI or a local path."""
    from pyarrow import fs

    if is_uri(path):
        return fs.FileSystem.from_uri(str(path))
    return fs.LocalFileSystem(), str(Path(path).resolve())


def open_input(path: str | Path) -> BinaryIO:
    """A seekable binary file for reading, local or remote."""
    if not is_uri(path):
        return open(path, "rb")
    fsys, p = filesystem(path)
    return fsys.open_input_file(p)


def _info(path: str | Path):
    from pyarrow import fs

    fsys, p = filesystem(path)
    return fsys, p, fsys.get_file_info(p), fs


def exists(path: str | Path) -> bool:
    if not is_uri(path):
        return Path(path).exists()
    _, _, info, fs = _info(path)
    return info.type != fs.FileType.NotFound


def is_dir(path: str | Path) -> bool:
    if not is_uri(path):
        return Path(path).is_dir()
    _, _, info, fs = _info(path)
    return info.type == fs.FileType.Directory


def size(path: str | Path) -> int:
    if not is_uri(path):
        return Path(path).stat().st_size
    return _info(path)[2].size


def join(base: str | Path, *names: str) -> str:
    """`base/names...` for a URI or a local path."""
    if is_uri(base):
        return "/".join([str(base).rstrip("/"), *names])
    return str(Path(base, *names))


def list_files(path: str | Path, recursive: bool = True) -> list[str]:
    """Every file under a directory, sorted; the same spelling (URI or local) as `path`."""
    if not is_uri(path):
        base = Path(path)
        found = base.rglob("*") if recursive else base.iterdir()
        return sorted(str(f) for f in found if f.is_file())
    from pyarrow import fs

    fsys, p = filesystem(path)
    infos = fsys.get_file_info(fs.FileSelector(p, recursive=recursive))
    scheme = str(path).split("://", 1)[0]
    return sorted(f"{scheme}://{i.path}" for i in infos if i.type == fs.FileType.File)


def parts(path: str | Path) -> list[str]:
    """The files that hold a record output: itself, or a directory's part files in order.
    Files whose names start with `.` or `_` (temporary files, markers) are not parts."""
    if not is_dir(path):
        return [str(path)]
    return [
        f
        for f in list_files(path, recursive=False)
        if not os.path.basename(f).startswith((".", "_"))
    ]


def iter_lines(path: str | Path) -> Iterator[bytes]:
    """Every non-blank line of a file or of a directory of parts, in order."""
    for part in parts(path):
        with open_input(part) as f:
            for line in io.BufferedReader(f) if is_uri(part) else f:
                if line.strip():
                    yield line.rstrip(b"\r\n")


def iter_jsonl(path: str | Path) -> Iterator[dict]:
    for line in iter_lines(path):
        yield orjson.loads(line)


def iter_csv(path: str | Path) -> Iterator[dict]:
    """CSV rows of a file or of parts that each carry the header."""
    for part in parts(path):
        with open_input(part) as f:
            text = io.TextIOWrapper(f if not is_uri(part) else io.BufferedReader(f), "utf-8")
            yield from csv.DictReader(text, strict=True)


def is_json_array(path: str | Path) -> bool:
    """A plain JSON array rather than JSON Lines (read whole, never split into byte ranges)."""
    with open_input(path) as f:
        return f.read(1) == b"["


def numbered_lines(
    path: str | Path, start: int = 0, end: int | None = None, newlines_before: int = 0
) -> Iterator[tuple[int, int, bytes]]:
    """(byte offset, 1-based line number, line without its newline) for every line that starts
    in [start, end) of a file, blank lines included: a byte range of a large JSONL file is read
    by one task, and a line belongs to the range it starts in. `newlines_before` is the number
    of newlines in the file before `start`, so line numbers are the file's. The whole file
    (end None) is streamed; a range is read into memory (it is one chunk)."""
    with open_input(path) as f:
        if end is None:
            offset, n = 0, 0
            for line in f if not is_uri(path) else io.BufferedReader(f):
                n += 1
                yield offset, n, line.rstrip(b"\n")
                offset += len(line)
            return
        if end <= start:
            return
        f.seek(start - 1 if start else 0)
        buf = f.read(end - start + (1 if start else 0))
        while buf and not buf.endswith(b"\n"):  # the last line that starts in range, whole
            more = f.read(1 << 16)
            if not more:
                break
            nl = more.find(b"\n")
            buf += more if nl < 0 else more[: nl + 1]
            if nl >= 0:
                break
    base, pos, n = (start - 1, 0, newlines_before) if start else (0, 0, 0)
    if start:  # buf[0] is the byte before the range: skip the line that started before it
        nl = buf.find(b"\n")
        if nl < 0:
            return
        pos, n = nl + 1, newlines_before + (nl > 0)
    while pos < len(buf) and base + pos < end:
        nl = buf.find(b"\n", pos)
        stop = nl if nl >= 0 else len(buf)
        n += 1
        yield base + pos, n, buf[pos:stop]
        pos = stop + 1


def part_name(index: int, like: str, tag: str = "") -> str:
    """`part-000007.jsonl` for the 8th chunk of an output named like `requests.jsonl`;
    `tag` sorts before the index (`part-simhash-000007.csv`)."""
    suffix = "".join(Path(like).suffixes) or ""
    return f"{PART_PREFIX}{tag + '-' if tag else ''}{index:06d}{suffix}"


def clear(path: str | Path) -> None:
    """Remove whatever is at `path` (a file from one engine, a part directory from the other)."""
    if not is_uri(path):
        p = Path(path)
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        elif p.exists() or p.is_symlink():
            p.unlink()
        return
    from pyarrow import fs

    fsys, p = filesystem(path)
    info = fsys.get_file_info(p)
    if info.type == fs.FileType.Directory:
        fsys.delete_dir(p)
    elif info.type == fs.FileType.File:
        fsys.delete_file(p)


def make_dir(path: str | Path) -> None:
    if is_uri(path):
        fsys, p = filesystem(path)
        fsys.create_dir(p, recursive=True)
    else:
        Path(path).mkdir(parents=True, exist_ok=True)


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write a whole file so that a reader never sees half of it: a local file is written
    beside and renamed (a retried task rewrites it whole); an object store commits on close."""
    if is_uri(path):
        fsys, p = filesystem(path)
        with fsys.open_output_stream(p) as f:
            f.write(data)
        return
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, p)


def csv_bytes(header: list[str], rows) -> bytes:
    buf = io.StringIO(newline="")
    w = csv.writer(buf)
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().encode("utf-8")
