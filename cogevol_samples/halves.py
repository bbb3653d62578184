"""The tune and held halves of the labelled corpora the reward is measured on, split by source
and so by request (issue 66): every source (a taxonomy slice, a public repository, the eval
suite, a template) goes wholly to one half, and a request several sources hold lands where all
of them are (the floor corpus reuses the eval suite's, the test slice's and the language tasks'
requests). Tune: what readings, lexicons and thresholds may be fitted to; held: scored only at
the end.

Used by data/reading/tools/build_labels.py (requests), benchmarks/probe_real.py and
benchmarks/probe_floor.py (pages) and benchmarks/reading.py.
"""

from __future__ import annotations

TUNE = frozenset(
    {
        "taxonomy-dev",
        "webgen-bench",
        "html-suite",
        "floor:html_suite",
        "floor:electricazimuth",
        "real:MervinPraison/PraisonAIBench",
        "real:electricazimuth/LocalLLM_VisualCodeTest",
        "real:nuance-dev/rival",
    }
)
HELD = frozenset(
    {
        "taxonomy-test",
        "taxonomy-fresh",
        "probe-language",
        "floor:slice_test",
        "floor:cs_template",
        "floor:probe_language",
        "real:Techdread/LLM-HTML-Gallery",
        "real:ArjunDivecha/vibe-code-bench",
        "real:cclank/model-ui-arena",
    }
)


def half_of(source: str) -> str:
    """The half of `source`, "tune" or "held"; a source in neither is an error (a new corpus
    must be placed)."""
    if source in TUNE:
        return "tune"
    if source in HELD:
        return "held"
    raise ValueError(f"source {source!r} is in no half: add it to cogevol_samples/halves.py")


def real_source(label: dict) -> str:
    """A data/probe_real page's source: its repository."""
    return f"real:{label['source']['repo']}"


def floor_source(label: dict) -> str:
    """A data/probe_floor answer's source: where its request came from."""
    path = label["source"].get("path") or ""
    for needle, name in (
        ("html_suite", "floor:html_suite"),
        ("slice_test", "floor:slice_test"),
        ("probe_language", "floor:probe_language"),
        ("cs-concept", "floor:cs_template"),
    ):
        if needle in path:
            return name
    if label["source"].get("repo") == "electricazimuth/LocalLLM_VisualCodeTest" or path.startswith(
        "results/"
    ):
        return "floor:electricazimuth"
    raise ValueError(f"{label['id']}: no source for {path!r}")
