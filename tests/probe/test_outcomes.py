"""Typed page outcomes, decided from what the page did (Playwright's crash and main-frame
navigation events, a timeout), not from an exception's wording. Real Chromium."""

import asyncio

import pytest

from cogevol.probe.config import PageOutcome
from cogevol.scoring.local import score_pages

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PAGES = {
    "reload": "<p>x</p><script>setTimeout(()=>location.reload(),5)</script>",
    "allocate": "<p>x</p><script>const a=[];while(true)a.push(new Array(1e6).fill(Math.random()))</script>",
    "fine": "<button onclick=\"o.textContent='on'\">Go</button><p id=o>off</p>",
}


def test_a_reloading_page_is_navigated_a_crashing_one_crashed_and_both_the_pages_fault():
    rows = {r["path"]: r for r in asyncio.run(score_pages(list(PAGES.items())))}
    assert rows["reload"]["outcome"] == PageOutcome.PAGE_NAVIGATED and rows["reload"]["hard_fail"]
    assert rows["allocate"]["outcome"] == PageOutcome.PAGE_CRASHED and rows["allocate"]["hard_fail"]
    assert rows["fine"]["outcome"] == PageOutcome.OK and not rows["fine"]["hard_fail"]
    assert not any(r["harness_error"] for r in rows.values())  # the page's doing, never ours
