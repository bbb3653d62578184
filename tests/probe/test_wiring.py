import pytest

from cogevol.probe import Control
from cogevol.probe.wiring import runtime_wiring, source_wiring


@pytest.mark.parametrize(
    "html, why",
    [
        ('<button onclick="draw()">Pen</button>', "handler attribute"),
        ("<script>undefinedThing(); pen.addEventListener('click', draw)</script>", "addEventListener"),
        ("<script>canvas.onmousedown = start</script>", "handler property"),
        ("<script>$('#pen').on('click', draw)</script>", "jQuery handler"),
        ("<button onClick={draw}>Pen</button>", "framework handler"),
        ('<button @click="draw">Pen</button>', "framework handler"),
    ],
)
def test_the_source_wires_controls_even_when_its_script_never_runs(html, why):
    assert why in source_wiring(html)


@pytest.mark.parametrize(
    "html",
    [
        "<button>Buy now</button><a href='#about'>About</a>",  # plain markup
        "<script>window.addEventListener('resize', fit); setInterval(tick, 1000)</script>",
        "<script>document.addEventListener('mousemove', parallax)</script>",  # hover, not a control
        "<!-- <button onclick='x()'> --><script>/* el.addEventListener('click', f) */</script>",
    ],
)
def test_markup_timers_and_comments_wire_nothing(html):
    assert source_wiring(html) == []


def test_runtime_wiring_counts_driven_controls_that_hear_input():
    heard = Control(0, "click", "button", "Go", "operable", verdict="dead", hears=True)
    deaf = Control(1, "click", "button", "Buy", "operable", verdict="dead")
    undriven = Control(2, "click", "button", "X", "skipped", hears=True)
    assert runtime_wiring([heard, deaf, undriven]) == ["listeners on 1 driven controls"]
    assert runtime_wiring([deaf, undriven]) == []
