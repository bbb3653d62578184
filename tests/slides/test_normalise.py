import pytest

from cogevol.slides.contract import ContractError, parse
from cogevol.slides.normalise import normalise


def test_near_miss_output_is_repaired_and_every_repair_reported():
    near = {"slides": [[
        {"type": "Heading", "content": "Cells", "left": 0.05, "top": 0.05, "width": 0.9, "height": 0.1},
        {"type": "list", "bullets": "- nucleus\n- membrane", "x": "60px", "y": 150, "w": 500, "h": 300, "fontSize": 24},
        {"type": "graph", "chart": "column", "labels": ["a", "b"], "values": ["1", "2"], "x": 600, "y": 150,
         "w": 500, "h": 300, "animation": "fade"},
    ]], "theme": {"background": "white"}}
    fixed, fixes = normalise(near)
    deck = parse(fixed)  # valid after repair
    title, bullets, chart = deck.slides[0]
    assert (title.type, title.props["text"], title.x, title.w) == ("title", "Cells", 64.0, 1152.0)
    assert bullets.props["items"] == ["nucleus", "membrane"] and bullets.x == 60.0 and bullets.props["size"] == 24
    assert chart.props["chart"] == "bar" and chart.props["series"] == [{"name": "", "values": [1.0, 2.0]}]
    assert deck.theme["background"] == "#ffffff"
    text = "\n".join(fixes)
    for expected in ("set version", "wrapped an element list in a slide", "'Heading' -> 'title'", "fractional box",
                     "renamed 'fontSize' to 'size'", "split a string into lines", "dropped unknown field 'animation'",
                     "'column' -> 'bar'", "'white' -> '#ffffff'"):
        assert expected in text, expected
    # the input object itself is not modified: its unknown field is still there
    assert near["slides"][0][2].get("animation") == "fade"


def test_valid_output_needs_no_repair():
    good = {"version": "cogevol-slides/1", "slides": [{"elements": [
        {"type": "title", "text": "x", "x": 10, "y": 10, "w": 100, "h": 50}]}]}
    assert normalise(good) == (good, [])


def test_what_cannot_be_repaired_still_fails_the_contract():
    fixed, _ = normalise({"slides": [{"elements": [{"type": "video", "x": 0, "y": 0, "w": 1, "h": 1}]}]})
    with pytest.raises(ContractError, match="type"):
        parse(fixed)
    with pytest.raises(ContractError, match="no JSON"):
        normalise("no slides today")
