"""The held-out learning benchmark's requests: the split rule holds (no held-out request shares a
topic, a topic's words or a template sentence with a training one), and a leak is caught."""

from __future__ import annotations

import random
import re

from cogevol_samples.request_families import (
    HELD_FAMILIES,
    LANGS,
    TEMPLATES,
    TOPICS,
    UI,
    build,
    held_out,
    instantiate,
    leaks,
    template_split,
    topic_split,
)


def test_no_held_out_request_shares_a_topic_or_template_with_training():
    reqs = build(120, 60, seed=3)
    assert len(reqs["train"]) == 120 and len(reqs["held"]) == 60
    assert leaks(reqs["train"], reqs["held"]) == []
    for side, rows in reqs.items():
        for r in rows:
            assert r.split == side
            family, lang, index = r.template.split("/")
            assert topic_split(r.family, r.topic) == side
            assert template_split(family, lang, int(index)) == side


def test_held_out_sentences_are_not_training_sentences_with_other_words():
    """The template is the sentence with its slots blanked: no held-out one equals a training one."""
    reqs = build(120, 60, seed=5)

    def skeleton(r):
        text = r.prompt
        for words in dict(TOPICS[r.family])[r.topic].values():
            text = text.replace(words, "{topic}")
        return re.sub(r'\d+|"[^"]*"', "#", text)

    assert not {skeleton(r) for r in reqs["held"]} & {skeleton(r) for r in reqs["train"]}


def test_each_side_covers_its_families_and_several_languages():
    reqs = build(40, 20)
    assert {r.family for r in reqs["train"]} == set(TOPICS) - set(HELD_FAMILIES)
    assert {r.family for r in reqs["held"]} == set(TOPICS)
    for rows in reqs.values():
        assert len({r.lang for r in rows}) >= 3


def test_the_held_out_tiers_are_distinct_and_new():
    """Near: trained families' held topics and templates; far: at least two families never
    trained on; at least 60 distinct requests across the languages, none twice."""
    held = held_out(seed=1)
    near = [r for r in held if r.tier == "near"]
    far = [r for r in held if r.tier == "far"]
    assert len(held) >= 60 and len({r.prompt for r in held}) == len(held)
    assert len({r.family for r in far}) >= 2 and {r.family for r in far} == set(HELD_FAMILIES)
    assert {r.family for r in near} == set(TOPICS) - set(HELD_FAMILIES)
    assert {r.lang for r in held} == set(LANGS)
    assert leaks(build(200, 0, seed=2)["train"], held) == []


def test_a_leaked_topic_or_template_is_reported():
    train = build(40, 0)["train"]
    rng = random.Random(0)
    trained = train[0]
    family, lang, index = trained.template.split("/")
    leak = instantiate(family, trained.topic, lang, int(index), rng)
    found = leaks(train, [leak])
    assert any("topic" in f for f in found) and any("template" in f for f in found)
    assert leak.split == "train"  # a request made of training parts is labelled so


def test_a_mixed_request_is_labelled_mixed_and_never_drawn():
    family = "counter"
    held_topic = [k for k, _ in TOPICS[family] if topic_split(family, k) == "held"][0]
    r = instantiate(family, held_topic, "en", 0, random.Random(0))  # template 0 trains
    assert r.split == "mixed"
    assert all(x.split != "mixed" for rows in build(60, 30).values() for x in rows)


def test_reference_pages_name_the_requested_controls_in_the_request_language():
    for r in build(20, 0)["train"]:
        assert r.reference.startswith("<!DOCTYPE html>") and r.reference.endswith("</html>")
        assert f'lang="{r.lang}"' in r.reference
        for label in re.findall(r'"([^"]+)"', r.prompt):
            assert f">{label}</button>" in r.reference, (r.id, label)


def test_every_family_has_a_held_out_template_in_every_language():
    for family, by_lang in TEMPLATES.items():
        assert set(by_lang) == set(LANGS) == set(UI)
        for lang, sentences in by_lang.items():
            sides = [template_split(family, lang, i) for i in range(len(sentences))]
            if family in HELD_FAMILIES:
                assert set(sides) == {"held"}
            else:
                assert sides.count("held") == 1 and "train" in sides
