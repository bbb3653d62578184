"""Mining on Ray Data: the in-process miner's records (cogevol/traffic/mine.py), chunk by chunk
on a cluster, with the same quarantine and the same counts.

The one thing the miner remembers across records is which conversation ids it has seen; the
rest is per record. So:

  lines       newlines per byte range of the large JSONL files (line numbers stay the file's)
  ids         every valid record's conversation id, read in parallel; an exchange by id finds
              the records whose id an earlier record (by input order) already had
  mine        an exchange by chunk: each chunk is read again and mined with those duplicates
              named, into its part of requests / failures / off_scope / quarantine, in order

Outputs are the in-process files' names, each a directory of parts, one per chunk; read in part
order they hold the in-process lines in the in-process order.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import orjson
import pyarrow as pa

from cogevol.core import shards
from cogevol.pipeline.stage_counts import counts_from, counts_json
from cogevol.raydata.chunks import Chunk, count_newlines, plan_chunks, with_line_numbers
from cogevol.raydata.exchange import Tables, column, exchange, keys_of_strings
from cogevol.raydata.session import RayDataConfig, StepLog, ray_data
from cogevol.traffic.mine import OUTPUTS, MineConfig, MineStats, mine_records, relative_source
from cogevol.traffic.readers import READERS, InputError, RawRecord, discover, read_jsonl
from cogevol.traffic.schema import SchemaError, validate

log = logging.getLogger(__name__)


def _chunk_row(c: Chunk, root: Path | None) -> dict:
    """What a task needs of a chunk, paths resolved here in the driver's directory: read through
    the absolute path (a worker runs elsewhere), cited as the in-process miner cites it."""
    return {
        "chunk": c.index,
        "file": c.file_index,
        "path": shards.absolute(c.path),
        "source": relative_source(c.path, root),
        "kind": c.kind,
        "start": c.start,
        "end": -1 if c.end is None else c.end,
        "newlines_before": c.newlines_before,
        "first": c.first_of_file,
        "last": c.last_of_file,
    }


def read_chunk(row: dict) -> Iterator[RawRecord]:
    """The raw records of one chunk, as read_all yields them for its part of the file, each
    citing its source as the in-process miner does."""
    if row["end"] >= 0:
        raws = read_jsonl(row["path"], row["start"], row["end"], row["newlines_before"])
    else:
        raws = READERS[row["kind"]](row["path"])
    for raw in raws:
        raw.source = row["source"]
        yield raw


def _lines(batch: pa.Table) -> pa.Table:
    """Map over chunks: newlines in each, and whether any line holds a record."""
    out = {"chunk": [], "newlines": [], "records": []}
    for row in batch.to_pylist():
        c = Chunk(row["chunk"], row["file"], row["path"], row["kind"], row["start"], row["end"])
        out["chunk"].append(row["chunk"])
        out["newlines"].append(count_newlines(c))
        out["records"].append(any(True for _ in read_chunk(row)))
    return pa.table(out)


def _ids(batch: pa.Table) -> pa.Table:
    """Map over chunks: (conversation id, order, where) of every record that validates."""
    out = {"cid": [], "order": [], "chunk": [], "source": [], "line": [], "where": []}
    for row in batch.to_pylist():
        for raw in read_chunk(row):
            if raw.error is not None:
                continue
            try:
                conv = validate(raw.obj)
            except SchemaError:
                continue
            out["cid"].append(conv.conversation_id)
            out["order"].append((row["file"] << 40) | raw.line)
            out["chunk"].append(row["chunk"])
            out["source"].append(raw.source)
            out["line"].append(raw.line)
            out["where"].append(f"{raw.source}:{raw.line}")
    t = pa.table(
        {
            "cid": pa.array(out["cid"], pa.string()),
            "order": pa.array(out["order"], pa.int64()),
            "chunk": pa.array(out["chunk"], pa.int64()),
            "source": pa.array(out["source"], pa.string()),
            "line": pa.array(out["line"], pa.int64()),
            "where": pa.array(out["where"], pa.string()),
        }
    )
    return t.append_column("cidkey", pa.array(keys_of_strings(t.column("cid")), pa.int64()))


DUPLICATES = pa.schema(
    [("chunk", pa.int64()), ("source", pa.string()), ("line", pa.int64()), ("first", pa.string())]
)


def _later_duplicates(tables: Tables) -> pa.Table:
    """Records whose conversation id an earlier record carries, with where that one was."""
    t = tables["c"]
    if t is None:
        return DUPLICATES.empty_table()
    t = t.sort_by([("cid", "ascending"), ("order", "ascending")])
    cid = t.column("cid").to_pylist()
    later = np.array([k > 0 and cid[k] == cid[k - 1] for k in range(len(cid))], bool)
    if not later.any():
        return DUPLICATES.empty_table()
    group_start = np.maximum.accumulate(np.where(later, 0, np.arange(len(cid))))
    where = t.column("where").to_pylist()
    rows = np.flatnonzero(later)
    return pa.table(
        [
            column(t, "chunk")[rows],
            t.column("source").take(pa.array(rows)),
            column(t, "line")[rows],
            [where[group_start[k]] for k in rows.tolist()],
        ],
        schema=DUPLICATES,
    )


def _mine_chunks(tables: Tables, cfg: MineConfig, out: str, empty_files: frozenset) -> pa.Table:
    """Each chunk of the partition, mined into its parts; its counts as JSON. Sources are
    already cited relative to the root (read_chunk), so the miner gets no root."""
    c, d = tables["c"], tables["d"]
    result = {"chunk": [], "stats": []}
    dups: dict[int, dict[tuple[str, int], str]] = {}
    if d is not None:
        for ch, src, line, first in zip(
            *(d.column(x).to_pylist() for x in ("chunk", "source", "line", "first"))
        ):
            dups.setdefault(ch, {})[(src, line)] = first
    for row in c.to_pylist() if c is not None else []:
        stats = MineStats()
        raws = read_chunk(row)
        if row["last"] and row["file"] in empty_files:
            raws = iter([RawRecord(row["source"], 0, error="empty file")])
        lines: dict[str, list[bytes]] = {name: [] for name in OUTPUTS}
        for dest, rec in mine_records(raws, cfg, stats, duplicates=dups.get(row["chunk"], {})):
            lines[dest].append(orjson.dumps(rec) + b"\n")
        for name, body in lines.items():
            if body:
                like = f"{name}.jsonl"
                shards.write_bytes(
                    shards.join(out, like, shards.part_name(row["chunk"], like)), b"".join(body)
                )
        result["chunk"].append(row["chunk"])
        result["stats"].append(counts_json(stats))
    return pa.table(
        {
            "chunk": pa.array(result["chunk"], pa.int64()),
            "stats": pa.array(result["stats"], pa.string()),
        }
    )


def run_mine_ray(
    inputs: list[str],
    out_dir: str | Path,
    cfg: MineConfig | None = None,
    root: Path | None = None,
    *,
    ray_cfg: RayDataConfig | None = None,
) -> MineStats:
    """run_mine on Ray Data: the same records into out_dir/{requests,failures,off_scope,
    quarantine}.jsonl, each a directory of parts. Inputs may be URIs (s3://...)."""
    cfg = cfg or MineConfig()
    found = discover([str(p) for p in inputs])
    if not found:
        raise InputError(f"no readable traffic files under {inputs}")
    t0 = time.perf_counter()
    with ray_data(ray_cfg) as session:
        import ray

        out = shards.absolute(out_dir)
        chunks = plan_chunks(found, int(session.cfg.chunk_mb * 2**20))
        clock = StepLog("mine[ray]", 3)
        rows = [_chunk_row(c, root) for c in chunks]
        lines = (
            ray.data.from_items(rows, override_num_blocks=len(rows))
            .map_batches(_lines, batch_format="pyarrow", batch_size=1)
            .take_all()
        )
        by_chunk = {r["chunk"]: r for r in lines}
        chunks = with_line_numbers(chunks, [by_chunk[c.index]["newlines"] for c in chunks])
        has_records: dict[int, bool] = {}
        for c in chunks:
            has_records[c.file_index] = (
                has_records.get(c.file_index, False) or by_chunk[c.index]["records"]
            )
        empty = frozenset(f for f, has in has_records.items() if not has)
        rows = [_chunk_row(c, root) for c in chunks]
        table = ray.data.from_items(rows, override_num_blocks=len(rows))
        clock.done("lines", f"{len(chunks)} chunk(s) of {len(found)} file(s)", len(chunks))

        ids = table.map_batches(_ids, batch_format="pyarrow", batch_size=1).materialize()
        n_valid = ids.count()
        parts = session.partitions(n_valid)
        dups = exchange({"c": (ids, "cidkey")}, _later_duplicates, parts).materialize()
        del ids
        clock.done("ids", f"{dups.count():,} records repeat an earlier conversation id", n_valid)

        for name in OUTPUTS:
            shards.clear(shards.join(out, f"{name}.jsonl"))
            shards.make_dir(shards.join(out, f"{name}.jsonl"))
        results = exchange(
            {"c": (table, "chunk"), "d": (dups, "chunk")},
            _mine_chunks,
            session.partitions(len(chunks)),
            cfg=cfg,
            out=out,
            empty_files=empty,
        ).take_all()
        stats = MineStats()
        for r in results:
            stats.merge(counts_from(MineStats, r["stats"]))
        stats.seconds = time.perf_counter() - t0
        clock.done("mine", f"{stats.read:,} records, {stats.kept:,} kept", stats.read)
    if stats.valid == 0:
        log.error("no valid record in %s; see %s", inputs, shards.join(out, "quarantine.jsonl"))
    return stats
