"""The distributed dedup's results per node and per row, and the part files written per chunk:
partition functions of cogevol/dedup/ray_engine.py, like steps.py. The files have the columns
and the cell formatting of audit.write_audit, so that a chunk's parts, read in order, hold the
same rows as the in-process files.
"""

from __future__ import annotations

import numpy as np
import orjson
import pyarrow as pa

from cogevol.core import shards
from cogevol.dedup.audit import audit_headers, fmt_score
from cogevol.dedup.records import raw_records
from cogevol.raydata.exchange import Tables, column, positions, strings

I64, F64, STR, BOOL = pa.int64(), pa.float64(), pa.string(), pa.bool_()


def _pick(t: pa.Table, name: str, at: np.ndarray, fill, dtype=None) -> np.ndarray:
    """t[name] at rows `at`, `fill` where at < 0."""
    values = column(t, name, dtype or np.int64)
    out = np.full(len(at), fill, dtype=values.dtype if len(values) else np.asarray(fill).dtype)
    out[at >= 0] = values[at[at >= 0]]
    return out


def _pick_str(t: pa.Table | None, name: str, at: np.ndarray) -> list[str]:
    values = strings(t, name)
    return [values[k] if k >= 0 else "" for k in at.tolist()]


LEXICAL = pa.schema(
    [
        ("node", I64),
        ("id", STR),
        ("text", STR),
        ("norm", STR),
        ("support", I64),
        ("lex_rep", I64),
        ("sh_partner", I64),
        ("sh_dist", F64),
    ]
)


def lexical_nodes(tables: Tables) -> pa.Table:
    """Each node with its lexical representative (itself when it has no link) and its
    strongest SimHash partner."""
    n = tables["n"]
    if n is None:
        return LEXICAL.empty_table()
    node = column(n, "node")
    rep_at = positions(node, column(tables["r"], "node"))
    par_at = positions(node, column(tables["p"], "node"))
    rep = _pick(tables["r"], "rep", rep_at, -1)
    return pa.table(
        [
            node,
            n.column("id"),
            n.column("text"),
            n.column("norm"),
            column(n, "support"),
            np.where(rep >= 0, rep, node),
            _pick(tables["p"], "partner", par_at, -1),
            _pick(tables["p"], "score", par_at, np.nan, np.float64),
        ],
        schema=LEXICAL,
    )


DOCS = pa.schema([("node", I64), ("id", STR), ("norm", STR), ("lex_support", I64)])


def documents(tables: Tables) -> pa.Table:
    """The lexical representatives (the TF-IDF pass's documents), each with the rows its
    lexical group stands for (all members of a group meet here)."""
    n = tables["n"]
    if n is None:
        return DOCS.empty_table()
    node, rep, support = column(n, "node"), column(n, "lex_rep"), column(n, "support")
    reps, inv = np.unique(rep, return_inverse=True)
    total = np.bincount(inv.ravel(), weights=support, minlength=len(reps)).astype(np.int64)
    at = positions(reps, node)
    return pa.table(
        [reps, n.column("id").take(pa.array(at)), n.column("norm").take(pa.array(at)), total],
        schema=DOCS,
    )


DOC_RESULTS = pa.schema(
    [
        ("node", I64),
        ("id", STR),
        ("lex_support", I64),
        ("sem_rep", I64),
        ("tf_partner", I64),
        ("tf_cos", F64),
    ]
)


def doc_results(tables: Tables) -> pa.Table:
    """Each document with its semantic representative and strongest TF-IDF partner."""
    d = tables["d"]
    if d is None:
        return DOC_RESULTS.empty_table()
    node = column(d, "node")
    rep = _pick(tables["r"], "rep", positions(node, column(tables["r"], "node")), -1)
    par_at = positions(node, column(tables["p"], "node"))
    return pa.table(
        [
            node,
            d.column("id"),
            column(d, "lex_support"),
            np.where(rep >= 0, rep, node),
            _pick(tables["p"], "partner", par_at, -1),
            _pick(tables["p"], "score", par_at, np.nan, np.float64),
        ],
        schema=DOC_RESULTS,
    )


SEMANTIC = pa.schema(
    [
        ("node", I64),
        ("id", STR),
        ("lex_support", I64),
        ("sem_rep_id", STR),
        ("sem_size", I64),
        ("is_sem_rep", BOOL),
        ("tf_partner", I64),
        ("tf_cos", F64),
    ]
)


def semantic_groups(tables: Tables) -> pa.Table:
    """Each document with its semantic group's size and representative id (all documents of a
    group meet here)."""
    d = tables["d"]
    if d is None:
        return SEMANTIC.empty_table()
    node, rep, support = column(d, "node"), column(d, "sem_rep"), column(d, "lex_support")
    reps, inv = np.unique(rep, return_inverse=True)
    size = np.bincount(inv.ravel(), weights=support, minlength=len(reps)).astype(np.int64)
    ids = strings(d, "id")
    rep_id = [ids[k] for k in positions(reps, node).tolist()]
    inv = inv.ravel()
    return pa.table(
        [
            node,
            d.column("id"),
            support,
            [rep_id[k] for k in inv.tolist()],
            size[inv],
            node == rep,
            column(d, "tf_partner"),
            column(d, "tf_cos", np.float64),
        ],
        schema=SEMANTIC,
    )


def partner_ids(tables: Tables, partner: str, out: str) -> pa.Table:
    """Rows keyed by a partner node, with that node's id in column `out` ("" for none)."""
    x = tables["x"]
    if x is None:
        return pa.table({})
    at = positions(column(x, partner), column(tables["n"], "node"))
    return x.append_column(out, pa.array(_pick_str(tables["n"], "id", at), STR))


NODE_RESULTS = pa.schema(
    [
        ("node", I64),
        ("id", STR),
        ("lex_rep_id", STR),
        ("lex_size", I64),
        ("sem_rep_id", STR),
        ("sem_size", I64),
        ("is_lex_rep", BOOL),
        ("is_sem_rep", BOOL),
        ("tf_partner_id", STR),
        ("tf_cos", F64),
        ("sh_partner", I64),
        ("sh_dist", F64),
    ]
)


def node_results(tables: Tables) -> pa.Table:
    """Each node with what its lexical group's representative document knows (all members of a
    lexical group and its document meet here)."""
    n, d = tables["n"], tables["d"]
    if n is None:
        return NODE_RESULTS.empty_table()
    node, rep = column(n, "node"), column(n, "lex_rep")
    at = positions(rep, column(d, "node"))
    if (at < 0).any():
        raise RuntimeError("dedup: a lexical group without its document")
    own = node == rep
    doc_id = strings(d, "id")
    sem_id = strings(d, "sem_rep_id")
    tf_id = strings(d, "tf_partner_id")
    idx = at.tolist()
    return pa.table(
        [
            node,
            n.column("id"),
            [doc_id[k] for k in idx],
            column(d, "lex_support")[at],
            [sem_id[k] for k in idx],
            column(d, "sem_size")[at],
            own,
            own & d.column("is_sem_rep").to_numpy(zero_copy_only=False)[at],
            [tf_id[k] if o else "" for k, o in zip(idx, own.tolist())],
            np.where(own, column(d, "tf_cos", np.float64)[at], np.nan),
            column(n, "sh_partner"),
            column(n, "sh_dist", np.float64),
        ],
        schema=NODE_RESULTS,
    )


ROWS = pa.schema(
    [
        ("key", I64),
        ("chunk", I64),
        ("id", STR),
        ("text", STR),
        ("lex_rep_id", STR),
        ("lex_size", I64),
        ("match", STR),
        ("exact_of", STR),
        ("sh_link", STR),
        ("hamming", STR),
        ("sem_rep_id", STR),
        ("sem_size", I64),
        ("tf_link", STR),
        ("cosine", STR),
        ("lex_row", BOOL),
        ("sem_row", BOOL),
    ]
)


def row_results(tables: Tables) -> pa.Table:
    """Every input row's cells in the four audit files (as audit.write_audit formats them)."""
    r, f = tables["r"], tables["f"]
    if r is None:
        return ROWS.empty_table()
    key, node = column(r, "key"), column(r, "node")
    at = positions(node, column(f, "node"))
    first = key == node  # a node's first row carries its links
    lex_rep = f.column("is_lex_rep").to_numpy(zero_copy_only=False)[at] & first
    sem_rep = f.column("is_sem_rep").to_numpy(zero_copy_only=False)[at] & first
    node_id, sh_id, tf_id = (strings(f, c) for c in ("id", "sh_partner_id", "tf_partner_id"))
    sh_dist, tf_cos = column(f, "sh_dist", np.float64)[at], column(f, "tf_cos", np.float64)[at]
    idx, firsts = at.tolist(), first.tolist()
    lex_ids, sem_ids = strings(f, "lex_rep_id"), strings(f, "sem_rep_id")
    match = np.where(lex_rep, "representative", np.where(first, "simhash", "exact"))
    return pa.table(
        [
            key,
            column(r, "chunk"),
            r.column("id"),
            r.column("text"),
            [lex_ids[k] for k in idx],
            column(f, "lex_size")[at],
            match.tolist(),
            ["" if fi else node_id[k] for k, fi in zip(idx, firsts)],
            [sh_id[k] if fi else "" for k, fi in zip(idx, firsts)],
            [fmt_score(x, 0) if fi else "" for x, fi in zip(sh_dist.tolist(), firsts)],
            [sem_ids[k] for k in idx],
            column(f, "sem_size")[at],
            [tf_id[k] if fi else "" for k, fi in zip(idx, firsts)],
            [fmt_score(x, 4) if fi else "" for x, fi in zip(tf_cos.tolist(), firsts)],
            lex_rep,
            sem_rep,
        ],
        schema=ROWS,
    )


def write_chunks(tables: Tables, out: str, field: str, survivors: bool) -> pa.Table:
    """Each chunk's rows, in input order, into that chunk's part of every output file."""
    r = tables["r"]
    if r is None:
        return pa.table({"chunk": pa.array([], I64), "rows": pa.array([], I64)})
    r = r.sort_by([("chunk", "ascending"), ("key", "ascending")])
    chunk = column(r, "chunk")
    starts = np.flatnonzero(np.r_[True, chunk[1:] != chunk[:-1]])
    ends = np.r_[starts[1:], len(chunk)]
    for s, e in zip(starts.tolist(), ends.tolist()):
        _write_chunk(r.slice(s, e - s), tables["c"], out, field, survivors)
    return pa.table({"chunk": chunk[starts], "rows": ends - starts})


def _write_chunk(r: pa.Table, c: pa.Table, out: str, field: str, survivors: bool) -> None:
    chunk = int(column(r, "chunk")[0])
    cols = {name: r.column(name).to_pylist() for name in r.column_names}
    head = audit_headers(field)
    rows = list(range(r.num_rows))
    lex = [k for k in rows if cols["lex_row"][k]]
    sem = [k for k in rows if cols["sem_row"][k]]
    files = {
        "query_groups.csv": [
            (
                cols["id"][k],
                cols["lex_rep_id"][k],
                cols["lex_size"][k],
                cols["match"][k],
                cols["exact_of"][k],
                cols["sh_link"][k],
                cols["hamming"][k],
                cols["text"][k],
            )
            for k in rows
        ],
        "semantic_query_groups.csv": [
            (
                cols["id"][k],
                cols["sem_rep_id"][k],
                cols["sem_size"][k],
                cols["lex_rep_id"][k],
                cols["tf_link"][k],
                cols["cosine"][k],
                cols["text"][k],
            )
            for k in rows
        ],
        "deduped_queries.csv": [(cols["id"][k], cols["text"][k], cols["lex_size"][k]) for k in lex],
        "semantic_deduped_queries.csv": [
            (cols["id"][k], cols["text"][k], cols["sem_size"][k]) for k in sem
        ],
    }
    for name, body in files.items():
        if body:
            shards.write_bytes(
                shards.join(out, name, shards.part_name(chunk, name)),
                shards.csv_bytes(head[name], body),
            )
    if survivors and sem:
        _write_survivors(c, chunk, {cols["key"][k]: k for k in sem}, cols, out)


def _write_survivors(c: pa.Table, chunk: int, wanted: dict[int, int], cols: dict, out: str):
    """deduped.jsonl's part: the surviving records as read, with their group sizes."""
    at = int(positions(np.array([chunk]), column(c, "chunk"))[0])
    path, start, end = (c.column(x)[at].as_py() for x in ("path", "start", "end"))
    base = int(column(c, "base")[at])
    lines = []
    for pos, obj, _ in raw_records(path, start, None if end < 0 else end):
        k = wanted.get(base | pos)
        if k is not None:
            dedup = {"group_size": cols["sem_size"][k], "lexical_group_size": cols["lex_size"][k]}
            lines.append(orjson.dumps({**obj, "dedup": dedup}) + b"\n")
    if lines:
        shards.write_bytes(
            shards.join(out, "deduped.jsonl", shards.part_name(chunk, ".jsonl")), b"".join(lines)
        )


VETOED = pa.schema([("pass", STR), ("lo", I64), ("hi", I64), ("score", F64), ("reason", STR)])


def vetoed_end(tables: Tables, end: str) -> pa.Table:
    """Vetoed links with the id and text of their `end` node."""
    v = tables["v"]
    if v is None:
        return pa.table({})
    at = positions(column(v, end), column(tables["n"], "node"))
    return v.append_column(
        f"id_{end}", pa.array(_pick_str(tables["n"], "id", at), STR)
    ).append_column(f"text_{end}", pa.array(_pick_str(tables["n"], "text", at), STR))


def write_vetoed(tables: Tables, out: str, field: str) -> pa.Table:
    """Vetoed links into one part per pass and chunk of their lower end, in link order (the
    in-process file's order: SimHash's links, then TF-IDF's, each by pair)."""
    v = tables["v"]
    if v is None:
        return pa.table({"chunk": pa.array([], I64), "rows": pa.array([], I64)})
    v = v.sort_by(
        [("pass", "ascending"), ("chunk", "ascending"), ("lo", "ascending"), ("hi", "ascending")]
    )
    name = "vetoed_links.csv"
    cols = {c: v.column(c).to_pylist() for c in v.column_names}
    group = list(zip(cols["pass"], cols["chunk"]))
    starts = [k for k in range(len(group)) if k == 0 or group[k] != group[k - 1]]
    for s, e in zip(starts, [*starts[1:], len(group)]):
        body = [
            (
                cols["pass"][k],
                cols["id_lo"][k],
                cols["id_hi"][k],
                f"{cols['score'][k]:.4f}",
                cols["reason"][k],
                cols["text_lo"][k],
                cols["text_hi"][k],
            )
            for k in range(s, e)
        ]
        part = shards.part_name(cols["chunk"][s], name, tag=cols["pass"][s])
        shards.write_bytes(
            shards.join(out, name, part), shards.csv_bytes(audit_headers(field)[name], body)
        )
    return pa.table(
        {"chunk": [cols["chunk"][s] for s in starts], "rows": np.diff([*starts, len(group)])}
    )
