"""Content-addressed on-disk cache of endpoint answers, and single-flight of identical requests.

Why on disk and content-addressed: judge and teacher calls are the slow, paid part of a run; the
same (model, prompt, image, settings) asked again in a rerun, a resumed stage or another stage
must cost nothing. The key is a hash of everything that determines the answer and of nothing
else (not the base URL: the same model behind another server is the same answer), so a cache
directory can be shared, copied or committed as a replay cache.

One JSON file per entry, sharded by the first two hex digits of the key (`root/ab/abcd...json`)
so no directory grows past a few thousand files. Writes go to a temporary file in the same
directory and are renamed into place: a run killed mid-write leaves no half-written entry. An
entry that does not parse anyway (disk trouble, a hand edit) is logged and treated as a miss,
and the next answer overwrites it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
_KEY = re.compile(r"^[0-9a-f]{8,128}$")


def _canonical(x: Any) -> Any:
    """JSON-ready form with bytes replaced by their hash: a 2 MB PNG keys as 64 hex digits."""
    if isinstance(x, (bytes, bytearray, memoryview)):
        return {"__sha256__": hashlib.sha256(bytes(x)).hexdigest()}
    if isinstance(x, dict):
        return {str(k): _canonical(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_canonical(v) for v in x]
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    raise TypeError(f"cache key part of type {type(x).__name__} is not JSON-serialisable")


class DiskCache:
    """Generic key -> JSON-object store under `root`; see the module docstring for the layout."""

    def __init__(self, root: Path | str):
        self.root = Path(root)
        self.hits = 0
        self.misses = 0
        self.corrupt = 0

    @staticmethod
    def key(**parts: Any) -> str:
        """sha256 of the canonical JSON (sorted keys, no whitespace) of the parts.

        Bytes anywhere in the parts are hashed first. Two calls with equal parts give the same
        key in any process and on any machine, whatever the order of keyword arguments.
        """
        text = json.dumps(
            _canonical(parts),
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
            allow_nan=False,
        )
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def path(self, key: str) -> Path:
        if not _KEY.match(key):  # keys come from key(); refuse anything that could escape root
            raise ValueError(f"not a cache key: {key[:80]!r}")
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        """The stored object, or None on a miss (absent or unreadable entry)."""
        p = self.path(key)
        try:
            raw = p.read_bytes()
        except FileNotFoundError:
            self.misses += 1
            return None
        except OSError as e:
            log.warning("cache entry %s unreadable, treated as a miss: %s", p, e)
            self.corrupt += 1
            self.misses += 1
            return None
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as e:
            obj, err = None, f"{type(e).__name__}: {e}"
        else:
            err = None if isinstance(obj, dict) else f"holds a {type(obj).__name__}, not an object"
        if err:
            log.warning("cache entry %s is corrupt (%s), treated as a miss", p, err)
            self.corrupt += 1
            self.misses += 1
            return None
        self.hits += 1
        return obj

    def put(self, key: str, value: dict) -> None:
        """Store `value` atomically (temporary file, then os.replace); the last writer wins."""
        if not isinstance(value, dict):
            raise TypeError("cache values are JSON objects (dict)")
        p = self.path(key)
        data = json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{key[:16]}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, p)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    def try_put(self, key: str, value: dict) -> bool:
        """put(), logging instead of raising: an answer already paid for must reach its caller
        even when the cache cannot be written (disk full, read-only checkout).

        Called from the event loop on purpose: a put costs well under a millisecond of loop
        time, and handing it to a worker thread measured slower (more CPU for thread hand-offs
        and the GIL than the write itself) on the 2-core machine.
        """
        try:
            self.put(key, value)
            return True
        except (OSError, TypeError, ValueError) as e:
            log.warning("cache write %s failed, answer kept in memory only: %s", key[:12], e)
            return False

    def __contains__(self, key: str) -> bool:
        return self.path(key).is_file()

    def __len__(self) -> int:
        return sum(1 for _ in self.root.glob("??/*.json")) if self.root.is_dir() else 0


class SingleFlight:
    """At most one computation per key in flight; concurrent callers of a key share its result.

    Why: a batch often asks the same question several times at once (repeated prompts, K
    samples of one prompt rendered identically); without this each would miss the cache and pay
    for a call. The computation runs as its own task, so a cancelled caller does not cancel it
    for the others. Errors reach every caller of that flight and are not remembered.
    """

    def __init__(self) -> None:
        self._tasks: dict[str, asyncio.Task] = {}
        self.coalesced = 0

    async def run(self, key: str, fn: Callable[[], Awaitable[T]]) -> tuple[T, bool]:
        """(result, shared): shared is True when this caller joined another caller's flight."""
        task = self._tasks.get(key)
        shared = task is not None
        if task is None:
            task = asyncio.ensure_future(fn())
            self._tasks[key] = task
            task.add_done_callback(lambda t, k=key: self._done(k, t))
        else:
            self.coalesced += 1
        return await asyncio.shield(task), shared

    def _done(self, key: str, task: asyncio.Task) -> None:
        if self._tasks.get(key) is task:
            del self._tasks[key]
        if not task.cancelled():
            task.exception()  # retrieved: no "never retrieved" noise when every caller left

    def __len__(self) -> int:
        return len(self._tasks)

    async def cancel_all(self) -> None:
        tasks = list(self._tasks.values())
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
