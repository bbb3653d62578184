"""Layout at tablet and phone sizes is measured once the page has heard the new size: a canvas
sized to the window in a resize handler does not overflow the phone. Real Chromium."""

import asyncio

import pytest

from cogevol.scoring.local import score_pages

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

FITS = ("<body style='margin:0'><canvas id=c></canvas><button id=b>Go</button><p id=o>0</p><script>"
        "const fit=()=>{c.width=innerWidth;c.height=200};fit();addEventListener('resize',fit);"
        "b.onclick=()=>o.textContent=+o.textContent+1</script>")
FIXED = FITS.replace("c.width=innerWidth", "c.width=1280")


def test_a_canvas_that_follows_the_window_fits_the_phone_and_a_fixed_one_does_not():
    rows = {r["path"]: r for r in asyncio.run(score_pages([(f"fits{k}", FITS) for k in range(3)] + [("fixed", FIXED)]))}
    for k in range(3):  # every time, not only on a quiet machine
        assert rows[f"fits{k}"]["terms"]["viewport_mobile"] == 0.0, rows[f"fits{k}"]["terms"]
        assert rows[f"fits{k}"]["terms"]["viewport_tablet"] == 0.0
    assert rows["fixed"]["terms"]["viewport_mobile"] >= 0.35
