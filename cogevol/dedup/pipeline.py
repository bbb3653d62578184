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

from cogevol.dedup import cluster, simhash, tfidf
from cogevol.dedup.ngrams import char_ngrams, multi_ngrams
from cogevol.dedup.verify import verify_pairs
from cogevol.text import normalize, shingle_text

log = logging.getLogger(__name__)


@dataclass
class DedupConfig:
    """Knobs of the dedup stage (params.yaml: dedup). Defaults are tuned on the labelled set
    in benchmarks/dedup_quality.py; Cookie-Bench's were distance 3 at n=2 and cosine 0.85."""

    simhash_ngram: int = 2  # character n for SimHash features
    simhash_max_distance: int = 3  # link fingerprints at Hamming distance <= this
    simhash_bucket_window: int = 64  # neighbours compared inside one band bucket
    tfidf_ngrams: tuple[int, ...] = (2, 3)  # character n-gram sizes for TF-IDF
    tfidf_threshold: float = 0.7  # link pairs at cosine >= this
    tfidf_prefix: int = 3  # rarest shareable n-grams per text that generate candidates
    tfidf_min_shared: int = 2  # prefix n-grams a candidate must share
    tfidf_max_df: int | None = 500  # n-grams in more texts than this never generate candidates
    verify: bool = True  # veto links whose token difference shows a different request
    workers: int = 2  # processes for the TF-IDF join and verification

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


def _verify(stage: str, norm: list[str], i: np.ndarray, j: np.ndarray, score: np.ndarray, cfg: DedupConfig,
            vetoed: list, rows: np.ndarray) -> np.ndarray:
    """Boolean mask of accepted links; vetoed ones are recorded with their reason."""
    if not cfg.verify:
        return np.ones(len(i), bool)
    keep, reasons = verify_pairs(norm, i, j, cfg.workers)
    for k in sorted(reasons):
        vetoed.append((stage, int(rows[i[k]]), int(rows[j[k]]), float(score[k]), reasons[k]))
    return keep


def dedup(ids: list[str], texts: list[str], cfg: DedupConfig | None = None) -> DedupResult:
    cfg = cfg or DedupConfig()
    if len(set(ids)) != len(ids):
        raise ValueError("dedup: ids must be unique")
    timings = {}
    t0 = time.perf_counter()
    n = len(texts)
    norm = [normalize(t) for t in texts]
    timings["normalize_s"] = time.perf_counter() - t0

    # exact: one node per distinct normalised text, remembered by its first row
    t = time.perf_counter()
    first_row: dict[str, int] = {}
    exact_of = np.fromiter((first_row.setdefault(s, r) for r, s in enumerate(norm)), np.int64, n)
    u_rows = np.fromiter(first_row.values(), np.int64, len(first_row))  # node -> first row
    u_norm = list(first_row.keys())
    node_of_row = np.empty(n, np.int64)
    node_index = np.full(n, -1, np.int64)
    node_index[u_rows] = np.arange(len(u_rows))
    node_of_row[:] = node_index[exact_of]
    support = np.bincount(node_of_row, minlength=len(u_rows))
    timings["exact_s"] = time.perf_counter() - t
    log.info("dedup: %d texts, %d distinct after normalisation (%.1fs)", n, len(u_rows), time.perf_counter() - t0)

    # SimHash over character n-grams of the punctuation-free text
    t = time.perf_counter()
    vetoed: list = []
    shingles = [shingle_text(s) for s in u_norm]
    d, g = char_ngrams(shingles, cfg.simhash_ngram)
    fp = simhash.fingerprints(d, g, len(shingles))
    si, sj, sd = simhash.close_pairs(fp, cfg.simhash_max_distance, cfg.simhash_bucket_window)
    has_grams = np.bincount(d, minlength=len(shingles)) > 0
    real = has_grams[si] & has_grams[sj]  # texts too short for n-grams all hash to 0
    si, sj, sd = si[real], sj[real], sd[real]
    ok = _verify("simhash", u_norm, si, sj, sd, cfg, vetoed, u_rows)
    sim_pairs = (int(len(si)), int(ok.sum()))
    si, sj, sd = si[ok], sj[ok], sd[ok]
    lex_label = cluster.components(len(u_rows), si, sj)
    lex_rep_node = cluster.elect(lex_label, support, u_rows)
    sim_partner, sim_dist = cluster.strongest_link(len(u_rows), si, sj, sd, higher_is_better=False)
    timings["simhash_s"] = time.perf_counter() - t
    log.info("dedup: SimHash linked %d of %d candidate pairs -> %d lexical groups (%.1fs)",
             sim_pairs[1], sim_pairs[0], len(np.unique(lex_rep_node)), timings["simhash_s"])

    # TF-IDF over lexical representatives only
    t = time.perf_counter()
    lex_nodes = np.unique(lex_rep_node)
    lex_support = np.bincount(lex_rep_node, weights=support, minlength=len(u_rows))[lex_nodes]
    lex_sh = [shingles[k] for k in lex_nodes.tolist()]
    d, g = multi_ngrams(lex_sh, cfg.tfidf_ngrams)
    X, df = tfidf.tfidf_matrix(d, g, len(lex_sh))
    ti, tj, tc, tstats = tfidf.similar_pairs(X, df, cfg.tfidf_threshold, cfg.tfidf_prefix, cfg.tfidf_min_shared,
                                             cfg.tfidf_max_df, cfg.workers)
    lex_norm = [u_norm[k] for k in lex_nodes.tolist()]
    ok = _verify("tfidf", lex_norm, ti, tj, tc, cfg, vetoed, u_rows[lex_nodes])
    tf_pairs = (int(len(ti)), int(ok.sum()))
    ti, tj, tc = ti[ok], tj[ok], tc[ok]
    sem_label = cluster.components(len(lex_nodes), ti, tj)
    sem_rep_local = cluster.elect(sem_label, lex_support, u_rows[lex_nodes])
    tf_partner, tf_cos = cluster.strongest_link(len(lex_nodes), ti, tj, tc, higher_is_better=True)
    timings["tfidf_s"] = time.perf_counter() - t
    log.info("dedup: TF-IDF linked %d of %d pairs -> %d groups (%.1fs)", tf_pairs[1], tf_pairs[0],
             len(np.unique(sem_rep_local)), timings["tfidf_s"])

    # map everything back to rows
    lex_rep_row = u_rows[lex_rep_node][node_of_row]
    local_of_node = np.full(len(u_rows), -1, np.int64)
    local_of_node[lex_nodes] = np.arange(len(lex_nodes))
    sem_rep_node_of_lex = lex_nodes[sem_rep_local]  # local -> node
    sem_rep_row = u_rows[sem_rep_node_of_lex[local_of_node[lex_rep_node[node_of_row]]]]

    row_is_node = np.zeros(n, bool)
    row_is_node[u_rows] = True
    simhash_link = np.full(n, -1, np.int64)
    simhash_distance = np.full(n, np.nan)
    linked = row_is_node & (sim_partner[node_of_row] >= 0)
    simhash_link[linked] = u_rows[sim_partner[node_of_row[linked]]]
    simhash_distance[linked] = sim_dist[node_of_row[linked]]
    tfidf_link = np.full(n, -1, np.int64)
    tfidf_cosine = np.full(n, np.nan)
    lex_rep_rows = u_rows[lex_nodes]
    has = tf_partner >= 0
    tfidf_link[lex_rep_rows[has]] = lex_rep_rows[tf_partner[has]]
    tfidf_cosine[lex_rep_rows[has]] = tf_cos[has]

    timings["total_s"] = time.perf_counter() - t0
    summary = {
        "input": n,
        "exact_unique": int(len(u_rows)),
        "lexical_groups": int(len(lex_nodes)),
        "semantic_groups": int(len(np.unique(sem_rep_row))),
        "simhash_links": {"candidates": sim_pairs[0], "accepted": sim_pairs[1]},
        "tfidf_links": {"candidates": tf_pairs[0], "accepted": tf_pairs[1], **tstats},
        "vetoed": len(vetoed),
        "config": asdict(cfg),
        **{k: round(v, 3) for k, v in timings.items()},
    }
    return DedupResult(ids, texts, norm, exact_of, lex_rep_row, simhash_link, simhash_distance,
                       sem_rep_row, tfidf_link, tfidf_cosine, vetoed, summary)
