"""Connected components, representatives and strongest links over a link table, on Ray Data.

Components: the alternating large-star / small-star rounds of Kiveris et al. (2014),
"Connected Components in MapReduce and Beyond": each round is one keyed exchange over the edges
alone (never the nodes), and the rounds end with every component a star around its smallest
node. Node ids are record keys, so "smallest" is "earliest in the input", and the result does
not depend on how many workers ran it or in which order.

Representatives are then elected per star as in-process (cogevol.dedup.cluster.elect): most
support, then earliest node. Strongest links break ties as cluster.strongest_link does.
"""

from __future__ import annotations

import logging

import numpy as np
import pyarrow as pa

from cogevol.raydata.exchange import Tables, column, exchange, positions

log = logging.getLogger(__name__)

I64, F64 = pa.int64(), pa.float64()
EDGES = pa.schema([("lo", I64), ("hi", I64)])
MAX_ROUNDS = 64


def _unique(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct (a, b) pairs, sorted by a then b."""
    order = np.lexsort((b, a))
    a, b = a[order], b[order]
    keep = np.r_[True, (a[1:] != a[:-1]) | (b[1:] != b[:-1])] if len(a) else np.zeros(0, bool)
    return a[keep], b[keep]


def both_ways(batch: pa.Table) -> pa.Table:
    """Map: undirected edges (lo, hi) -> directed rows (u, v), each edge both ways."""
    lo, hi = batch.column("lo").to_numpy(), batch.column("hi").to_numpy()
    return pa.table({"u": np.r_[lo, hi], "v": np.r_[hi, lo]})


def large_star(tables: Tables) -> pa.Table:
    """Every node u links its larger neighbours to the smallest of u and its neighbours. Also
    counts the nodes that are not yet leaves or centres of a star around their component's
    smallest node (a row lo = -1, hi = count): zero means the rounds are done."""
    t = tables["e"]
    if t is None:
        return EDGES.empty_table()
    u, v = _unique(column(t, "u"), column(t, "v"))
    starts = np.flatnonzero(np.r_[True, u[1:] != u[:-1]])
    group = np.cumsum(np.r_[True, u[1:] != u[:-1]]) - 1
    m = np.minimum(np.minimum.reduceat(v, starts), u[starts])
    smaller = np.bincount(group, weights=v < u, minlength=len(starts))
    larger = np.bincount(group, weights=v > u, minlength=len(starts))
    bad = int(((smaller > 1) | ((smaller >= 1) & (larger >= 1))).sum())
    up = v > u
    return pa.table([np.r_[m[group[up]], -1], np.r_[v[up], bad]], schema=EDGES)


def small_star(tables: Tables) -> pa.Table:
    """Every node u links itself and its smaller neighbours to the smallest of them."""
    t = tables["e"]
    if t is None:
        return EDGES.empty_table()
    u, v = _unique(column(t, "hi"), column(t, "lo"))  # grouped by the larger end
    starts = np.flatnonzero(np.r_[True, u[1:] != u[:-1]])
    group = np.cumsum(np.r_[True, u[1:] != u[:-1]]) - 1
    m = np.minimum.reduceat(v, starts)
    mv = m[group]
    keep = v != mv
    return pa.table([np.r_[mv[keep], m], np.r_[v[keep], u[starts]]], schema=EDGES)


def _status(batch: pa.Table) -> pa.Table:
    lo, hi = batch.column("lo").to_numpy(), batch.column("hi").to_numpy()
    return pa.table({"bad": [int(hi[lo < 0].sum())]})


def _edges_only(batch: pa.Table) -> pa.Table:
    return batch.filter(pa.array(batch.column("lo").to_numpy() >= 0))


def components(links, parts: int, name: str = "links"):
    """Undirected links (columns lo, hi) -> star edges (lo = the component's smallest node,
    hi = another node of it), materialised. Nodes without links are in no edge."""
    edges = links.select_columns(["lo", "hi"])
    for r in range(1, MAX_ROUNDS + 1):
        star = exchange(
            {"e": (edges.map_batches(both_ways, batch_format="pyarrow"), "u")}, large_star, parts
        ).materialize()
        bad = star.map_batches(_status, batch_format="pyarrow").sum("bad") or 0
        edges = star.map_batches(_edges_only, batch_format="pyarrow").materialize()
        log.info("components of %s: round %d, %d node(s) not yet in a star", name, r, bad)
        if bad == 0:
            return edges
        edges = exchange({"e": (edges, "hi")}, small_star, parts).materialize()
    raise RuntimeError(f"components of {name}: no convergence in {MAX_ROUNDS} rounds")


def with_member_support(tables: Tables, support: str) -> pa.Table:
    """Star edges with the support of their leaf (the leaf's node row meets it here)."""
    e, n = tables["e"], tables["n"]
    schema = EDGES.append(pa.field("s_hi", F64))
    if e is None:
        return schema.empty_table()
    hi = column(e, "hi")
    at = positions(hi, column(n, "node"))
    return pa.table([column(e, "lo"), hi, column(n, support)[at].astype(np.float64)], schema=schema)


REPS = pa.schema([("node", I64), ("rep", I64)])


def elect(tables: Tables, support: str) -> pa.Table:
    """Per star: its representative, the member with most support, then the earliest; one row
    (member, representative) for the centre and every leaf."""
    e, n = tables["e"], tables["n"]
    if e is None:
        return REPS.empty_table()
    lo, hi, s_hi = column(e, "lo"), column(e, "hi"), column(e, "s_hi", np.float64)
    centres = np.unique(lo)
    s_c = column(n, support)[positions(centres, column(n, "node"))].astype(np.float64)
    comp = np.r_[lo, centres]
    member = np.r_[hi, centres]
    s = np.r_[s_hi, s_c]
    best = np.lexsort((member, -s, comp))
    first = best[np.r_[True, comp[best][1:] != comp[best][:-1]]]
    rep = member[first][positions(comp, comp[first])]
    return pa.table([member, rep], schema=REPS)


def representatives(links, nodes, support: str, parts: int, name: str):
    """Accepted links -> (node, rep) for every node in a component of two or more; `nodes` has
    columns node and `support`."""
    stars = components(links, parts, name)
    stars = exchange(
        {"e": (stars, "hi"), "n": (nodes, "node")}, with_member_support, parts, support=support
    )
    return exchange({"e": (stars, "lo"), "n": (nodes, "node")}, elect, parts, support=support)


def directed(batch: pa.Table) -> pa.Table:
    """Map: links (lo, hi, score) -> (node, partner, score), each link from both ends."""
    lo, hi, s = (batch.column(c).to_numpy() for c in ("lo", "hi", "score"))
    return pa.table({"node": np.r_[lo, hi], "partner": np.r_[hi, lo], "score": np.r_[s, s]})


PARTNERS = pa.schema([("node", I64), ("partner", I64), ("score", F64)])


def strongest(tables: Tables, higher_is_better: bool) -> pa.Table:
    """Each node's best-scoring partner; ties go to partners after the node, then before it,
    each in order (cluster.strongest_link's tie order)."""
    t = tables["l"]
    if t is None:
        return PARTNERS.empty_table()
    node, partner = column(t, "node"), column(t, "partner")
    s = column(t, "score", np.float64)
    o = np.lexsort((partner, partner < node, -s if higher_is_better else s, node))
    first = o[np.r_[True, node[o][1:] != node[o][:-1]]]
    return pa.table([node[first], partner[first], s[first]], schema=PARTNERS)


def strongest_links(links, parts: int, higher_is_better: bool):
    return exchange(
        {"l": (links.map_batches(directed, batch_format="pyarrow"), "node")},
        strongest,
        parts,
        higher_is_better=higher_is_better,
    )
