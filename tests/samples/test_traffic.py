from collections import Counter

from cogevol.traffic.classify import classify
from cogevol.traffic.schema import validate
from cogevol_samples.traffic import generate_traffic, near_variant


def test_generator_is_deterministic_and_valid():
    a = list(generate_traffic(300, seed=5))
    assert a == list(generate_traffic(300, seed=5))
    assert a != list(generate_traffic(300, seed=6))
    for r in a:
        validate(r)


def test_sample_mix_matches_what_curation_must_handle():
    recs = list(generate_traffic(3000, seed=0))
    requests = [r["messages"][0]["content"] for r in recs]
    langs = Counter(r["locale"].split("-")[0] for r in recs)
    assert {"zh", "en"} <= set(langs) and len(langs) >= 6
    cats = Counter(classify(t).category for t in requests)
    assert cats["slide"] > 500 and cats["html"] > 500 and cats["off_scope"] > 150
    assert len(requests) - len(set(requests)) > 50  # planted exact duplicates
    assert sum("@" in t for t in requests) > 50  # planted PII
    fb = [r["feedback"] for r in recs]
    assert sum(f["thumb"] == "down" for f in fb) > 100 and sum(bool(f["render_error"]) for f in fb) > 20


def test_near_variant_applies_named_operations():
    import random

    text, ops = near_variant(random.Random(1), "Build a snake game with a score counter, blue theme", "en", 3)
    assert len(ops) == 3 and text != "Build a snake game with a score counter, blue theme"
