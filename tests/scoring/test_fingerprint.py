"""The scoring fingerprint: what decides a score changes it, what only decides speed does not;
a backend that would score with other settings is refused, naming the part that differs."""

from dataclasses import replace

import pytest

from cogevol.core.config import load_params
from cogevol.probe import ProbeConfig
from cogevol.rewards.html import TermSettings
from cogevol.scoring import ScoringSettings
from cogevol.scoring.fingerprint import (
    FingerprintMismatch,
    check_same,
    fingerprint,
    fingerprint_parts,
)
from cogevol.scoring.ray_transport import RayScorers

BASE = ScoringSettings.from_params(load_params())


def test_the_fingerprint_is_stable_and_operational_knobs_leave_it():
    assert fingerprint_parts(BASE) == fingerprint_parts(ScoringSettings.from_params(load_params()))
    same = [replace(BASE, workers=7), replace(BASE, screenshots=True), replace(BASE, browser=replace(BASE.browser, instances=4)),
            replace(BASE, probe=replace(BASE.probe, screenshot=True)), replace(BASE, slides={**BASE.slides, "pages": 9})]
    assert {fingerprint(s) for s in same} == {fingerprint(BASE)}


@pytest.mark.parametrize("changed", [
    replace(BASE, probe=replace(BASE.probe, page_timeout_s=20.0)),
    replace(BASE, terms=replace(BASE.terms, fulfilment_gate=not BASE.terms.fulfilment_gate)),
    replace(BASE, weights={**(BASE.weights or {}), "fulfilment": 0.9}),
    replace(BASE, browser=replace(BASE.browser, js_heap_mb=512)),
    replace(BASE, browser=replace(BASE.browser, mirror=None)),
    replace(BASE, slides={**BASE.slides, "weights": {"rules": 1.0}}),
])
def test_what_decides_a_score_changes_the_settings_part(changed):
    a, b = fingerprint_parts(BASE), fingerprint_parts(changed)
    assert a["settings"] != b["settings"] and a["fingerprint"] != b["fingerprint"]
    assert (a["code"], a["cdn_lock"]) == (b["code"], b["cdn_lock"])


def test_a_mismatch_is_refused_and_says_which_part_differs():
    mine = fingerprint_parts(BASE)
    check_same(mine, dict(mine), "the service")  # the same: no error
    theirs = fingerprint_parts(replace(BASE, probe=replace(ProbeConfig(), page_timeout_s=20.0)))
    with pytest.raises(FingerprintMismatch, match=r"the service scores with other settings than this run: the scoring settings"):
        check_same(mine, theirs, "the service")
    with pytest.raises(FingerprintMismatch, match="CDN mirror lock"):
        check_same(mine, {**mine, "cdn_lock": "0" * 16, "fingerprint": "x"}, "the service")
    with pytest.raises(FingerprintMismatch, match="publishes no scoring fingerprint"):
        check_same(mine, {}, "the service")


def test_a_ray_actor_with_another_fingerprint_is_refused():
    ray = RayScorers(replace(BASE, terms=TermSettings()))
    ray._check({"node": "n1", "fingerprint_parts": dict(ray.parts)})
    with pytest.raises(FingerprintMismatch, match="the Ray actor on node n2 .*the scoring code version"):
        ray._check({"node": "n2", "fingerprint_parts": {**ray.parts, "code": "other", "fingerprint": "other"}})
