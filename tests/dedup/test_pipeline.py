import csv
import json
import subprocess
import sys

import orjson

from cogevol.dedup.audit import FILES, write_audit
from cogevol.dedup.pipeline import DedupConfig, dedup
from cogevol_samples.queries import labelled_set, pairwise_scores

TEXTS = {
    "a1": "Make a 10-slide deck on photosynthesis for 7th grade",
    "a2": "MAKE A 10-SLIDE DECK ON PHOTOSYNTHESIS FOR 7TH GRADE",
    "a3": "make a 10-slide deck on photosynthsis for 7th grade!",
    "b1": "Make a 12-slide deck on photosynthesis for 7th grade",
    "c1": "帮我做一份关于光合作用的课件",
    "c2": "帮我作一份关于光合作用的课件",
    "d1": "帮我做一份关于呼吸作用的课件",
}


def _run(texts=TEXTS, **cfg):
    ids = list(texts)
    return ids, dedup(ids, list(texts.values()), DedupConfig(**cfg))


def test_groups_and_representatives():
    ids, res = _run()
    rep = {ids[r]: ids[res.semantic_rep[r]] for r in range(len(ids))}
    assert rep == {"a1": "a1", "a2": "a1", "a3": "a1", "b1": "b1", "c1": "c1", "c2": "c1", "d1": "d1"}
    lex = {ids[r]: ids[res.lexical_rep[r]] for r in range(len(ids))}
    assert lex["a2"] == "a1"  # exact after normalisation
    assert res.summary["exact_unique"] == 6 and res.summary["semantic_groups"] == 4
    assert {(ids[a], ids[b]) for _, a, b, _, _ in res.vetoed} >= {("a1", "b1")}


def test_without_verification_boilerplate_merges():
    ids, res = _run(verify=False, tfidf_threshold=0.7)
    assert res.semantic_rep[ids.index("b1")] == res.semantic_rep[ids.index("a1")]


def test_duplicate_ids_are_rejected():
    import pytest

    with pytest.raises(ValueError, match="unique"):
        dedup(["x", "x"], ["a", "b"])


def test_audit_csvs_trace_every_merge(tmp_path):
    ids, res = _run()
    write_audit(res, tmp_path, "request")
    for name in FILES:
        assert (tmp_path / name).exists()
    groups = list(csv.DictReader(open(tmp_path / "query_groups.csv", encoding="utf-8")))
    sem = list(csv.DictReader(open(tmp_path / "semantic_query_groups.csv", encoding="utf-8")))
    assert [g["id"] for g in groups] == ids and [s["id"] for s in sem] == ids
    by = {g["id"]: g for g in groups}
    assert by["a2"]["match"] == "exact" and by["a2"]["exact_duplicate_of"] == "a1"
    s = {x["id"]: x for x in sem}
    assert s["a3"]["representative_id"] == "a1" and s["a3"]["tfidf_linked_to"] == "a1" and float(s["a3"]["cosine"]) >= 0.7
    vetoed = list(csv.DictReader(open(tmp_path / "vetoed_links.csv", encoding="utf-8")))
    assert any(v["reason"] == "numbers differ" for v in vetoed)
    kept = [r["id"] for r in csv.DictReader(open(tmp_path / "semantic_deduped_queries.csv", encoding="utf-8"))]
    assert kept == ["a1", "b1", "c1", "d1"]


def test_quality_on_a_small_labelled_set():
    recs = labelled_set(400, seed=3, short_queries=False)
    ids = [r["id"] for r in recs]
    res = dedup(ids, [r["text"] for r in recs])
    s = pairwise_scores([r["group"] for r in recs], [ids[i] for i in res.semantic_rep])
    assert s["precision"] >= 0.98 and s["recall"] >= 0.9, s


def test_cli_contract(tmp_path):
    inp = tmp_path / "q.jsonl"
    inp.write_bytes(b"\n".join(orjson.dumps({"id": k, "query": v, "extra": 1}) for k, v in TEXTS.items()))
    out = tmp_path / "out"
    p = subprocess.run([sys.executable, "-m", "cogevol.cli", "dedup", "--input", str(inp), "--field", "query", "--out", str(out)],
                       capture_output=True, text=True, check=True)
    summary = json.loads(p.stdout)
    assert summary["input"] == 7 and summary["semantic_groups"] == 4
    sem = list(csv.DictReader(open(out / "semantic_query_groups.csv", encoding="utf-8")))
    assert {r["id"] for r in sem} == set(TEXTS) and all(r["representative_id"] in TEXTS for r in sem)
    # bad input: duplicate ids is a usage error with a clear message
    inp.write_bytes(b'{"id": "x", "query": "a"}\n{"id": "x", "query": "b"}\n')
    p = subprocess.run([sys.executable, "-m", "cogevol.cli", "dedup", "--input", str(inp), "--field", "query", "--out", str(out)],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "duplicate id" in p.stderr


def test_csv_input_and_survivors(tmp_path):
    from cogevol.dedup.records import dedup_file

    inp = tmp_path / "q.csv"
    with open(inp, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "query"])
        w.writerows(TEXTS.items())
    _, summary = dedup_file(inp, "query", tmp_path / "out", survivors=True)
    kept = [orjson.loads(x) for x in (tmp_path / "out" / "deduped.jsonl").read_bytes().splitlines()]
    assert summary["semantic_groups"] == 4 and [k["id"] for k in kept] == ["a1", "b1", "c1", "d1"]
    assert kept[0]["dedup"] == {"group_size": 3, "lexical_group_size": 2}
