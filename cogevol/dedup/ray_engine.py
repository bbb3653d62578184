"""Dedup on Ray Data: the in-process pipeline's answer (cogevol/dedup/pipeline.py), on inputs no
single node holds.

No step collects the texts, the n-grams or the pairs on one node; each is a keyed exchange
(cogevol/raydata/exchange.py) whose partition function lives in steps.py or assemble.py:

  read       the input's chunks, in parallel -> rows (key, chunk, id, text)
  ids        exchange by id: ids must be unique, as in-process
  exact      exchange by normalised text -> one node per distinct text, keyed by its first row
  simhash    one row per (node, band): exchange by band bucket, window scan -> candidate pairs
  verify     exchange by each end: the pair's two texts meet, verify.same_request decides
  groups     large-star / small-star rounds over the accepted links, representatives elected
             per component (most rows, then earliest), strongest partner per node
  tf-idf     over the lexical representatives: document frequencies by an exchange on n-grams,
             vectors by an exchange on documents, candidates by an exchange on rare n-grams,
             counted where the candidate is, cosines where the other vector is
  write      exchange by chunk: each chunk's rows, in input order, into its part of each file

Every tie is broken by record key, which sorts like the input order, so the groups, the
representatives, every link and every veto equal the in-process run's, whatever the number of
workers (tests/dedup/test_ray_engine.py). Outputs have the in-process names, each a directory
of parts (`query_groups.csv/part-000000.csv`, ...) that read in order hold the in-process rows.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict
from pathlib import Path

import pyarrow as pa

from cogevol.core import shards
from cogevol.dedup import assemble, steps
from cogevol.dedup.audit import audit_headers
from cogevol.dedup.pipeline import DedupConfig
from cogevol.dedup.records import RecordError, accept, raw_records, record_kind
from cogevol.raydata import graph
from cogevol.raydata.chunks import Chunk, chunk_of, plan_chunks
from cogevol.raydata.exchange import exchange, keys_of_strings
from cogevol.raydata.session import RayDataConfig, StepLog, ray_data

log = logging.getLogger(__name__)

OUTPUTS = (
    "deduped_queries.csv",
    "query_groups.csv",
    "semantic_deduped_queries.csv",
    "semantic_query_groups.csv",
    "vetoed_links.csv",
)


def _chunk_rows(chunks: list[Chunk]) -> list[dict]:
    return [
        {
            "chunk": c.index,
            "path": c.path,
            "start": c.start,
            "end": -1 if c.end is None else c.end,
            "base": c.key(0),
        }
        for c in chunks
    ]


def _read(batch: pa.Table, field: str, id_field: str) -> pa.Table:
    """Map over chunks: every record of the chunk, or why it is skipped."""
    keys, chunk_ids, ids, texts, skips = [], [], [], [], []
    for row in batch.to_pylist():
        end = None if row["end"] < 0 else row["end"]
        for pos, obj, why in raw_records(row["path"], row["start"], end):
            got = why if why is not None else accept(obj, f"{row['path']}@{pos}", field, id_field)
            keys.append(row["base"] | pos)
            chunk_ids.append(row["chunk"])
            rid, text = (None, None) if isinstance(got, str) else got
            ids.append(rid)
            texts.append(text)
            skips.append(got if isinstance(got, str) else None)
    return pa.table(
        {
            "key": pa.array(keys, pa.int64()),
            "chunk": pa.array(chunk_ids, pa.int64()),
            "id": pa.array(ids, pa.string()),
            "text": pa.array(texts, pa.string()),
            "skip": pa.array(skips, pa.string()),
        }
    )


def _id_keys(batch: pa.Table) -> pa.Table:
    keys = pa.array(keys_of_strings(batch.column("id")), pa.int64())
    return batch.select(["key", "id"]).append_column("idkey", keys)


def dedup_ray(
    input_path: str | Path,
    field: str,
    out_dir: str | Path,
    cfg: DedupConfig | None = None,
    id_field: str = "id",
    survivors: bool = False,
    *,
    ray_cfg: RayDataConfig | None = None,
) -> tuple[dict, dict[int, int]]:
    """Deduplicate a record file (or a directory of parts, local or on object storage) on Ray
    Data; write the audit files (and deduped.jsonl with survivors=True) as part directories
    under out_dir. Returns (the summary dedup_file returns, semantic group size -> groups)."""
    cfg, input_path, out_dir = cfg or DedupConfig(), str(input_path), str(out_dir)
    if not shards.exists(input_path):
        raise RecordError(f"{input_path}: no such file")
    files = [shards.absolute(f) for f in shards.parts(input_path)]
    out = shards.absolute(out_dir)
    with ray_data(ray_cfg) as session:
        kinds = [(f, record_kind(f)) for f in files]
        chunks = plan_chunks(kinds, int(session.cfg.chunk_mb * 2**20))
        return _DedupJob(session, cfg, chunks).run(str(input_path), field, out, id_field, survivors)


class _DedupJob:
    """One distributed dedup: a method per phase (read, ids, exact, SimHash, TF-IDF, write), each
    taking the datasets the last one made; the job keeps what every phase shares (the config,
    the partition counts, the step log and the timings the summary reports)."""

    def __init__(self, session, cfg: DedupConfig, chunks: list[Chunk]):
        self.session, self.cfg, self.chunks = session, cfg, chunks
        self.clock = StepLog("dedup[ray]", 10)
        self.timings: dict[str, float] = {}
        self.parts = self.gram_parts = 0

    def run(self, input_path: str, field: str, out: str, id_field: str, survivors: bool):
        t0 = time.perf_counter()
        table, rows, n, skipped = self.read(input_path, field, id_field)
        self.check_ids(rows, n, input_path, id_field)
        rows, nodes, n_nodes = self.exact(rows, n)
        sim, sim_counts, lexical, docs, n_docs = self.simhash(nodes, n_nodes)
        sem, tf_counts, semantic, group_sizes = self.tfidf(docs, n_docs)
        n_written, vetoed = self.write(
            table, rows, lexical, semantic, sim, sem, out, field, survivors
        )
        self.timings["total_s"] = time.perf_counter() - t0
        summary = {
            "input": n,
            "exact_unique": n_nodes,
            "lexical_groups": n_docs,
            "semantic_groups": sum(group_sizes.values()),
            "simhash_links": sim_counts,
            "tfidf_links": tf_counts,
            "vetoed": vetoed,
            "config": asdict(self.cfg),
            **{k: round(v, 3) for k, v in self.timings.items()},
            "skipped": skipped,
        }
        return summary, group_sizes

    def read(self, input_path: str, field: str, id_field: str):
        """The chunks' records in parallel; skipped ones logged and counted."""
        import ray
        from ray.data.expressions import col

        table = ray.data.from_items(_chunk_rows(self.chunks), override_num_blocks=len(self.chunks))
        read = table.map_batches(
            _read,
            fn_kwargs={"field": field, "id_field": id_field},
            batch_format="pyarrow",
            batch_size=1,
        ).materialize()
        rows = read.filter(expr=col("skip").is_null()).drop_columns(["skip"]).materialize()
        n = rows.count()
        skipped = read.count() - n
        for s in read.filter(expr=col("skip").is_not_null()).take(5) if skipped else []:
            log.warning("dedup input %s: skipped %s", input_path, s["skip"])
        self.parts = self.session.partitions(n)
        self.gram_parts = self.session.partitions(n, per_row=8)
        self.timings["read_s"] = self.clock.done(
            "read", f"{n:,} records in {len(self.chunks)} chunk(s), {skipped:,} skipped", n
        )
        return table, rows, n, skipped

    def check_ids(self, rows, n: int, input_path: str, id_field: str) -> None:
        """Ids must be unique, as in-process: an error naming one that is not."""
        dups = exchange(
            {"r": (rows.map_batches(_id_keys, batch_format="pyarrow"), "idkey")},
            steps.duplicate_ids,
            self.parts,
        ).materialize()
        if dups.count():
            first = dups.take(1)[0]
            raise RecordError(
                f"{input_path}: duplicate {id_field} {first['id']!r} "
                f"({first['records']} records); ids must be unique"
            )
        self.clock.done("ids", "unique", n)

    def exact(self, rows, n: int):
        """One node per distinct normalised text; every row tagged with its node."""
        from ray.data.expressions import col

        exact = exchange(
            {"r": (rows.map_batches(steps.normalized, batch_format="pyarrow"), "nkey")},
            steps.exact,
            self.parts,
        ).materialize()
        nodes = (
            exact.filter(expr=col("support") > 0)
            .select_columns(["node", "id", "text", "norm", "support"])
            .materialize()
        )
        rows = exact.select_columns(["key", "chunk", "id", "text", "node"])
        n_nodes = nodes.count()
        self.timings["exact_s"] = self.clock.done(
            "exact", f"{n_nodes:,} distinct normalised texts", n
        )
        return rows, nodes, n_nodes

    def simhash(self, nodes, n_nodes: int):
        """SimHash candidates, their verification, lexical groups; the lexical representatives
        as the TF-IDF pass's documents (with their shingles)."""
        from ray.data.expressions import col

        cfg, parts, t = self.cfg, self.parts, time.perf_counter()
        banded = nodes.map_batches(
            steps.fingerprinted, fn_kwargs={"ngram": cfg.simhash_ngram}, batch_format="pyarrow"
        ).map_batches(
            steps.bands,
            fn_kwargs={"max_distance": cfg.simhash_max_distance},
            batch_format="pyarrow",
        )
        candidates = exchange(
            {"b": (banded, "bucket")},
            steps.band_pairs,
            parts,
            max_distance=cfg.simhash_max_distance,
            window=cfg.simhash_bucket_window,
        )
        sim = _verify(candidates, nodes, cfg, parts)
        accepted = sim.filter(expr=col("reason") == "").materialize()
        counts = {"candidates": sim.count(), "accepted": accepted.count()}
        self.clock.done(
            "simhash links",
            f"{counts['accepted']:,} of {counts['candidates']:,} candidate pairs accepted",
            n_nodes,
        )
        lexical = self.grouped(
            accepted, "n", nodes, "support", "SimHash links", False, assemble.lexical_nodes
        ).materialize()
        docs = (
            exchange({"n": (lexical, "lex_rep")}, assemble.documents, parts)
            .map_batches(steps.shingled, batch_format="pyarrow")
            .materialize()
        )
        n_docs = docs.count()
        self.timings["simhash_s"] = self.clock.done(
            "simhash groups", f"{n_docs:,} lexical groups", n_nodes, since=t
        )
        return sim, counts, lexical, docs, n_docs

    def tfidf(self, docs, n_docs: int):
        """Document frequencies, vectors, candidates from rare n-grams, cosines, verification,
        semantic groups; the links are streamed through and counted, never stored."""
        from ray.data.expressions import col

        cfg, parts, gram_parts, t = self.cfg, self.parts, self.gram_parts, time.perf_counter()
        ns = tuple(cfg.tfidf_ngrams)
        grams = docs.map_batches(steps.grams, fn_kwargs={"ns": ns}, batch_format="pyarrow")
        df = exchange({"g": (grams, "gram")}, steps.document_frequency, gram_parts).materialize()
        vectors = exchange(
            {"g": (df, "node"), "d": (docs, "node")},
            steps.vectors,
            gram_parts,
            n_docs=n_docs,
            prefix=cfg.tfidf_prefix,
            max_df=cfg.tfidf_max_df,
        ).materialize()
        self.clock.done("tf-idf vectors", f"{df.count():,} (document, n-gram) entries", n_docs)
        rare = (
            (col("df") >= 2)
            if cfg.tfidf_max_df is None
            else (col("df") >= 2) & (col("df") <= cfg.tfidf_max_df)
        )
        postings = df.filter(expr=rare).select_columns(["gram", "node"])
        prefixes = vectors.map_batches(steps.prefix_entries, batch_format="pyarrow")
        occurrences = exchange(
            {"p": (prefixes, "gram"), "f": (postings, "gram")}, steps.occurrences, gram_parts
        )
        qualified = exchange(
            {
                "o": (occurrences, "j"),
                "v": (vectors.select_columns(["node", "shingle", "normval"]), "node"),
            },
            steps.qualified,
            gram_parts,
            min_shared=cfg.tfidf_min_shared,
        )
        scored = exchange(
            {
                "q": (qualified, "i"),
                "v": (vectors.select_columns(["node", "grams", "idf", "w"]), "node"),
            },
            steps.cosines,
            # few and large, as many for 1 CPU as for 4: a partition rebuilds each other document
            # it meets once, so more partitions means more work (about 60 links per document)
            self.session.partitions(n_docs, per_row=2, least=max(4, self.session.cpus)),
            ns=ns,
            threshold=cfg.tfidf_threshold,
        ).materialize()  # each partition's status row (lo = -1) counts the links it scored
        n_candidates = int(scored.filter(expr=col("lo") < 0).sum("hi") or 0)
        del df, postings, prefixes, occurrences, qualified
        self.clock.done("tf-idf candidates", f"{n_candidates:,} candidate links scored", n_docs)
        sem = _verify(scored.filter(expr=col("lo") >= 0), docs, cfg, parts)
        del scored
        accepted = sem.filter(expr=col("reason") == "").materialize()
        with_prefix = vectors.filter(expr=col("plen") > 0).count()
        del vectors
        counts = {
            "candidates": n_candidates,
            "accepted": accepted.count(),
            "pairs": sem.count(),
            "docs_without_prefix": n_docs - with_prefix,
            "prefix": cfg.tfidf_prefix,
            "min_shared": cfg.tfidf_min_shared,
            "max_df": cfg.tfidf_max_df,
        }
        self.clock.done(
            "tf-idf links",
            f"{counts['accepted']:,} of {counts['pairs']:,} pairs at "
            f"cosine >= {cfg.tfidf_threshold} accepted",
            n_docs,
        )
        doc_results = self.grouped(
            accepted, "d", docs, "lex_support", "TF-IDF links", True, assemble.doc_results
        )
        semantic = exchange(
            {"d": (doc_results, "sem_rep")}, assemble.semantic_groups, parts
        ).materialize()
        group_sizes = {
            int(r["sem_size"]): int(r["count()"])
            for r in semantic.filter(expr=col("is_sem_rep"))
            .groupby("sem_size", num_partitions=parts)
            .count()
            .take_all()
        }
        self.timings["tfidf_s"] = self.clock.done(
            "tf-idf groups", f"{sum(group_sizes.values()):,} groups", n_docs, since=t
        )
        return sem, counts, semantic, group_sizes

    def grouped(self, accepted, tag, nodes, weight, what, higher_is_better, assemble_fn):
        """One pass's groups: components of its accepted links, a representative elected per
        component by `weight`, each node's strongest link; `assemble_fn` joins the three to
        `nodes` (passed under `tag`)."""
        reps = graph.representatives(accepted, nodes, weight, self.parts, what)
        partners = graph.strongest_links(accepted, self.parts, higher_is_better=higher_is_better)
        return exchange(
            {tag: (nodes, "node"), "r": (reps, "node"), "p": (partners, "node")},
            assemble_fn,
            self.parts,
        )

    def write(self, table, rows, lexical, semantic, sim, sem, out, field, survivors):
        """Results per node, then per row, written per chunk in input order; the vetoes."""
        parts, t = self.parts, time.perf_counter()
        names = lexical.select_columns(["node", "id", "text"])
        semantic = exchange(
            {"x": (semantic, "tf_partner"), "n": (names, "node")},
            assemble.partner_ids,
            parts,
            partner="tf_partner",
            out="tf_partner_id",
        )
        results = exchange(
            {"n": (lexical, "lex_rep"), "d": (semantic, "node")}, assemble.node_results, parts
        )
        results = exchange(
            {"x": (results, "sh_partner"), "n": (names, "node")},
            assemble.partner_ids,
            parts,
            partner="sh_partner",
            out="sh_partner_id",
        )
        per_row = exchange(
            {"r": (rows, "node"), "f": (results, "node")}, assemble.row_results, parts
        )
        for name in (*OUTPUTS, "deduped.jsonl"):
            shards.clear(shards.join(out, name))
            shards.make_dir(shards.join(out, name))
        written = exchange(
            {"r": (per_row, "chunk"), "c": (table, "chunk")},
            assemble.write_chunks,
            parts,
            out=out,
            field=field,
            survivors=survivors,
        )
        n_written = int(written.sum("rows") or 0)
        vetoed = _vetoed(sim, sem, names, self.chunks, out, field, parts)
        _ensure_parts(out, field, survivors)
        self.timings["write_s"] = self.clock.done(
            "write", f"{n_written:,} rows, {vetoed:,} vetoed links", n_written, since=t
        )
        return n_written, vetoed


def _verify(pairs, nodes, cfg: DedupConfig, parts: int):
    """Candidate pairs -> each pair once, with its score and "" (accepted) or the veto reason."""
    with_lo = exchange({"p": (pairs, "lo"), "n": (nodes, "node")}, steps.with_lo_text, parts)
    return exchange(
        {"p": (with_lo, "hi"), "n": (nodes, "node")}, steps.verified, parts, verify=cfg.verify
    ).materialize()


def _vetoed(sim, sem, names, chunks: list[Chunk], out: str, field: str, parts: int) -> int:
    """vetoed_links.csv: both passes' vetoes with the ids and texts of their ends, one part per
    pass and chunk of the lower end."""
    from ray.data.expressions import col

    def tagged(ds, name: str):
        def tag(batch: pa.Table) -> pa.Table:
            lo = batch.column("lo").to_numpy()
            chunk = chunk_of(lo, chunks)
            return (
                batch.append_column("pass", pa.array([name] * batch.num_rows, pa.string()))
                .append_column("chunk", pa.array(chunk, pa.int64()))
                .append_column("wkey", pa.array(chunk * 2 + (name == "tfidf"), pa.int64()))
            )

        return ds.filter(expr=col("reason") != "").map_batches(tag, batch_format="pyarrow")

    v = tagged(sim, "simhash").union(tagged(sem, "tfidf"))
    v = exchange({"v": (v, "lo"), "n": (names, "node")}, assemble.vetoed_end, parts, end="lo")
    v = exchange({"v": (v, "hi"), "n": (names, "node")}, assemble.vetoed_end, parts, end="hi")
    written = exchange({"v": (v, "wkey")}, assemble.write_vetoed, parts, out=out, field=field)
    return int(written.sum("rows") or 0)


def _ensure_parts(out: str, field: str, survivors: bool) -> None:
    """An output with no rows at all still holds one part: the header (as in-process)."""
    head = audit_headers(field)
    for name in OUTPUTS:
        d = shards.join(out, name)
        if not shards.parts(d):
            shards.write_bytes(
                shards.join(d, shards.part_name(0, name)), shards.csv_bytes(head[name], [])
            )
    d = shards.join(out, "deduped.jsonl")
    if survivors and not shards.parts(d):
        shards.write_bytes(shards.join(d, shards.part_name(0, ".jsonl")), b"")
    if not survivors:
        shards.clear(d)
