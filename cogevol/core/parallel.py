"""Fork-based parallel map for numpy-heavy work on large shared inputs.

Workers are forked after the caller has put its large read-only inputs (matrices, text lists)
into a module-level slot, so they inherit them copy-on-write instead of pickling them per task.
Falls back to a plain loop for one worker, one item, or platforms without fork.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def fork_map(fn: Callable[[T], R], items: Sequence[T], workers: int) -> list[R]:
    if workers > 1 and len(items) > 1 and "fork" in mp.get_all_start_methods():
        with mp.get_context("fork").Pool(min(workers, len(items))) as pool:
            return pool.map(fn, items, chunksize=1)
    return [fn(x) for x in items]
