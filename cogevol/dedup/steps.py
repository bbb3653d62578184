"""What one partition of each distributed dedup step computes (cogevol/dedup/ray_engine.py
runs them through cogevol.raydata.exchange). Plain functions of Arrow tables, so each is
tested without Ray against the in-process pass it mirrors.

Every step reproduces the in-process arithmetic exactly, not approximately: fingerprints are
integer sums, TF-IDF weights and cosines go through the same functions (tfidf.weigh,
tfidf.pair_cosines) on the same values in the same order, and every tie is broken by record
key, which sorts like the in-process row order. Node keys are the key of a text's first row.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import scipy.sparse as sp

from cogevol.core.hashing import splitmix64
from cogevol.core.text import normalize, shingle_text
from cogevol.dedup import simhash, tfidf
from cogevol.dedup.ngrams import char_ngrams, multi_ngrams
from cogevol.dedup.verify import verify_pairs
from cogevol.raydata.exchange import Tables, column, keys_of_strings, positions, strings

I64, U64, F64 = pa.int64(), pa.uint64(), pa.float64()
PAIR_SCHEMA = pa.schema([("lo", I64), ("hi", I64), ("score", F64)])


def _empty(schema: pa.Schema) -> pa.Table:
    return schema.empty_table()


# --- normalise and exact -------------------------------------------------------------------------


def normalized(batch: pa.Table) -> pa.Table:
    """Map: each row's normalised text, and a key to partition exact duplicates together."""
    norm = [normalize(x) for x in batch.column("text").to_pylist()]
    return batch.append_column("norm", pa.array(norm, pa.string())).append_column(
        "nkey", pa.array(keys_of_strings(norm), I64)
    )


EXACT_SCHEMA = pa.schema(
    [
        ("key", I64),
        ("chunk", I64),
        ("id", pa.string()),
        ("text", pa.string()),
        ("node", I64),
        ("norm", pa.string()),
        ("support", I64),
    ]
)


def exact(tables: Tables) -> pa.Table:
    """Rows with the same normalised text form one node, keyed by its first row; the first row
    also carries the node's text and support (how many rows it stands for)."""
    t = tables["r"]
    if t is None:
        return _empty(EXACT_SCHEMA)
    g = t.group_by("norm").aggregate([("key", "min"), ("key", "count")])
    j = t.select(["key", "chunk", "id", "text", "norm"]).join(g, "norm")
    key, node = j.column("key").to_numpy(), j.column("key_min").to_numpy()
    first = key == node
    norm = pc.if_else(pa.array(first), j.column("norm"), pa.scalar(None, pa.string()))
    support = np.where(first, j.column("key_count").to_numpy(), 0)
    return pa.table(
        [key, j.column("chunk").cast(I64), j.column("id"), j.column("text"), node, norm, support],
        schema=EXACT_SCHEMA,
    )


def duplicate_ids(tables: Tables) -> pa.Table:
    """Ids that more than one record carries (all of an id's records meet here)."""
    t = tables["r"]
    schema = pa.schema([("id", pa.string()), ("records", I64)])
    if t is None:
        return _empty(schema)
    g = t.group_by("id").aggregate([("key", "count")])
    g = g.filter(pc.greater(g.column("key_count"), 1))
    return pa.table([g.column("id"), g.column("key_count")], schema=schema)


# --- SimHash -------------------------------------------------------------------------------------


def fingerprinted(batch: pa.Table, ngram: int) -> pa.Table:
    """Map over nodes: the SimHash of each node's text and whether it has any n-gram."""
    shingles = [shingle_text(x) for x in batch.column("norm").to_pylist()]
    d, g = char_ngrams(shingles, ngram)
    fp = simhash.fingerprints(d, g, len(shingles))
    has = np.bincount(d, minlength=len(shingles)) > 0
    return batch.append_column("fp", pa.array(fp, U64)).append_column("has", pa.array(has))


def bands(batch: pa.Table, max_distance: int) -> pa.Table:
    """Map: one row per node and band, keyed by (band, band value)."""
    fp = batch.column("fp").to_numpy()
    keys = simhash.band_keys(fp, max_distance)
    n, k = len(fp), len(keys)
    band = np.repeat(np.arange(k, dtype=np.int64), n)
    value = np.concatenate(keys) if keys else np.zeros(0, np.uint64)
    return pa.table(
        {
            "band": band,
            "value": pa.array(value, U64),
            "fp": pa.array(np.tile(fp, k), U64),
            "node": np.tile(batch.column("node").to_numpy(), k),
            "has": np.tile(batch.column("has").to_numpy(zero_copy_only=False), k),
            "bucket": pa.array(value ^ splitmix64(band.astype(np.uint64)), U64),
        }
    )


def band_pairs(tables: Tables, max_distance: int, window: int) -> pa.Table:
    """Close pairs inside each band bucket: sorted by (fingerprint, node), each compared with the
    next `window` of its bucket, as simhash.close_pairs does band by band."""
    t = tables["b"]
    if t is None:
        return _empty(PAIR_SCHEMA)
    band, value, fp = column(t, "band"), column(t, "value"), column(t, "fp")
    node, has = column(t, "node"), t.column("has").to_numpy(zero_copy_only=False)
    order = np.lexsort((node, fp, value, band))
    b, v = band[order], value[order]
    group = np.cumsum(np.r_[True, (b[1:] != b[:-1]) | (v[1:] != v[:-1])])
    pi, pj = simhash.window_pairs(group, fp[order], max_distance, window)
    i, j = order[pi], order[pj]
    real = has[i] & has[j]  # texts too short for n-grams all hash to 0
    i, j = i[real], j[real]
    return pa.table(
        [
            np.minimum(node[i], node[j]),
            np.maximum(node[i], node[j]),
            simhash.hamming(fp[i], fp[j]).astype(np.float64),
        ],
        schema=PAIR_SCHEMA,
    )


# --- verification of candidate links -------------------------------------------------------------


def _texts_of(nodes: pa.Table | None, keys: np.ndarray, what: str, col: str = "norm") -> list[str]:
    at = positions(keys, column(nodes, "node"))
    if (at < 0).any():
        raise RuntimeError(f"dedup: {int((at < 0).sum())} {what} without their node")
    texts = strings(nodes, col)
    return [texts[k] for k in at.tolist()]


def with_lo_text(tables: Tables) -> pa.Table:
    """Candidate pairs, each once (a pair can come from several bands or both directions), with
    the normalised text of the lower node."""
    schema = PAIR_SCHEMA.append(pa.field("norm_lo", pa.string()))
    p = tables["p"]
    if p is None:
        return _empty(schema)
    lo, hi, score = column(p, "lo"), column(p, "hi"), column(p, "score", np.float64)
    order = np.lexsort((hi, lo))
    lo, hi, score = lo[order], hi[order], score[order]
    first = np.r_[True, (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])]
    lo, hi, score = lo[first], hi[first], score[first]
    return pa.table([lo, hi, score, _texts_of(tables["n"], lo, "links")], schema=schema)


VERDICT_SCHEMA = PAIR_SCHEMA.append(pa.field("reason", pa.string()))


def verified(tables: Tables, verify: bool) -> pa.Table:
    """Each pair checked by verify.same_request (the in-process code path, verify_pairs):
    reason "" for an accepted link, else why it was vetoed."""
    p = tables["p"]
    if p is None:
        return _empty(VERDICT_SCHEMA)
    lo, hi = column(p, "lo"), column(p, "hi")
    reasons = [""] * len(lo)
    if verify and len(lo):
        texts = strings(p, "norm_lo") + _texts_of(tables["n"], hi, "links")
        n = len(lo)
        _, why = verify_pairs(texts, np.arange(n), np.arange(n, 2 * n), workers=1)
        for k, r in why.items():
            reasons[k] = r
    return pa.table([lo, hi, column(p, "score", np.float64), reasons], schema=VERDICT_SCHEMA)


# --- TF-IDF over the lexical representatives ----------------------------------------------------

GRAM_SCHEMA = pa.schema([("node", I64), ("gram", U64), ("cnt", I64)])


def shingled(batch: pa.Table) -> pa.Table:
    """Map over documents: the text their n-grams are taken from (computed once, shipped as is)."""
    shingles = [shingle_text(x) for x in batch.column("norm").to_pylist()]
    return batch.append_column("shingle", pa.array(shingles, pa.string()))


def grams(batch: pa.Table, ns: tuple[int, ...]) -> pa.Table:
    """Map over documents: each distinct n-gram of a document once, with its count."""
    d, g, cnt = _distinct_grams(batch.column("shingle").to_pylist(), ns)
    node = batch.column("node").to_numpy()[d]
    return pa.table([node, pa.array(g, U64), cnt], schema=GRAM_SCHEMA)


def document_frequency(tables: Tables) -> pa.Table:
    """Every (document, n-gram) row of this partition's n-grams, with the n-gram's document
    frequency (all documents holding an n-gram meet here)."""
    schema = GRAM_SCHEMA.append(pa.field("df", I64))
    t = tables["g"]
    if t is None:
        return _empty(schema)
    g = column(t, "gram")
    vocab, inv, df = np.unique(g, return_inverse=True, return_counts=True)
    return t.append_column("df", pa.array(df[inv.ravel()], I64))


VECTOR_SCHEMA = pa.schema(
    [
        ("node", I64),
        ("shingle", pa.string()),
        ("normval", F64),
        ("plen", I64),
        ("grams", pa.list_(U64)),
        ("idf", pa.list_(pa.float32())),
        ("w", pa.list_(pa.float32())),
        ("prefix", pa.list_(U64)),
    ]
)


def _lists(offsets: np.ndarray, values: np.ndarray, typ: pa.DataType) -> pa.Array:
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), pa.array(values, typ))


def vectors(tables: Tables, n_docs: int, prefix: int, max_df: int | None) -> pa.Table:
    """Each document's TF-IDF vector (weights exactly as tfidf.tfidf_matrix computes them, with
    the global document frequencies) and its `prefix` rarest shareable n-grams."""
    t, docs = tables["g"], tables["d"]
    if t is None:
        return _empty(VECTOR_SCHEMA)
    node, g = column(t, "node"), column(t, "gram", np.uint64)
    order = np.lexsort((g, node))
    node, g = node[order], g[order]
    cnt, df = column(t, "cnt")[order], column(t, "df")[order]
    ids, row = np.unique(node, return_inverse=True)
    vocab, col = np.unique(g, return_inverse=True)
    lengths = np.bincount(row, minlength=len(ids))
    indptr = np.r_[0, np.cumsum(lengths)]
    X = sp.csr_matrix((cnt.astype(np.float32), col.ravel(), indptr), shape=(len(ids), len(vocab)))
    idf = tfidf.idf(df, n_docs)
    norms = tfidf.weigh(X, idf)
    # prefix: per document, the n-grams with 2 <= df <= max_df, rarest first, ties by id
    ok = df >= 2
    if max_df is not None:
        ok &= df <= max_df
    porder = np.lexsort((g, df, row))
    porder = porder[ok[porder]]
    prow = row[porder]
    first = np.r_[True, prow[1:] != prow[:-1]] if len(prow) else np.zeros(0, bool)
    start = np.maximum.accumulate(np.where(first, np.arange(len(prow)), 0)) if len(prow) else prow
    sel = porder[(np.arange(len(prow)) - start) < prefix]  # still sorted by row, then rarity
    plen = np.bincount(row[sel], minlength=len(ids))
    texts = _texts_of(docs, ids, "n-gram rows", col="shingle")
    return pa.table(
        [
            ids,
            texts,
            norms,
            plen,
            _lists(indptr, g, U64),
            _lists(indptr, idf, pa.float32()),
            _lists(indptr, X.data, pa.float32()),
            _lists(np.r_[0, np.cumsum(plen)], g[sel], U64),
        ],
        schema=VECTOR_SCHEMA,
    )


def prefix_entries(batch: pa.Table) -> pa.Table:
    """Map over vectors: (n-gram, document, prefix length) for each prefix n-gram."""
    plen = batch.column("plen").to_numpy()
    flat = pc.list_flatten(batch.column("prefix"))
    return pa.table(
        {
            "gram": flat,
            "node": np.repeat(batch.column("node").to_numpy(), plen),
            "plen": np.repeat(plen, plen),
        }
    )


OCCURRENCE_SCHEMA = pa.schema([("i", I64), ("j", I64), ("plen", I64)])


def occurrences(tables: Tables) -> pa.Table:
    """For each prefix n-gram of a document i, every other document j that holds it (its
    postings: all documents with a shareable n-gram meet in its partition)."""
    p, f = tables["p"], tables["f"]
    if p is None or f is None:
        return _empty(OCCURRENCE_SCHEMA)
    fg, fj = column(f, "gram", np.uint64), column(f, "node")
    order = np.argsort(fg, kind="stable")
    fg, fj = fg[order], fj[order]
    pg, pi, pl = column(p, "gram", np.uint64), column(p, "node"), column(p, "plen")
    s, e = np.searchsorted(fg, pg, "left"), np.searchsorted(fg, pg, "right")
    n = e - s
    total = int(n.sum())
    ends = np.cumsum(n)
    idx = np.repeat(s - (ends - n), n) + np.arange(total)
    i, j, plen = np.repeat(pi, n), fj[idx], np.repeat(pl, n)
    other = i != j
    return pa.table([i[other], j[other], plen[other]], schema=OCCURRENCE_SCHEMA)


QUALIFIED_SCHEMA = pa.schema(
    [("i", I64), ("j", I64), ("shingle_j", pa.string()), ("normval_j", F64)]
)


def qualified(tables: Tables, min_shared: int) -> pa.Table:
    """Candidate links i -> j: j holds at least min(min_shared, prefix length of i) of i's prefix
    n-grams (the in-process `P @ B.T` count); each carries what i needs of j for the cosine."""
    o, v = tables["o"], tables["v"]
    if o is None:
        return _empty(QUALIFIED_SCHEMA)
    i, j, plen = column(o, "i"), column(o, "j"), column(o, "plen")
    ui, ri = np.unique(i, return_inverse=True)  # ranks: one int64 key per (i, j) to count on
    uj, rj = np.unique(j, return_inverse=True)
    key, first, count = np.unique(
        ri.ravel() * np.int64(len(uj)) + rj.ravel(), return_index=True, return_counts=True
    )
    keep = count >= np.minimum(min_shared, plen[first])
    i, j = ui[key[keep] // len(uj)], uj[key[keep] % len(uj)]
    at = positions(j, column(v, "node"))
    texts, normval = strings(v, "shingle"), column(v, "normval", np.float64)
    return pa.table([i, j, [texts[k] for k in at.tolist()], normval[at]], schema=QUALIFIED_SCHEMA)


def _distinct_grams(shingles: list[str], ns: tuple[int, ...]):
    """(row, n-gram, count) of each distinct n-gram of each text, sorted by row then n-gram."""
    d, g = multi_ngrams(shingles, ns)
    order = np.lexsort((g, d))
    d, g = d[order], g[order]
    first = np.flatnonzero(np.r_[True, (d[1:] != d[:-1]) | (g[1:] != g[:-1])]) if len(d) else d
    return d[first], g[first], np.diff(np.r_[first, len(d)])


def cosines(
    tables: Tables, ns: tuple[int, ...], threshold: float, slice_rows: int = 1 << 17
) -> pa.Table:
    """The exact cosine of each candidate link i -> j, computed where i's vector is; pairs at
    `threshold` or above are kept. j's weights on the n-grams the partition's vectors hold are
    rebuilt from its text, those n-grams' idf and j's norm: the in-process matrix's float32
    values, summed in the same order (tfidf.pair_cosines on row-aligned matrices, as
    tfidf.similar_pairs does)."""
    q, v = tables["q"], tables["v"]
    if q is None:
        return _empty(PAIR_SCHEMA)
    i, j = column(q, "i"), column(q, "j")
    # the documents i: their vectors over the partition's n-gram vocabulary
    ui, ia = np.unique(i, return_inverse=True)
    at = pa.array(positions(ui, column(v, "node")))
    a_len = pc.list_value_length(v.column("grams").take(at)).to_numpy(zero_copy_only=False)
    a_gram = pc.list_flatten(v.column("grams").take(at)).to_numpy()
    vocab, a_col = np.unique(a_gram, return_inverse=True)
    col_idf = np.zeros(len(vocab), np.float32)
    col_idf[a_col] = pc.list_flatten(v.column("idf").take(at)).to_numpy()
    A = sp.csr_matrix(
        (
            pc.list_flatten(v.column("w").take(at)).to_numpy(),
            a_col.ravel(),
            np.r_[0, np.cumsum(a_len)],
        ),
        shape=(len(ui), len(vocab)),
    )
    # the documents j: their counts on that vocabulary (n-grams off it meet no i here), weighted
    # as tfidf.weigh does
    uj, first_j, jb = np.unique(j, return_index=True, return_inverse=True)
    d, g = multi_ngrams(q.column("shingle_j").take(pa.array(first_j)).to_pylist(), ns)
    b_col = np.minimum(np.searchsorted(vocab, g), max(len(vocab) - 1, 0))
    inside = vocab[b_col] == g if len(vocab) else np.zeros(len(g), bool)
    d, b_col = d[inside], b_col[inside]
    B = sp.csr_matrix(  # counts, as tfidf_matrix makes them: rows sorted, duplicates summed
        (np.ones(len(d), np.float32), (d, b_col)), shape=(len(uj), len(vocab))
    )
    B.sum_duplicates()
    tfidf.weigh(B, col_idf[B.indices], norms=column(q, "normval_j", np.float64)[first_j])
    ia, jb = ia.ravel(), jb.ravel()
    cos = np.empty(len(i), np.float32)
    for s in range(0, len(i), slice_rows):
        cos[s : s + slice_rows] = tfidf.pair_cosines(
            A[ia[s : s + slice_rows]], B[jb[s : s + slice_rows]]
        )
    keep = cos >= threshold
    i, j = i[keep], j[keep]
    return pa.table(  # and a row lo = -1 counting the candidate links this partition scored
        [
            np.r_[np.minimum(i, j), -1],
            np.r_[np.maximum(i, j), len(keep)],
            np.r_[cos[keep].astype(np.float64), np.nan],
        ],
        schema=PAIR_SCHEMA,
    )
