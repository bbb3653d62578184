"""The keyed exchange every distributed curation step is built on: rows of one or more datasets
whose keys are equal meet in one call of a function, on whichever worker Ray Data picks.

It is a hash shuffle expressed in Ray Data's own operators (map_batches, union, groupby,
map_groups), so Ray schedules, spills and retries it:

1. each input block is cut by `splitmix64(key) % parts` and every piece becomes one row
   (partition, tag, Arrow IPC bytes): a shuffle moves a few rows per block, whatever the
   number of records, and each tag keeps its own schema;
2. Ray Data groups those rows by partition; one call gets every piece of one partition, decodes
   them into one table per tag and hands them to the step's function, which works on whole
   columns (numpy, pyarrow), never row by row.

So a step is a plain function of tables, testable without Ray, and a partition is complete when
it runs: a group, a join or a window never sees half of its keys.

Sizing the shuffle keeps the driver small. Ray keeps every task return under 100 KB inline, in
the heap of its owner (the driver here), and a sort shuffle returns one piece per (map task,
shuffle task): a shuffle of many small pieces sits in the driver's memory, not in the object
store, which spills. So:
* a shuffle task gathers `partitions_per_task` hash partitions (params.yaml curation.ray) and
  calls the step once per partition, so a step's memory is still one partition's;
* a map task bundles input blocks until it has `PIECE_ROWS` rows for each shuffle task, so each
  piece is a few hundred KB at least and goes to the object store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pyarrow as pa

from cogevol.core.hashing import splitmix64, string_keys
from cogevol.raydata.session import CLUSTER_CPUS, PARTITIONS_PER_TASK

Tables = dict[str, "pa.Table | None"]
_IPC = pa.ipc.IpcWriteOptions(compression="lz4")
# rows a map task sends each shuffle task at least: 16 Ki rows of the narrowest table (two int64
# columns) are 256 KB, past Ray's 100 KB limit for returns kept inline in the driver
PIECE_ROWS = 16_384


def keys_of_strings(values: pa.ChunkedArray | pa.Array | list[str]) -> np.ndarray:
    """A stable key per string (an id, a text) to partition by."""
    return string_keys(values if isinstance(values, list) else values.to_pylist())


def partition_of(keys: np.ndarray, parts: int) -> np.ndarray:
    """The partition of each key: a well-mixed hash, so that neighbouring keys spread out."""
    return (splitmix64(np.asarray(keys).astype(np.uint64)) % np.uint64(parts)).astype(np.int64)


def _bucket(batch: pa.Table, tag: str, key: str, parts: int) -> pa.Table:
    """One block -> one row per partition it touches: (partition, tag, IPC bytes)."""
    n = batch.num_rows
    if n == 0:
        return pa.table(
            {
                "_part": pa.array([], pa.int64()),
                "_tag": pa.array([], pa.string()),
                "_blob": pa.array([], pa.binary()),
            }
        )
    part = partition_of(batch.column(key).to_numpy(), parts)
    order = np.argsort(part, kind="stable")
    part = part[order]
    batch = batch.take(pa.array(order))
    starts = np.flatnonzero(np.r_[True, part[1:] != part[:-1]])
    ends = np.r_[starts[1:], n]
    blobs = []
    for s, e in zip(starts.tolist(), ends.tolist()):
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, batch.schema, options=_IPC) as w:
            w.write_table(batch.slice(s, e - s))
        blobs.append(sink.getvalue().to_pybytes())
    return pa.table(
        {
            "_part": pa.array(part[starts], pa.int64()),
            "_tag": pa.array([tag] * len(starts), pa.string()),
            "_blob": pa.array(blobs, pa.binary()),
        }
    )


def _gather(group: pa.Table, fn: Callable, tags: tuple[str, ...], kwargs: dict) -> pa.Table:
    """One partition: decode each tag's pieces into one table and run the step on them."""
    by_tag: dict[str, list[pa.Table]] = {}
    blobs = group.column("_blob")
    for k, tag in enumerate(group.column("_tag").to_pylist()):
        piece = pa.ipc.open_stream(blobs[k].as_buffer()).read_all()  # no copy of the bytes
        by_tag.setdefault(tag, []).append(piece)
    tables: Tables = dict.fromkeys(tags)
    for tag, pieces in by_tag.items():
        tables[tag] = (
            pa.concat_tables(pieces, promote_options="default") if len(pieces) > 1 else pieces[0]
        )
    return fn(tables, **kwargs)


def exchange(
    inputs: Mapping[str, tuple[object, str]],
    fn: Callable[..., pa.Table],
    parts: int,
    **kwargs,
):
    """Rows of every input whose key columns hold equal values meet in one call of
    `fn(tables, **kwargs)`, where `tables[tag]` is that partition's rows of input `tag` (None
    when it has none). `inputs` maps tag -> (Ray Dataset, key column of int64/uint64 keys).
    Returns the Ray Dataset of everything `fn` returned (lazy, like any Ray Dataset)."""
    tasks = shuffle_tasks(parts)
    pieces = [
        ds.map_batches(
            _bucket,
            fn_kwargs={"tag": tag, "key": key, "parts": parts},
            batch_format="pyarrow",
            batch_size=PIECE_ROWS * tasks,  # small blocks bundled, large ones cut to this
        )
        for tag, (ds, key) in inputs.items()
    ]
    merged = pieces[0].union(*pieces[1:]) if len(pieces) > 1 else pieces[0]
    return merged.groupby("_part", num_partitions=tasks).map_groups(
        _gather,
        fn_kwargs={"fn": fn, "tags": tuple(inputs), "kwargs": kwargs},
        batch_format="pyarrow",
    )


def shuffle_tasks(parts: int) -> int:
    """How many shuffle tasks gather `parts` hash partitions (each task some whole partitions):
    `partitions_per_task` to a task, but never fewer than two tasks per CPU while there are
    partitions enough, so that no CPU idles behind the last task of a step."""
    from ray.data import DataContext

    ctx = DataContext.get_current()
    per_task = max(1, int(ctx.get_config(PARTITIONS_PER_TASK, 1)))
    floor = min(parts, 2 * int(ctx.get_config(CLUSTER_CPUS, 1)))
    return max(1, floor, -(-parts // per_task))


def positions(keys: np.ndarray, table_keys: np.ndarray) -> np.ndarray:
    """For each key, its row in a table with unique `table_keys`, or -1 when absent."""
    keys = np.asarray(keys)
    if len(table_keys) == 0:
        return np.full(len(keys), -1, np.int64)
    order = np.argsort(table_keys, kind="stable")
    sorted_keys = table_keys[order]
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return np.where(sorted_keys[at] == keys, order[at], -1)


def column(t: pa.Table | None, name: str, dtype=np.int64) -> np.ndarray:
    """A numeric column as numpy (empty when the partition has no rows of that input)."""
    if t is None or t.num_rows == 0:
        return np.zeros(0, dtype)
    return t.column(name).to_numpy()


def strings(t: pa.Table | None, name: str) -> list:
    return [] if t is None else t.column(name).to_pylist()
