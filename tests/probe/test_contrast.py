"""Text contrast is read against what is painted behind the text: semi-transparent layers
composited, text laid over a canvas or an image not judged (its backdrop is a picture), pale text
on white still low contrast. Real Chromium."""

import asyncio

import pytest

from cogevol.scoring.local import score_pages

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

BUTTON = ("<button id=b style='color:#000;background:#ddd'>Add</button><p id=o style='color:#000;"
          "background:#fff'>0</p><script>b.onclick=()=>o.textContent=+o.textContent+1</script>")
PAGES = {
    # white text on a dark panel of 60% opacity over a dark page: composited, it reads well
    "overlay": "<body style='background:#111;margin:0'><div style='background:rgba(0,0,0,.6)'>"
               "<h1 style='color:#fff'>Title</h1><p style='color:#eee'>Some words</p></div>" + BUTTON,
    # white text laid over a dark canvas it does not descend from
    "over_canvas": "<body style='margin:0'><canvas id=c width=800 height=300></canvas>"
                   "<div style='position:absolute;top:20px;left:20px;color:#fff'><h1>Score</h1><p>Lives</p></div>"
                   "<script>const x=c.getContext('2d');x.fillStyle='#000';x.fillRect(0,0,800,300)</script>" + BUTTON,
    # pale grey on white is low contrast, as before
    "pale": "<body><h1 style='color:#ddd'>Title</h1><p style='color:#eee'>Some words</p>" + BUTTON,
    # pale text on a translucent white panel over white: still low contrast
    "pale_translucent": "<body><div style='background:rgba(255,255,255,.5)'><h1 style='color:#ddd'>T</h1>"
                        "<p style='color:#e5e5e5'>words</p></div>" + BUTTON,
}


def test_contrast_follows_what_is_painted_behind_the_text():
    rows = {r["path"]: r for r in asyncio.run(score_pages(list(PAGES.items())))}
    assert not any(r["hard_fail"] for r in rows.values()), {k: r["reason"] for k, r in rows.items()}
    desktop = {k: r["terms"]["viewport_desktop"] for k, r in rows.items()}
    assert desktop["overlay"] == 0.0 and desktop["over_canvas"] == 0.0, desktop
    assert desktop["pale"] > 0 and desktop["pale_translucent"] > 0, desktop
