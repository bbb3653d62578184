"""The page runs as a person opens it: a secure context (crypto.randomUUID, media devices), a
camera and a microphone that grant access, and CDN libraries pinned by Subresource Integrity
served from the mirror. Real Chromium."""

import asyncio

import pytest

from cogevol.browser.pool import without_integrity
from cogevol.scoring.local import score_pages

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PAGES = {
    # a to-do list whose ids come from crypto.randomUUID (only in secure contexts)
    "uuid_todo": "<input id=t value='milk'><button id=a>Add</button><ul id=l></ul><script>"
                 "a.onclick=()=>{const li=document.createElement('li');li.dataset.id=crypto.randomUUID();"
                 "li.textContent=t.value;l.append(li)}</script>",
    # a recorder: Record asks for the microphone
    "recorder": "<button id=r>Record</button><p id=s>idle</p><script>r.onclick=async()=>{"
                "const m=await navigator.mediaDevices.getUserMedia({audio:true});"
                "s.textContent='recording '+m.getAudioTracks().length}</script>",
    # Chart.js from a CDN with an integrity pin the mirror's copy cannot match
    "sri_chart": "<script src='https://cdn.jsdelivr.net/npm/chart.js@4.4.1' integrity='sha384-"
                 "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' crossorigin='anonymous'>"
                 "</script><canvas id=c width=300 height=150></canvas><button id=b>Draw</button><script>"
                 "b.onclick=()=>new Chart(c,{type:'bar',data:{labels:['a','b'],datasets:[{data:[1,2]}]},"
                 "options:{animation:false}})</script>",
}


def test_secure_context_media_and_pinned_cdn_libraries_work():
    rows = {r["path"]: r for r in asyncio.run(score_pages(list(PAGES.items())))}
    assert set(rows) == set(PAGES)  # every page scored: the loop below cannot pass on an empty result
    for name, r in rows.items():
        assert not r["hard_fail"] and r["controls_live"] >= 1, (name, r["reason"])
        assert r["terms"]["console_errors"] == 0, (name, r.get("errors"))


def test_random_ids_are_seeded_so_a_dead_button_stays_dead():
    # a fresh id every 300 ms: the twin draws the same ids, so only an input could change more
    page = ("<button>Shuffle</button><p id=o></p><script>setInterval(()=>"
            "o.textContent=crypto.randomUUID(),300)</script>")
    (r,) = asyncio.run(score_pages([("ids", page)]))
    assert r["hard_fail"] and "none of 1 operable controls" in r["reason"], r["reason"]


def test_integrity_pins_are_taken_off_scripts_and_stylesheets_only():
    html = ("<script src=x integrity=\"sha384-1\" crossorigin></script><link href=y integrity='sha1'>"
            "<p>integrity=\"kept\"</p>")
    assert without_integrity(html) == "<script src=x crossorigin></script><link href=y><p>integrity=\"kept\"</p>"
