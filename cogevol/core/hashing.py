"""Stable 64-bit hashes: the same value on every machine, process and run (Python's hash() is
salted per process), for SimHash bit patterns and for partitioning rows across a cluster."""

from __future__ import annotations

import hashlib

import numpy as np


def splitmix64(x: np.ndarray) -> np.ndarray:
    """A well-mixed, deterministic 64-bit hash of uint64 ids (for SimHash bit patterns)."""
    with np.errstate(over="ignore"):
        z = x + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def string_keys(values: list[str]) -> np.ndarray:
    """A stable non-negative 63-bit key per string: equal strings, equal keys."""
    return np.fromiter(
        (
            int.from_bytes(hashlib.blake2b(v.encode("utf-8"), digest_size=8).digest(), "little")
            >> 1
            for v in values
        ),
        np.int64,
        len(values),
    )
