"""The audit CSVs: what was kept, what was merged into what, and on which evidence.

Four files follow Cookie-Bench (deduped_queries, query_groups, semantic_deduped_queries,
semantic_query_groups); vetoed_links.csv adds the near-duplicate links that verification
refused, so over- and under-merging can both be inspected without rerunning the tool.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from cogevol.core import shards
from cogevol.dedup.pipeline import DedupResult

FILES = (
    "deduped_queries.csv",
    "query_groups.csv",
    "semantic_deduped_queries.csv",
    "semantic_query_groups.csv",
)


def fmt_score(x: float, digits: int) -> str:
    """A link's score as the audit files print it ("" for no link)."""
    return "" if np.isnan(x) else f"{x:.{digits}f}"


def audit_headers(field: str) -> dict[str, list[str]]:
    """Each audit file's header row, for a text field named `field` (both engines write these)."""
    return {
        "deduped_queries.csv": ["id", field, "group_size"],
        "query_groups.csv": [
            "id",
            "representative_id",
            "group_size",
            "match",
            "exact_duplicate_of",
            "simhash_linked_to",
            "hamming",
            field,
        ],
        "semantic_deduped_queries.csv": ["id", field, "group_size"],
        "semantic_query_groups.csv": [
            "id",
            "representative_id",
            "group_size",
            "lexical_representative_id",
            "tfidf_linked_to",
            "cosine",
            field,
        ],
        "vetoed_links.csv": ["pass", "id_a", "id_b", "score", "reason", f"{field}_a", f"{field}_b"],
    }


def write_audit(res: DedupResult, out_dir: str | Path, field: str = "query") -> dict[str, str]:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ids, texts = res.ids, res.texts
    paths = {}

    def groups(rep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        size = np.bincount(rep, minlength=len(rep))
        return size[rep], size

    lex_size_of_row, lex_size = groups(res.lexical_rep)
    sem_size_of_row, sem_size = groups(res.semantic_rep)

    head = audit_headers(field)

    def write(name: str, rows) -> None:
        p = out / name
        shards.clear(p)  # a Ray run may have left a part directory here
        with open(p, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(head[name])
            w.writerows(rows)
        paths[name] = str(p)

    lex_reps = np.flatnonzero(res.lexical_rep == np.arange(len(ids)))
    write(
        "deduped_queries.csv",
        ((ids[r], texts[r], int(lex_size[r])) for r in lex_reps.tolist()),
    )
    write(
        "query_groups.csv",
        (
            (
                ids[r],
                ids[rep],
                int(lex_size_of_row[r]),
                "representative" if rep == r else ("exact" if res.exact_of[r] != r else "simhash"),
                ids[res.exact_of[r]] if res.exact_of[r] != r else "",
                ids[res.simhash_link[r]] if res.simhash_link[r] >= 0 else "",
                fmt_score(res.simhash_distance[r], 0),
                texts[r],
            )
            for r, rep in enumerate(res.lexical_rep.tolist())
        ),
    )
    sem_reps = np.flatnonzero(res.semantic_rep == np.arange(len(ids)))
    write(
        "semantic_deduped_queries.csv",
        ((ids[r], texts[r], int(sem_size[r])) for r in sem_reps.tolist()),
    )
    write(
        "semantic_query_groups.csv",
        (
            (
                ids[r],
                ids[rep],
                int(sem_size_of_row[r]),
                ids[res.lexical_rep[r]],
                ids[res.tfidf_link[r]] if res.tfidf_link[r] >= 0 else "",
                fmt_score(res.tfidf_cosine[r], 4),
                texts[r],
            )
            for r, rep in enumerate(res.semantic_rep.tolist())
        ),
    )
    write(
        "vetoed_links.csv",
        (
            (p, ids[a], ids[b], f"{s:.4f}", why, texts[a], texts[b])
            for p, a, b, s, why in res.vetoed
        ),
    )
    return paths
