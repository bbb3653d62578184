"""Integrity of data/probe_real/: real third-party pages with one person's labels (no browser)."""
from __future__ import annotations

import json
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "data" / "probe_real"
KINDS = {"interactive", "animation", "static"}
FIELDS = {"id", "file", "request_id", "request", "expects", "should_pass", "grade", "notes", "source"}
SOURCE_FIELDS = {"repo", "path", "commit", "url", "licence", "author_or_model"}
OPEN_LICENCES = {"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "CC-BY-4.0", "CC0-1.0", "Unlicense"}


@pytest.fixture(scope="module")
def labels() -> list[dict]:
    path = CORPUS / "labels.jsonl"
    assert path.is_file(), "labels.jsonl missing"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows


def test_enough_pages(labels):
    assert len(labels) >= 60


def test_ids_and_files_unique(labels):
    ids = [r["id"] for r in labels]
    assert len(ids) == len(set(ids))
    files = [r["file"] for r in labels]
    assert len(files) == len(set(files))


def test_every_label_has_valid_fields(labels):
    for r in labels:
        assert FIELDS <= set(r), (r.get("id"), FIELDS - set(r))
        assert isinstance(r["request"], str) and len(r["request"].strip()) >= 20, r["id"]
        assert isinstance(r["request_id"], str) and r["request_id"], r["id"]
        assert isinstance(r["expects"], list) and r["expects"], r["id"]
        assert set(r["expects"]) <= KINDS, r["id"]
        assert len(set(r["expects"])) == len(r["expects"]), r["id"]
        assert isinstance(r["should_pass"], bool), r["id"]
        assert isinstance(r["grade"], int) and not isinstance(r["grade"], bool), r["id"]
        assert 1 <= r["grade"] <= 5, r["id"]
        assert isinstance(r["notes"], str) and r["notes"].strip() and "\n" not in r["notes"], r["id"]
        # a page judged as failing the gate cannot be graded as good, and vice versa
        if not r["should_pass"]:
            assert r["grade"] <= 2, r["id"]
        else:
            assert r["grade"] >= 2, r["id"]


def test_requests_are_consistent_within_a_group(labels):
    by_req: dict[str, set] = {}
    for r in labels:
        by_req.setdefault(r["request_id"], set()).add((r["request"], tuple(sorted(r["expects"]))))
    for rid, variants in by_req.items():
        assert len(variants) == 1, f"{rid}: pages of one request disagree on request text/expects"


class _Sniffer(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = Counter()

    def handle_starttag(self, tag, attrs):
        self.tags[tag] += 1


def test_files_exist_are_small_and_parse_as_html(labels):
    for r in labels:
        f = CORPUS / r["file"]
        assert f.is_file(), r["file"]
        assert re.fullmatch(r"[a-z0-9_.-]+\.html", f.name), f.name
        assert f.name == r["id"] + ".html"
        data = f.read_bytes()
        assert 0 < len(data) < 300 * 1024, (f.name, len(data))
        text = data.decode("utf-8")  # must be text
        p = _Sniffer()
        p.feed(text)
        p.close()
        assert p.tags["html"] + p.tags["body"] + p.tags["canvas"] + p.tags["script"] > 0, f.name


def test_sources_have_licence_and_licence_file(labels):
    for r in labels:
        s = r["source"]
        assert SOURCE_FIELDS <= set(s), (r["id"], SOURCE_FIELDS - set(s))
        assert re.fullmatch(r"[^/\s]+/[^/\s]+", s["repo"]), s["repo"]
        assert re.fullmatch(r"[0-9a-f]{40}", s["commit"]), r["id"]
        assert s["url"].startswith("https://github.com/" + s["repo"] + "/"), r["id"]
        assert s["licence"] in OPEN_LICENCES, (r["id"], s["licence"])
        lic = CORPUS / "licenses" / (s["repo"].replace("/", "__") + ".txt")
        assert lic.is_file() and lic.stat().st_size > 200, lic


def test_enough_groups_of_same_request(labels):
    counts = Counter(r["request_id"] for r in labels)
    assert sum(1 for n in counts.values() if n >= 3) >= 12, counts
    in_groups = sum(n for n in counts.values() if n >= 2)
    assert in_groups >= 0.8 * len(labels)


def test_groups_mix_quality(labels):
    """Pairs inside a request are informative only if grades differ somewhere."""
    grades: dict[str, set] = {}
    for r in labels:
        grades.setdefault(r["request_id"], set()).add(r["grade"])
    assert sum(1 for g in grades.values() if len(g) > 1) >= 10


def test_interactive_and_animation_kinds_and_verdicts_present(labels):
    kinds = Counter(k for r in labels for k in r["expects"])
    assert kinds["interactive"] >= 15 and kinds["animation"] >= 15, kinds
    verdicts = Counter(r["should_pass"] for r in labels)
    assert verdicts[True] >= 5 and verdicts[False] >= 5, verdicts


def test_interactive_animation_and_static_requests_all_present(labels):
    kinds = Counter(k for r in labels for k in r["expects"])
    assert kinds["interactive"] >= 15 and kinds["animation"] >= 15, kinds
    assert kinds["static"] >= 8, kinds
    static_reqs = {r["request_id"] for r in labels if "static" in r["expects"]}
    assert len(static_reqs) >= 2, static_reqs


def test_techniques_are_tallied(labels):
    """Each page lists the techniques its source uses; animation is not only canvas/WebGL."""
    for r in labels:
        assert isinstance(r.get("techniques"), list), r["id"]
    dom_anim = [r for r in labels if "animation" in r["expects"]
                and not {"canvas 2D", "WebGL / three.js"} & set(r["techniques"])]
    assert len(dom_anim) >= 8, len(dom_anim)
    assert "## Techniques" in (CORPUS / "README.md").read_text(encoding="utf-8")


def test_readme_present():
    readme = CORPUS / "README.md"
    assert readme.is_file()
    text = readme.read_text(encoding="utf-8")
    assert "labelled by" in text.lower() and "licen" in text.lower()
