"""A stage's counts (a dataclass of ints, floats, Counters and dicts of counts) added up and sent
as JSON. Why: the ray engine mines and filters chunk by chunk; each task returns its chunk's
counts across the task boundary as JSON and the driver adds them into the stage's totals, which
must equal the local engine's single pass."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields
from typing import Any, TypeVar

import orjson

T = TypeVar("T")


def add_counts(into: Any, other: Any, skip: tuple[str, ...] = ()) -> None:
    """Add `other`'s counts into `into` field by field; fields named in `skip` keep their value
    (a wall time is the whole run's, not a sum of pieces)."""
    for f in fields(into):
        if f.name in skip:
            continue
        mine, theirs = getattr(into, f.name), getattr(other, f.name)
        if isinstance(mine, Counter):
            mine.update(theirs)
        elif isinstance(mine, dict):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v
        else:
            setattr(into, f.name, mine + theirs)


def counts_json(stats: Any) -> str:
    """The counts as one JSON object (Counters as plain objects)."""
    return orjson.dumps({f.name: getattr(stats, f.name) for f in fields(stats)}).decode()


def counts_from(cls: type[T], text: str) -> T:
    """Counts sent by `counts_json`, back in their dataclass (Counters as Counters)."""
    stats = cls()
    for k, v in orjson.loads(text).items():
        setattr(stats, k, Counter(v) if isinstance(getattr(stats, k), Counter) else v)
    return stats
