"""The dedup tool: normalise -> exact -> SimHash -> TF-IDF -> representatives -> audit CSVs.

Cookie-Bench appendix A.1, at production scale: every pass is vectorised or indexed, and every
merge is written down (which pass, which partner, what score) so it can be traced and reversed.
Candidate links from both near-duplicate passes are checked by `verify.same_request` so that
requests sharing boilerplate but asking for different things stay apart.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from cogevol.core.text import normalize, shingle_text
from cogevol.dedup import cluster, simhash, tfidf
from cogevol.dedup.ngrams import char_ngrams, multi_ngrams
from cogevol.dedup.verify import verify_pairs

log = logging.getLogger(__name__)


@dataclass
class DedupConfig:
    """Knobs of the dedup stage (params.yaml: dedup). Defaults are tuned on the labelled set
    in benchmarks/dedup_quality.py; Cookie-Bench's were distance 3 at n=2 and cosine 0.85."""

    simhash_ngram: int = 2
    simhash_max_distance: int = 3
    simhash_bucket_window: int = 64
    tfidf_ngrams: tuple[int, ...] = (2, 3)
    tfidf_threshold: float = 0.7
    tfidf_prefix: int = 3
    tfidf_min_shared: int = 2
    tfidf_max_df: int | None = 500
    verify: bool = True
    workers: int = 2

    def __post_init__(self) -> None:
        self.tfidf_ngrams = tuple(self.tfidf_ngrams)


@dataclass
class DedupResult:
    ids: list[str]
    texts: list[str]
    normalized: list[str]
    exact_of: np.ndarray  # row -> first row with the same normalised text
    lexical_rep: np.ndarray  # row -> row of its lexical (exact + SimHash) representative
    simhash_link: np.ndarray  # row -> row it was linked to by SimHash (-1 if none)
    simhash_distance: np.ndarray
    semantic_rep: np.ndarray  # row -> row of its final (TF-IDF) representative
    tfidf_link: np.ndarray
    tfidf_cosine: np.ndarray
    vetoed: list[tuple[str, int, int, float, str]]  # (pass, row_a, row_b, score, reason)
    summary: dict = field(default_factory=dict)

    def group_sizes(self) -> list[int]:
        """Rows per final (semantic) group, one entry per group."""
        size = np.bincount(self.semantic_rep, minlength=len(self.ids))
        return size[size > 0].tolist()


def _verify(
    stage: str,
    norm: list[str],
    i: np.ndarray,
    j: np.ndarray,
    score: np.ndarray,
    cfg: DedupConfig,
    vetoed: list,
    rows: np.ndarray,
) -> np.ndarray:
    """Boolean mask of accepted links; vetoed ones are recorded with their reason."""
    if not cfg.verify:
        return np.ones(len(i), bool)
    keep, reasons = verify_pairs(norm, i, j, cfg.workers)
    for k in sorted(reasons):
        vetoed.append((stage, int(rows[i[k]]), int(rows[j[k]]), float(score[k]), reasons[k]))
    return keep


@dataclass
class _Nodes:
    """Exact pass: one node per distinct normalised text."""

    norm: list[str]  # node -> normalised text
    rows: np.ndarray  # node -> its first row
    of_row: np.ndarray  # row -> node
    support: np.ndarray  # node -> rows it stands for


@dataclass
class _Links:
    """One near-duplicate pass over some nodes: accepted links, groups, strongest partners."""

    rep: np.ndarray  # node (of this pass) -> its representative node (of this pass)
    partner: np.ndarray  # node -> strongest accepted partner (-1 if none)
    score: np.ndarray  # the partner link's score
    pairs: tuple[int, int]  # (candidate pairs, accepted)
    stats: dict = field(default_factory=dict)


def _exact_nodes(norm: list[str]) -> tuple[np.ndarray, _Nodes]:
    """(row -> first row with the same text, the nodes)."""
    n = len(norm)
    first_row: dict[str, int] = {}
    exact_of = np.fromiter((first_row.setdefault(s, r) for r, s in enumerate(norm)), np.int64, n)
    rows = np.fromiter(first_row.values(), np.int64, len(first_row))
    node_index = np.full(n, -1, np.int64)
    node_index[rows] = np.arange(len(rows))
    of_row = node_index[exact_of]
    return exact_of, _Nodes(
        list(first_row.keys()), rows, of_row, np.bincount(of_row, minlength=len(rows))
    )


def _simhash_pass(nodes: _Nodes, shingles: list[str], cfg: DedupConfig, vetoed: list) -> _Links:
    """SimHash over character n-grams of the punctuation-free text, verified, grouped."""
    d, g = char_ngrams(shingles, cfg.simhash_ngram)
    fp = simhash.fingerprints(d, g, len(shingles))
    si, sj, sd = simhash.close_pairs(fp, cfg.simhash_max_distance, cfg.simhash_bucket_window)
    has_grams = np.bincount(d, minlength=len(shingles)) > 0
    real = has_grams[si] & has_grams[sj]  # texts too short for n-grams all hash to 0
    si, sj, sd = si[real], sj[real], sd[real]
    ok = _verify("simhash", nodes.norm, si, sj, sd, cfg, vetoed, nodes.rows)
    pairs = (int(len(si)), int(ok.sum()))
    si, sj, sd = si[ok], sj[ok], sd[ok]
    rep = cluster.elect(cluster.components(len(nodes.rows), si, sj), nodes.support, nodes.rows)
    partner, dist = cluster.strongest_link(len(nodes.rows), si, sj, sd, higher_is_better=False)
    return _Links(rep, partner, dist, pairs)


def _tfidf_pass(
    nodes: _Nodes,
    shingles: list[str],
    lex_nodes: np.ndarray,
    lex_rep: np.ndarray,
    cfg: DedupConfig,
    vetoed: list,
) -> _Links:
    """TF-IDF over the lexical representatives only (indices local to `lex_nodes`), verified,
    grouped."""
    support = np.bincount(lex_rep, weights=nodes.support, minlength=len(nodes.rows))[lex_nodes]
    d, g = multi_ngrams([shingles[k] for k in lex_nodes.tolist()], cfg.tfidf_ngrams)
    X, df = tfidf.tfidf_matrix(d, g, len(lex_nodes))
    ti, tj, tc, stats = tfidf.similar_pairs(
        X,
        df,
        cfg.tfidf_threshold,
        cfg.tfidf_prefix,
        cfg.tfidf_min_shared,
        cfg.tfidf_max_df,
        cfg.workers,
    )
    ok = _verify(
        "tfidf",
        [nodes.norm[k] for k in lex_nodes.tolist()],
        ti,
        tj,
        tc,
        cfg,
        vetoed,
        nodes.rows[lex_nodes],
    )
    pairs = (int(len(ti)), int(ok.sum()))
    ti, tj, tc = ti[ok], tj[ok], tc[ok]
    rep = cluster.elect(cluster.components(len(lex_nodes), ti, tj), support, nodes.rows[lex_nodes])
    partner, cos = cluster.strongest_link(len(lex_nodes), ti, tj, tc, higher_is_better=True)
    return _Links(rep, partner, cos, pairs, stats)


def _links_to_rows(
    n: int, rows_of: np.ndarray, partner: np.ndarray, score: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the row of its pass partner (-1 if none) and the link's score; `rows_of` maps the
    pass's nodes to rows."""
    link, value = np.full(n, -1, np.int64), np.full(n, np.nan)
    has = partner >= 0
    link[rows_of[has]] = rows_of[partner[has]]
    value[rows_of[has]] = score[has]
    return link, value


def dedup(ids: list[str], texts: list[str], cfg: DedupConfig | None = None) -> DedupResult:
    """Normalise, exact, SimHash, TF-IDF; each row mapped to its representatives, every link and
    veto recorded (see the module docstring)."""
    cfg = cfg or DedupConfig()
    if len(set(ids)) != len(ids):
        raise ValueError("dedup: ids must be unique")
    timings, vetoed = {}, []
    t0 = t = time.perf_counter()
    n = len(texts)
    norm = [normalize(x) for x in texts]
    timings["normalize_s"] = time.perf_counter() - t

    t = time.perf_counter()
    exact_of, nodes = _exact_nodes(norm)
    timings["exact_s"] = time.perf_counter() - t
    log.info(
        "dedup: %d texts, %d distinct after normalisation (%.1fs)",
        n,
        len(nodes.rows),
        time.perf_counter() - t0,
    )

    t = time.perf_counter()
    shingles = [shingle_text(x) for x in nodes.norm]
    lex = _simhash_pass(nodes, shingles, cfg, vetoed)
    lex_nodes = np.unique(lex.rep)
    timings["simhash_s"] = time.perf_counter() - t
    log.info(
        "dedup: SimHash linked %d of %d candidate pairs -> %d lexical groups (%.1fs)",
        lex.pairs[1],
        lex.pairs[0],
        len(lex_nodes),
        timings["simhash_s"],
    )

    t = time.perf_counter()
    sem = _tfidf_pass(nodes, shingles, lex_nodes, lex.rep, cfg, vetoed)
    timings["tfidf_s"] = time.perf_counter() - t
    log.info(
        "dedup: TF-IDF linked %d of %d pairs -> %d groups (%.1fs)",
        sem.pairs[1],
        sem.pairs[0],
        len(np.unique(sem.rep)),
        timings["tfidf_s"],
    )

    # map everything back to rows
    lex_rep_row = nodes.rows[lex.rep][nodes.of_row]
    local_of_node = np.full(len(nodes.rows), -1, np.int64)
    local_of_node[lex_nodes] = np.arange(len(lex_nodes))
    sem_rep_row = nodes.rows[lex_nodes[sem.rep][local_of_node[lex.rep[nodes.of_row]]]]
    simhash_link, simhash_distance = _links_to_rows(n, nodes.rows, lex.partner, lex.score)
    tfidf_link, tfidf_cosine = _links_to_rows(n, nodes.rows[lex_nodes], sem.partner, sem.score)

    timings["total_s"] = time.perf_counter() - t0
    summary = {
        "input": n,
        "exact_unique": int(len(nodes.rows)),
        "lexical_groups": int(len(lex_nodes)),
        "semantic_groups": int(len(np.unique(sem_rep_row))),
        "simhash_links": {"candidates": lex.pairs[0], "accepted": lex.pairs[1]},
        "tfidf_links": {"candidates": sem.pairs[0], "accepted": sem.pairs[1], **sem.stats},
        "vetoed": len(vetoed),
        "config": asdict(cfg),
        **{k: round(v, 3) for k, v in timings.items()},
    }
    return DedupResult(
        ids,
        texts,
        norm,
        exact_of,
        lex_rep_row,
        simhash_link,
        simhash_distance,
        sem_rep_row,
        tfidf_link,
        tfidf_cosine,
        vetoed,
        summary,
    )
